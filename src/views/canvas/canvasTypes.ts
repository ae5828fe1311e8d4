import type { GeoPoint, ImagePoint } from '../../domain/geo';
import type { WorkerOnMap } from '../../domain/inventory';
import type { ScreenPoint, ViewState } from './viewport';

export type RendererName = 'webgl' | 'webgpu' | 'canvas';
export type CanvasErrorSource = 'renderer' | 'blueprint' | 'corners' | 'zones';

export interface CanvasStatus {
  /** Null until Pixi has picked and started a renderer. */
  readonly renderer: RendererName | null;
  readonly errors: Readonly<Partial<Record<CanvasErrorSource, string>>>;
}

/** A pointer event on the floor, in the blueprint's pixels and on the earth. */
export interface CanvasPointerEvent {
  readonly type: 'down' | 'move' | 'up' | 'dblclick';
  readonly geo: GeoPoint;
  readonly image: ImagePoint;
  readonly screen: ScreenPoint;
  /** The topmost zone under the pointer. */
  readonly zoneId: number | null;
  readonly button: number;
  readonly shiftKey: boolean;
  /** On 'down' only: this press is yours (adding a vertex, moving one); the canvas will not pan or select. */
  claim(): void;
}

/** How near (screen pixels) the pointer must be to a marker to hover or pick it. */
export const WORKER_HIT_PX = 10;

/** The helmet under the pointer, and where the pointer is on the canvas. */
export interface WorkerHover {
  readonly worker: WorkerOnMap;
  readonly screen: ScreenPoint;
}

/** A marker as drawn: image pixels, its spot on the canvas element (CSS pixels) and its colour. */
export interface DrawnWorker {
  readonly inventory_id: number;
  readonly x: number;
  readonly y: number;
  readonly screenX: number;
  readonly screenY: number;
  readonly colour: number;
}

/** What a test (or a debugger) can read off a canvas without looking at pixels. */
export interface CanvasDebugState {
  readonly renderer: RendererName | null;
  readonly view: ViewState;
  readonly selectedZoneId: number | null;
  readonly selectedWorkerId: number | null;
  readonly workers: DrawnWorker[];
}
