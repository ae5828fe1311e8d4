import { describe, expect, it } from 'vitest';
import type { FloorCorners } from '../../src/domain/floor';
import { floorTransform, imagePoint } from '../../src/domain/geo';
import { MARKER_COLOURS, type WorkerOnMap } from '../../src/domain/inventory';
import { FloorScene } from '../../src/views/canvas/scene';

// Pixi reads navigator when it loads (Node 20 has none); the layer itself needs no renderer.
Object.assign(globalThis, { navigator: globalThis.navigator ?? { userAgent: 'node' } });
const { Container, Texture } = await import('pixi.js');
const { MARKER_PX, WorkersLayer } = await import('../../src/views/canvas/layers/WorkersLayer');
const { MARKER_TEXTURE_PX } = await import('../../src/views/canvas/layers/markerTexture');

const IMAGE = { width: 2000, height: 1000 };
const CORNERS: FloorCorners = {
  a: { lat: 25.201, long: 55.27 },
  b: { lat: 25.201, long: 55.272 },
  c: { lat: 25.2, long: 55.272 },
  d: { lat: 25.2, long: 55.27 },
};
const transform = floorTransform(CORNERS, IMAGE);

function helmetAt(inventoryId: number, x: number, y: number, flags: Partial<WorkerOnMap> = {}): WorkerOnMap {
  const geo = transform.toGeo(imagePoint(x, y));
  return {
    id: inventoryId,
    inventory_id: inventoryId,
    wnt_inventory_id: `H-${inventoryId}`,
    coordinates: { lat: geo.lat, long: geo.long },
    name: `Worker ${inventoryId}`,
    worker_tag_id: null,
    contact_number: null,
    role_name: null,
    subcontractor_name: null,
    last_seen: null,
    is_online: true,
    is_active: true,
    profile_picture_path: null,
    helmet_color: null,
    zone_id: null,
    zone_name: null,
    blueprint_id: 1,
    blueprint_name: 'Level 1',
    ...flags,
  };
}

function mapOf(...workers: WorkerOnMap[]): Map<number, WorkerOnMap> {
  return new Map(workers.map((w) => [w.inventory_id, w]));
}

function sceneWith(...workers: WorkerOnMap[]): FloorScene {
  const scene = new FloorScene();
  scene.setFrame(IMAGE, transform);
  scene.setWorkers(mapOf(...workers));
  return scene;
}

describe('the workers on the scene', () => {
  it('places each helmet at its projected blueprint pixel, coloured by its connection status', () => {
    const scene = sceneWith(
      helmetAt(1, 100, 200),
      helmetAt(2, 1500, 800, { is_active: false }),
      helmetAt(3, 10, 10, { is_online: false }),
      helmetAt(4, 0, 0, { coordinates: null }),
    );
    const w = scene.workers;
    expect(w.count).toBe(3);
    const at = (id: number) => scene.workers.pointOf(id);
    expect(at(1)?.x).toBeCloseTo(100, 6);
    expect(at(1)?.y).toBeCloseTo(200, 6);
    expect(at(2)?.x).toBeCloseTo(1500, 6);
    expect(at(4)).toBeNull();
    expect([0, 1, 2].map((i) => w.colour(i))).toEqual([
      MARKER_COLOURS.active,
      MARKER_COLOURS.inactive,
      MARKER_COLOURS.offline,
    ]);
  });

  it('finds the nearest marker within the radius, and none beyond it', () => {
    const scene = sceneWith(helmetAt(1, 100, 100), helmetAt(2, 108, 100));
    expect(scene.workers.nearest(imagePoint(103, 100), 10)?.inventory_id).toBe(1);
    expect(scene.workers.nearest(imagePoint(106, 101), 10)?.inventory_id).toBe(2);
    expect(scene.workers.nearest(imagePoint(130, 100), 10)).toBeNull();
  });

  it('drops the selection when the selected helmet leaves, and keeps it while it moves', () => {
    const scene = sceneWith(helmetAt(1, 100, 100), helmetAt(2, 300, 300));
    expect(scene.selectWorker(2)).toBe(true);
    scene.setWorkers(mapOf(helmetAt(1, 100, 100), helmetAt(2, 320, 300)));
    expect(scene.selectedWorker?.coordinates).toEqual(helmetAt(2, 320, 300).coordinates);
    scene.setWorkers(mapOf(helmetAt(1, 100, 100)));
    expect(scene.selectedWorkerId).toBeNull();
    expect(scene.selectWorker(9)).toBe(false);
  });
});

describe('WorkersLayer', () => {
  function newLayer() {
    const layer = new WorkersLayer(Texture.WHITE);
    layer.attach(new Container());
    return layer;
  }

  it('draws one marker per helmet, screen-constant in size, and redraws only when the workers change', () => {
    const scene = sceneWith(helmetAt(1, 100, 200), helmetAt(2, 400, 500, { is_online: false }));
    const layer = newLayer();
    const view = { scale: 0.5, x: 0, y: 0 };
    expect(layer.update({ scene, view })).toBe(true);
    expect(layer.markers).toHaveLength(2);
    expect(layer.markers[0].x).toBeCloseTo(100, 6);
    expect(layer.markers[1].y).toBeCloseTo(500, 6);
    expect(layer.markers[0].scaleX * MARKER_TEXTURE_PX * view.scale).toBeCloseTo(MARKER_PX, 6);
    expect(layer.markers[1].tint).toBe(MARKER_COLOURS.offline);
    // Nothing changed: nothing to draw.
    expect(layer.update({ scene, view })).toBe(false);
    // Zooming keeps the markers' screen size and does not rebuild them.
    const zoomed = { scale: 2, x: 0, y: 0 };
    expect(layer.update({ scene, view: zoomed })).toBe(true);
    expect(layer.markers[0].scaleX * MARKER_TEXTURE_PX * zoomed.scale).toBeCloseTo(MARKER_PX, 6);
    expect(layer.redraws).toBe(1);
  });

  it('moves the same markers in place and recolours them as helmets change', () => {
    const scene = sceneWith(helmetAt(1, 100, 200), helmetAt(2, 400, 500));
    const layer = newLayer();
    const view = { scale: 1, x: 0, y: 0 };
    layer.update({ scene, view });
    const [first, second] = layer.markers;
    scene.setWorkers(mapOf(helmetAt(1, 150, 250, { is_active: false }), helmetAt(2, 420, 520)));
    layer.update({ scene, view });
    expect(layer.markers[0]).toBe(first);
    expect(layer.markers[1]).toBe(second);
    expect(first.x).toBeCloseTo(150, 6);
    expect(first.tint).toBe(MARKER_COLOURS.inactive);
    // One leaves, then three are there: the pool shrinks and grows.
    scene.setWorkers(mapOf(helmetAt(2, 420, 520)));
    layer.update({ scene, view });
    expect(layer.markers).toHaveLength(1);
    scene.setWorkers(mapOf(helmetAt(1, 1, 1), helmetAt(2, 2, 2), helmetAt(3, 3, 3)));
    layer.update({ scene, view });
    expect(layer.markers).toHaveLength(3);
    expect(layer.markers[0]).toBe(first);
  });
});
