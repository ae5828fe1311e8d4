import { describe, expect, it } from 'vitest';
import type { FloorCorners } from '../../src/domain/floor';
import { floorTransform } from '../../src/domain/geo';
import type { CanvasLayer, FrameContext, LayerDefinition } from '../../src/views/canvas/layers/Layer';
import { layerData, SCENE_INPUTS } from '../../src/views/canvas/layers/layerInputs';
import { FloorScene } from '../../src/views/canvas/scene';

// Pixi reads navigator when it loads (Node 20 has none); layers need no renderer to draw.
Object.assign(globalThis, { navigator: globalThis.navigator ?? { userAgent: 'node' } });
const { Container, Graphics } = await import('pixi.js');
const { LayerStack } = await import('../../src/views/canvas/layers/LayerStack');
const { withLayer } = await import('../../src/views/canvas/layers/registry');
const { zonesLayer } = await import('../../src/views/canvas/layers/ZonesLayer');

const IMAGE = { width: 2000, height: 1000 };
const CORNERS: FloorCorners = {
  a: { lat: 25.201, long: 55.27 },
  b: { lat: 25.201, long: 55.272 },
  c: { lat: 25.2, long: 55.272 },
  d: { lat: 25.2, long: 55.27 },
};

const SQUARE = layerData<number>('square', 100);

function probes() {
  const counts = { staticDraws: 0, frameUpdates: 0, drawnSide: 0 };
  const staticLayer: LayerDefinition = {
    name: 'square',
    redraw: 'static',
    inputs: [SQUARE, SCENE_INPUTS.frame],
    create: (): CanvasLayer => {
      const graphics = new Graphics({ label: 'square' });
      return {
        attach: (world) => world.addChild(graphics),
        update: ({ scene }: FrameContext) => {
          counts.staticDraws++;
          counts.drawnSide = SQUARE.value(scene);
          graphics.clear().rect(0, 0, counts.drawnSide, counts.drawnSide).fill({ color: 0xff00ff });
          return true;
        },
        destroy: () => graphics.destroy(),
      };
    },
  };
  const frameLayer: LayerDefinition = {
    name: 'ticker',
    redraw: 'frame',
    inputs: [],
    create: () => ({
      attach: () => {},
      // Changes something on every third frame only.
      update: () => ++counts.frameUpdates % 3 === 0,
      destroy: () => {},
    }),
  };
  return { counts, staticLayer, frameLayer };
}

function scene(): FloorScene {
  const s = new FloorScene();
  s.setFrame(IMAGE, floorTransform(CORNERS, IMAGE));
  return s;
}

describe('the layer stack', () => {
  it('draws a registered static layer only when one of its inputs changes', () => {
    const { counts, staticLayer, frameLayer } = probes();
    const world = new Container();
    const registry = withLayer(withLayer([zonesLayer], frameLayer), staticLayer, 'ticker');
    const stack = new LayerStack(registry, world);
    expect(world.children.map((c) => c.label)).toEqual(['zones', 'square']);
    const s = scene();
    const view = { scale: 1, x: 0, y: 0 };

    expect(stack.update({ scene: s, view })).toBe(true);
    expect(counts).toMatchObject({ staticDraws: 1, drawnSide: 100 });
    expect(stack.redraws('zones')).toBe(1);
    // A pan or a zoom: the static layers keep what they drew.
    stack.update({ scene: s, view: { scale: 2, x: 40, y: 10 } });
    expect(counts.staticDraws).toBe(1);

    s.setData(SQUARE, 250);
    stack.update({ scene: s, view });
    expect(counts).toMatchObject({ staticDraws: 2, drawnSide: 250 });
    expect(stack.redraws('zones')).toBe(1);
    expect(stack.redraws('square')).toBe(2);

    s.setZones([]);
    stack.update({ scene: s, view });
    expect(counts.staticDraws).toBe(2);
    expect(stack.redraws('zones')).toBe(2);
    stack.destroy();
  });

  it('asks a per-frame layer every frame and reports a change only when it drew', () => {
    const { counts, frameLayer } = probes();
    const stack = new LayerStack(withLayer([], frameLayer), new Container());
    const frame = { scene: scene(), view: { scale: 1, x: 0, y: 0 } };
    const changed = [1, 2, 3, 4, 5, 6].map(() => stack.update(frame));
    expect(counts.frameUpdates).toBe(6);
    expect(changed).toEqual([false, false, true, false, false, true]);
    expect(stack.redraws('ticker')).toBe(2);
  });
});
