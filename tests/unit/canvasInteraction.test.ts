import { describe, expect, it } from 'vitest';
import type { FloorCorners, LongLat, Zone } from '../../src/domain/floor';
import { floorTransform, imagePoint, toLongLat } from '../../src/domain/geo';
import { gestureTransition, IDLE } from '../../src/views/canvas/pointerGesture';
import { FloorScene } from '../../src/views/canvas/scene';
import { fitView, imageToScreen, screenPoint, screenToImage, zoomAt } from '../../src/views/canvas/viewport';

const corners: FloorCorners = {
  a: { lat: 25.2012, long: 55.27 },
  b: { lat: 25.2016, long: 55.272 },
  c: { lat: 25.2005, long: 55.2724 },
  d: { lat: 25.2001, long: 55.2704 },
};
const size = { width: 2000, height: 1200 };
const transform = floorTransform(corners, size);

function zone(id: number, ring: [number, number][]): Zone {
  return {
    id,
    floor_id: 1,
    name: `Zone ${id}`,
    kind: 'work',
    coordinates: ring.map(([x, y]): LongLat => toLongLat(transform.toGeo(imagePoint(x, y)))),
    created_at: '',
    updated_at: '',
  };
}

const square = (x: number, y: number, s: number): [number, number][] => [
  [x, y],
  [x + s, y],
  [x + s, y + s],
  [x, y + s],
];

describe('the viewport', () => {
  it('fits the floor centred and zooms around the anchor', () => {
    const view = fitView(size, { width: 1032, height: 1032 });
    expect(view.scale).toBeCloseTo(0.5);
    expect(view).toMatchObject({ x: 16, y: 216 });
    const anchor = screenPoint(300, 400);
    const under = screenToImage(view, anchor);
    const zoomed = zoomAt(view, anchor, 2, { min: 0.1, max: 16 });
    expect(zoomed.scale).toBeCloseTo(1);
    const back = imageToScreen(zoomed, under);
    expect(back.x).toBeCloseTo(300);
    expect(back.y).toBeCloseTo(400);
    expect(zoomAt(view, anchor, 1000, { min: 0.1, max: 16 }).scale).toBe(16);
  });
});

describe('the pointer gesture', () => {
  const view = { scale: 1, x: 0, y: 0 };
  const down = { type: 'down', pointerId: 1, at: screenPoint(10, 10), view, claimed: false } as const;

  it('is a click when the pointer barely moves', () => {
    let step = gestureTransition(IDLE, down);
    step = gestureTransition(step.state, { type: 'move', pointerId: 1, at: screenPoint(12, 11) });
    expect(step.state.kind).toBe('pointing');
    step = gestureTransition(step.state, { type: 'up', pointerId: 1, at: screenPoint(12, 11) });
    expect(step).toEqual({ state: IDLE, effects: [{ type: 'click', at: screenPoint(12, 11) }] });
  });

  it('pans past the threshold, and cancelling puts the view back', () => {
    let step = gestureTransition(IDLE, down);
    step = gestureTransition(step.state, { type: 'move', pointerId: 1, at: screenPoint(40, 30) });
    expect(step.state.kind).toBe('panning');
    expect(step.effects).toContainEqual({ type: 'setView', view: { scale: 1, x: 30, y: 20 } });
    // Another finger is ignored.
    expect(
      gestureTransition(step.state, { type: 'move', pointerId: 2, at: screenPoint(0, 0) }).effects,
    ).toEqual([]);
    step = gestureTransition(step.state, { type: 'cancel' });
    expect(step).toEqual({ state: IDLE, effects: [{ type: 'setView', view }] });
  });

  it('neither pans nor selects for a press someone claimed', () => {
    let step = gestureTransition(IDLE, { ...down, claimed: true });
    step = gestureTransition(step.state, { type: 'move', pointerId: 1, at: screenPoint(100, 100) });
    expect(step.effects).toEqual([]);
    step = gestureTransition(step.state, { type: 'up', pointerId: 1, at: screenPoint(100, 100) });
    expect(step).toEqual({ state: IDLE, effects: [] });
  });
});

describe('the floor scene', () => {
  function scene(): FloorScene {
    const s = new FloorScene();
    s.setFrame(size, transform);
    s.setZones([
      zone(1, square(100, 100, 200)),
      zone(2, square(200, 200, 200)),
      zone(3, square(1000, 500, 100)),
    ]);
    return s;
  }

  it('hit-tests the topmost zone in image pixels', () => {
    const s = scene();
    expect(s.hitTest(imagePoint(150, 150))?.zone.id).toBe(1);
    expect(s.hitTest(imagePoint(250, 250))?.zone.id).toBe(2);
    expect(s.hitTest(imagePoint(700, 700))).toBeNull();
  });

  it('cycles in list order, wrapping for arrows and stopping at the ends for Tab', () => {
    const s = scene();
    expect(s.neighbour(1, false)).toBe(1);
    s.select(3);
    expect(s.neighbour(1, false)).toBeNull();
    expect(s.neighbour(1, true)).toBe(1);
    s.select(1);
    expect(s.neighbour(-1, true)).toBe(3);
  });

  it('drops the selection when its zone disappears, and versions what changed', () => {
    const s = scene();
    s.select(2);
    const { selectionVersion, zonesVersion } = s;
    s.setZones([zone(1, square(100, 100, 200))]);
    expect(s.selectedId).toBeNull();
    expect(s.selectionVersion).toBe(selectionVersion + 1);
    expect(s.zonesVersion).toBe(zonesVersion + 1);
    expect(s.select(99)).toBe(false);
  });
});
