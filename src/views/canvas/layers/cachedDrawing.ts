import type { Container } from 'pixi.js';
import { bucketScale, zoomBucket } from '../../../domain/polylineSimplify';

/** A cached drawing is at most this many pixels across (16 MB of texture at most). */
const MAX_CACHE_PX = 2048;

/**
 * Caches what `container` holds as one texture, sharp at this zoom bucket and the screen's
 * density (at most MAX_CACHE_PX across), or stops caching when there is nothing to draw. For a
 * static layer of many small shapes: a pan then renders one quad instead of every shape's
 * triangles again, which a software rasteriser pays for every frame (bench/RESULTS.md
 * "anchorGraph"). Call it after each redraw: the texture is rendered again on the next frame.
 */
export function cacheAtZoom(
  container: Container,
  drawn: boolean,
  size: { readonly width: number; readonly height: number },
  viewScale: number,
): void {
  if (!drawn) {
    container.cacheAsTexture(false);
    return;
  }
  const density = bucketScale(zoomBucket(viewScale)) * (globalThis.devicePixelRatio || 1);
  const resolution = Math.min(density, MAX_CACHE_PX / Math.max(1, size.width, size.height));
  container.cacheAsTexture({ resolution, antialias: true });
}
