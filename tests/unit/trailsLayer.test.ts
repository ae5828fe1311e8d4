import { describe, expect, it } from 'vitest';
import { trailsFloorScene } from './helpers/trailsFloor';

// Pixi reads navigator when it loads (Node 20 has none); layers need no renderer to draw.
Object.assign(globalThis, { navigator: globalThis.navigator ?? { userAgent: 'node' } });
const { Container } = await import('pixi.js');
const { LayerStack } = await import('../../src/views/canvas/layers/LayerStack');
const { TRAILS, trailsLayer, TRAIL_COLOURS, trailColour } = await import(
  '../../src/views/canvas/layers/TrailsLayer'
);

function setUp() {
  const scene = trailsFloorScene();
  const world = new Container();
  const stack = new LayerStack([trailsLayer], world);
  return { scene, world, stack };
}

/** A walk of 1,000 positions along the floor's top edge: a straight line. */
const lat = Array.from({ length: 1000 }, () => 25.2008);
const long = Array.from({ length: 1000 }, (_, i) => 55.2702 + i * 1.5e-6);

describe('the trails layer', () => {
  it('draws again only when the trails or the zoom bucket change, never for a pan', () => {
    const { scene, stack } = setUp();
    scene.setData(TRAILS, { trails: [{ key: 'worker:1', colour: trailColour(0), lat, long }] });
    stack.update({ scene, view: { scale: 1, x: 0, y: 0 } });
    expect(stack.redraws('trails')).toBe(1);
    // Panning, and zooming by less than half an octave: nothing is drawn again.
    stack.update({ scene, view: { scale: 1, x: 300, y: -40 } });
    stack.update({ scene, view: { scale: 1.15, x: 300, y: -40 } });
    expect(stack.redraws('trails')).toBe(1);
    stack.update({ scene, view: { scale: 2, x: 300, y: -40 } });
    expect(stack.redraws('trails')).toBe(2);
    scene.setData(TRAILS, { trails: [] });
    stack.update({ scene, view: { scale: 2, x: 300, y: -40 } });
    expect(stack.redraws('trails')).toBe(3);
  });

  it('simplifies a straight walk to a single segment in the trail’s colour', () => {
    const { scene, world, stack } = setUp();
    scene.setData(TRAILS, {
      trails: [
        { key: 'worker:1', colour: trailColour(0), lat, long },
        {
          key: 'worker:2',
          colour: trailColour(1),
          lat: lat.map((v) => v - 0.0004),
          long,
          ranges: [[0, 500]],
        },
      ],
    });
    stack.update({ scene, view: { scale: 1, x: 0, y: 0 } });
    // One Graphics per trail, in the trails' order, under the marks.
    const layer = world.children[0] as import('pixi.js').Container;
    const strokes = layer.children
      .slice(0, 2)
      .flatMap((g) => (g as import('pixi.js').Graphics).context.instructions)
      .filter((i) => i.action === 'stroke');
    expect(strokes.map((s) => (s.data as { style: { color: number } }).style.color)).toEqual([
      TRAIL_COLOURS[0],
      TRAIL_COLOURS[1],
    ]);
    // 1,000 positions on a line: two vertices are drawn, from the first to the last.
    const { path } = strokes[0].data as { path: import('pixi.js').GraphicsPath };
    const { points } = path.shapePath.shapePrimitives[0].shape as unknown as { points: number[] };
    expect(points).toHaveLength(4);
    // Ten distinct colours, then the palette repeats.
    expect(new Set(TRAIL_COLOURS).size).toBe(10);
    expect(trailColour(11)).toBe(TRAIL_COLOURS[1]);
  });

  it('shows a worker who stood still as a dot where they stood, not an empty line', () => {
    const { scene, world, stack } = setUp();
    const still = {
      lat: Array.from({ length: 60 }, () => 25.2005),
      long: Array.from({ length: 60 }, () => 55.271),
    };
    scene.setData(TRAILS, { trails: [{ key: 'worker:1', colour: trailColour(0), ...still }] });
    stack.update({ scene, view: { scale: 1, x: 0, y: 0 } });
    const layer = world.children[0] as import('pixi.js').Container;
    const graphics = layer.children[0] as import('pixi.js').Graphics;
    const drawn = graphics.context.instructions;
    expect(drawn.map((i) => i.action)).toEqual(['fill']);
    const bounds = graphics.context.bounds;
    // The floor's middle, 1000 × 500 px of the 2000 × 1000 image, three pixels across.
    expect(bounds.x + bounds.width / 2).toBeCloseTo(1000, 0);
    expect(bounds.y + bounds.height / 2).toBeCloseTo(500, 0);
    expect(bounds.width).toBeCloseTo(3, 1);
  });
});
