// Two layers that are not the console's, added to a floor canvas through the layer registry
// alone, so canvasLayers.test.ts can show the engine draws a new layer and schedules it as it
// declares: a static one drawn only when its data changes, and one asked every frame.
import { type Container, Graphics } from 'pixi.js';
import { of } from 'rxjs';
import type { Floor } from '../../../src/domain/floor';
import { imagePoint } from '../../../src/domain/geo';
import { FloorCanvasEngine } from '../../../src/views/canvas/FloorCanvasEngine';
import type { CanvasLayer, FrameContext, LayerDefinition } from '../../../src/views/canvas/layers/Layer';
import { layerData } from '../../../src/views/canvas/layers/layerInputs';
import { FLOOR_LAYERS, withLayer } from '../../../src/views/canvas/layers/registry';
import { imageToScreen } from '../../../src/views/canvas/viewport';

export interface ProbeSquare {
  /** The top-left corner and the side, in blueprint pixels. */
  readonly x: number;
  readonly y: number;
  readonly size: number;
}

const PROBE_SQUARE = layerData<ProbeSquare>('probeSquare', { x: 200, y: 300, size: 200 });

const counts = { staticDraws: 0, frameUpdates: 0 };

class StaticProbe implements CanvasLayer {
  private readonly graphics = new Graphics({ label: 'probe-static', eventMode: 'none' });

  attach(world: Container): void {
    world.addChild(this.graphics);
  }

  update({ scene }: FrameContext): boolean {
    counts.staticDraws++;
    const { x, y, size } = PROBE_SQUARE.value(scene);
    this.graphics.clear().rect(x, y, size, size).fill({ color: 0xff00ff });
    return true;
  }

  destroy(): void {
    this.graphics.destroy();
  }
}

/** Asked every frame; draws nothing, so it never makes an idle floor render. */
class FrameProbe implements CanvasLayer {
  attach(): void {}

  update(): boolean {
    counts.frameUpdates++;
    return false;
  }

  destroy(): void {}
}

const staticProbeLayer: LayerDefinition = {
  name: 'probe-static',
  redraw: 'static',
  inputs: [PROBE_SQUARE],
  create: () => new StaticProbe(),
};

const frameProbeLayer: LayerDefinition = {
  name: 'probe-frame',
  redraw: 'frame',
  inputs: [],
  create: () => new FrameProbe(),
};

let engine: FloorCanvasEngine | null = null;

export const canvasLayerProbe = {
  counts,

  /** A bare engine (no React) over `floor`, with the floor's layers and the two probes. */
  async mount(floor: Floor): Promise<string> {
    engine?.destroy();
    counts.staticDraws = 0;
    counts.frameUpdates = 0;
    const host = document.createElement('div');
    host.style.width = '100%';
    host.style.height = '100%';
    const root = document.getElementById('root')!;
    root.replaceChildren(host);
    const layers = withLayer(withLayer(FLOOR_LAYERS, staticProbeLayer, 'workers'), frameProbeLayer);
    engine = new FloorCanvasEngine(host, { floor, label: 'Probe floor', layers });
    return engine.ready;
  },

  stats() {
    return engine!.stats();
  },

  moveSquare(square: ProbeSquare): void {
    engine!.bindLayerData(PROBE_SQUARE, of(square));
  },

  /** Pans the view a little on each of `frames` frames, so every one of them renders. */
  async pan(frames: number): Promise<void> {
    const start = engine!.getView();
    for (let i = 1; i <= frames; i++) {
      engine!.setView({ ...start, x: start.x + i * 3 });
      await new Promise((resolve) => requestAnimationFrame(resolve));
    }
  },

  /** Where a blueprint pixel is on the page (CSS pixels). */
  pageAt(x: number, y: number): { x: number; y: number } {
    const canvas = document.querySelector('#root canvas')!.getBoundingClientRect();
    const s = imageToScreen(engine!.getView(), imagePoint(x, y));
    return { x: canvas.left + s.x, y: canvas.top + s.y };
  },
};

declare global {
  interface Window {
    canvasLayerProbe: typeof canvasLayerProbe;
  }
}
window.canvasLayerProbe = canvasLayerProbe;
