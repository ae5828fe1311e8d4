import type { ImagePoint } from '../../domain/geo';
import type { DrawnWorker } from './canvasTypes';
import type { LayerStack } from './layers/LayerStack';
import type { FloorScene } from './scene';
import { imageToScreen, type ViewState } from './viewport';

/**
 * Frames rendered, zone and marker rebuilds, and main-thread milliseconds spent in Pixi's render
 * calls so far: tests check that panning never rebuilds the zones; the benchmark splits CPU from GPU.
 */
export interface CanvasStats {
  readonly renderedFrames: number;
  readonly zoneRedraws: number;
  readonly workerRedraws: number;
  readonly workersDrawn: number;
  readonly renderMs: number;
  /** Main-thread time of rendered frames: sampling the workers, the layers' updates and the render. */
  readonly frameMs: number;
  readonly antialias: boolean;
}

/** The engine's frame timings, counted only for frames it rendered. */
export class FrameStatistics {
  private renderedFrames = 0;
  private renderMs = 0;
  private frameMs = 0;

  /** Runs `render` and counts it as a frame begun at `frameStarted` (a performance.now() time). */
  timeRender(frameStarted: number, render: () => void): void {
    this.renderedFrames++;
    const started = performance.now();
    render();
    const ended = performance.now();
    this.renderMs += ended - started;
    this.frameMs += ended - frameStarted;
  }

  read(layers: LayerStack, scene: FloorScene, antialias: boolean): CanvasStats {
    return {
      antialias,
      renderedFrames: this.renderedFrames,
      zoneRedraws: layers.redraws('zones'),
      workerRedraws: layers.redraws('workers'),
      workersDrawn: scene.workers.count,
      renderMs: this.renderMs,
      frameMs: this.frameMs,
    };
  }
}

/** The markers as drawn, with where each is on the canvas element: what end-to-end tests read. */
export function drawnWorkers(scene: FloorScene, view: ViewState): DrawnWorker[] {
  const workers = scene.workers;
  const drawn: DrawnWorker[] = [];
  for (let i = 0; i < workers.count; i++) {
    const x = workers.x(i);
    const y = workers.y(i);
    const screen = imageToScreen(view, { x, y } as ImagePoint);
    const inventory_id = workers.worker(i).inventory_id;
    drawn.push({ inventory_id, x, y, screenX: screen.x, screenY: screen.y, colour: workers.colour(i) });
  }
  return drawn;
}
