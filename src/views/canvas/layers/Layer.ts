import type { Container } from 'pixi.js';
import type { ImagePoint } from '../../../domain/geo';
import type { FloorScene } from '../scene';
import type { ViewState } from '../viewport';

/** The layers of a floor view, bottom to top. Later issues fill walls, anchors, workers, heatmap, trails. */
export const LAYER_ORDER = [
  'blueprint',
  'zones',
  'walls',
  'anchors',
  'workers',
  'heatmap',
  'trails',
  'selection',
  'draft',
] as const;
export type LayerName = (typeof LAYER_ORDER)[number];

export interface FrameContext {
  readonly scene: FloorScene;
  readonly view: ViewState;
}

/**
 * One layer of the world container. `update` runs once per animation frame and redraws only when
 * the part of the scene it shows (or, for screen-sized strokes, the zoom) changed; static layers
 * keep their geometry while the view pans. It returns whether it changed anything: the engine
 * renders a frame only when the view or some layer changed.
 */
export interface CanvasLayer {
  readonly name: LayerName;
  attach(world: Container): void;
  update?(frame: FrameContext): boolean;
  destroy(): void;
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
