import type { ImagePoint } from '../../domain/geo';
import type { FloorScene, ProjectedZone } from './scene';
import {
  BUTTON_ZOOM_FACTOR,
  centreOn,
  fitView,
  type ScreenPoint,
  type Size,
  screenPoint,
  type ViewState,
  zoomAt,
  zoomLimits,
} from './viewport';

/**
 * Where the world is on the canvas: the pan and zoom, the canvas's size, and whether the user has
 * moved the view yet (until they do, it keeps fitting the floor as the element resizes).
 */
export class CanvasView {
  state: ViewState = { scale: 1, x: 0, y: 0 };
  screen: Size = { width: 0, height: 0 };
  private touched = false;

  constructor(private readonly scene: FloorScene) {}

  set(view: ViewState): void {
    this.state = view;
    this.touched = true;
  }

  zoomIn(): void {
    this.zoomBy(BUTTON_ZOOM_FACTOR, this.centre());
  }

  zoomOut(): void {
    this.zoomBy(1 / BUTTON_ZOOM_FACTOR, this.centre());
  }

  zoomBy(factor: number, anchor: ScreenPoint): void {
    this.set(zoomAt(this.state, anchor, factor, zoomLimits(this.scene.size, this.screen)));
  }

  fitToFloor(): void {
    this.touched = false;
    if (this.screen.width > 0) this.state = fitView(this.scene.size, this.screen);
  }

  /** Fits the floor again unless the user has moved the view; `forget` first forgets they had. */
  refit(forget = false): void {
    if (forget) this.touched = false;
    if (!this.touched) this.fitToFloor();
  }

  resize(width: number, height: number): void {
    this.screen = { width, height };
    this.refit();
  }

  /** Brings a zone chosen from the keyboard into view when its centre is off screen. */
  reveal(zone: ProjectedZone): void {
    const b = zone.bounds;
    const centre = { x: (b.minX + b.maxX) / 2, y: (b.minY + b.maxY) / 2 } as ImagePoint;
    const sx = centre.x * this.state.scale + this.state.x;
    const sy = centre.y * this.state.scale + this.state.y;
    if (sx < 0 || sy < 0 || sx > this.screen.width || sy > this.screen.height) {
      this.set(centreOn(this.state, centre, this.screen));
    }
  }

  private centre(): ScreenPoint {
    return screenPoint(this.screen.width / 2, this.screen.height / 2);
  }
}
