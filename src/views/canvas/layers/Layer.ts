import type { Container } from 'pixi.js';
import type { ImagePoint } from '../../../domain/geo';
import type { FloorScene } from '../scene';
import type { ViewState } from '../viewport';

/** What a layer draws from on a frame: the scene (the floor's model) and the view it is seen through. */
export interface FrameContext {
  readonly scene: FloorScene;
  readonly view: ViewState;
}

/**
 * Something a layer draws from, seen through the value that changes whenever it changes (a
 * version, the zoom, …): the layer stack compares these between frames, never the data itself.
 */
export interface LayerInput {
  readonly name: string;
  version(frame: FrameContext): unknown;
}

/**
 * How a layer is scheduled (Excalidraw's static and interactive canvases):
 * - 'static': drawn on the first frame and again only on a frame where one of its inputs changed;
 *   panning and zooming move it with the world and never redraw it.
 * - 'frame': asked on every animation frame and says whether it drew anything, for what follows
 *   a stream sampled per frame or changes with time (markers, trails, a heatmap that fades).
 */
export type LayerRedraw = 'static' | 'frame';

/**
 * A layer as the registry lists it: what it is called, what it draws from and how often, and how
 * to make the drawing object for one canvas. The engine knows layers only through this.
 */
export interface LayerDefinition {
  readonly name: string;
  readonly redraw: LayerRedraw;
  /** What it subscribes to: a static layer redraws exactly when one of these changes. */
  readonly inputs: readonly LayerInput[];
  create(): CanvasLayer;
}

/**
 * The drawing object of one layer on one canvas: its Pixi display objects in the world container.
 * `update` draws from the frame; a 'frame' layer returns whether it changed anything (the engine
 * renders only frames where the view or some layer changed), a static layer's return is ignored.
 */
export interface CanvasLayer {
  attach(world: Container): void;
  update(frame: FrameContext): boolean;
  destroy(): void;
  /** How many times it rebuilt what it shows, when it counts that itself (else the stack counts draws). */
  readonly redraws?: number;
}

/** A ring as Pixi's `poly()` takes it: x0, y0, x1, y1, … */
export function flatRing(ring: readonly ImagePoint[]): number[] {
  const out = new Array<number>(ring.length * 2);
  for (let i = 0; i < ring.length; i++) {
    out[2 * i] = ring[i].x;
    out[2 * i + 1] = ring[i].y;
  }
  return out;
}
