import { DOMAdapter, Texture } from 'pixi.js';

/** Drawn at this many pixels across, larger than any marker shows, so it stays crisp at high DPI. */
export const MARKER_TEXTURE_PX = 48;

/**
 * One white disc with a dark rim, shared by every marker: a tint colours the disc and leaves the
 * rim dark, so markers stand out on any blueprint.
 */
export function createMarkerTexture(): Texture {
  const size = MARKER_TEXTURE_PX;
  const canvas = DOMAdapter.get().createCanvas(size, size);
  const g = canvas.getContext('2d') as CanvasRenderingContext2D;
  const rim = size * 0.12;
  g.beginPath();
  g.arc(size / 2, size / 2, size / 2 - rim / 2, 0, Math.PI * 2);
  g.fillStyle = '#ffffff';
  g.fill();
  g.lineWidth = rim;
  g.strokeStyle = '#1c2127';
  g.stroke();
  return Texture.from(canvas);
}
