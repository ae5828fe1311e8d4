import type { ImagePoint } from '../../domain/geo';
import { imagePoint } from '../../domain/geo';

declare const brand: unique symbol;

/** A point on the canvas element in CSS pixels, (0,0) at its top-left. Never mixed with image pixels. */
export type ScreenPoint = { readonly x: number; readonly y: number } & { readonly [brand]: 'ScreenPoint' };

export function screenPoint(x: number, y: number): ScreenPoint {
  return { x, y } as ScreenPoint;
}

export interface Size {
  readonly width: number;
  readonly height: number;
}

/** How the world (the blueprint's pixel space) sits on the screen: screen = image × scale + (x, y). */
export interface ViewState {
  readonly scale: number;
  readonly x: number;
  readonly y: number;
}

export interface ZoomLimits {
  readonly min: number;
  readonly max: number;
}

export const BUTTON_ZOOM_FACTOR = 1.25;

export function screenToImage(view: ViewState, p: ScreenPoint): ImagePoint {
  return imagePoint((p.x - view.x) / view.scale, (p.y - view.y) / view.scale);
}

export function imageToScreen(view: ViewState, p: ImagePoint): ScreenPoint {
  return screenPoint(p.x * view.scale + view.x, p.y * view.scale + view.y);
}

/** The whole image, centred, with `padding` CSS pixels around it. */
export function fitView(image: Size, screen: Size, padding = 16): ViewState {
  const scale = Math.max(
    1e-6,
    Math.min((screen.width - 2 * padding) / image.width, (screen.height - 2 * padding) / image.height),
  );
  return {
    scale,
    x: (screen.width - image.width * scale) / 2,
    y: (screen.height - image.height * scale) / 2,
  };
}

/** From a quarter of the fitted size up to 16 screen pixels per image pixel. */
export function zoomLimits(image: Size, screen: Size): ZoomLimits {
  const fitted = fitView(image, screen).scale;
  return { min: fitted / 4, max: Math.max(16, fitted) };
}

/** Scales by `factor` keeping the image point under `anchor` where it is. */
export function zoomAt(view: ViewState, anchor: ScreenPoint, factor: number, limits: ZoomLimits): ViewState {
  const scale = Math.min(limits.max, Math.max(limits.min, view.scale * factor));
  const k = scale / view.scale;
  return { scale, x: anchor.x - (anchor.x - view.x) * k, y: anchor.y - (anchor.y - view.y) * k };
}

export function panBy(view: ViewState, dx: number, dy: number): ViewState {
  return { scale: view.scale, x: view.x + dx, y: view.y + dy };
}

/** Moves the view so `p` is at the centre of the screen, keeping the scale. */
export function centreOn(view: ViewState, p: ImagePoint, screen: Size): ViewState {
  return {
    scale: view.scale,
    x: screen.width / 2 - p.x * view.scale,
    y: screen.height / 2 - p.y * view.scale,
  };
}

/** Mouse wheels report lines or pages on some systems; a line is about 16 pixels. */
export function wheelZoomFactor(deltaY: number, deltaMode: number): number {
  const pixels = deltaMode === 1 ? deltaY * 16 : deltaMode === 2 ? deltaY * 400 : deltaY;
  return Math.exp(-Math.max(-300, Math.min(300, pixels)) * 0.002);
}
