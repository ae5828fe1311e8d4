/** What a Pixi texture can be made from. */
export type BlueprintResource =
  | ImageBitmap
  | HTMLCanvasElement
  | OffscreenCanvas
  | HTMLImageElement
  | HTMLVideoElement
  | VideoFrame;

/** The source's own pixel size, or null when it has none (not decoded, broken). */
export function sourceSize(source: CanvasImageSource): { width: number; height: number } | null {
  let width = 0;
  let height = 0;
  if (typeof HTMLImageElement !== 'undefined' && source instanceof HTMLImageElement) {
    width = source.naturalWidth;
    height = source.naturalHeight;
  } else if (typeof HTMLVideoElement !== 'undefined' && source instanceof HTMLVideoElement) {
    width = source.videoWidth;
    height = source.videoHeight;
  } else if (typeof VideoFrame !== 'undefined' && source instanceof VideoFrame) {
    width = source.displayWidth;
    height = source.displayHeight;
  } else if (typeof SVGImageElement !== 'undefined' && source instanceof SVGImageElement) {
    width = source.width.baseVal.value;
    height = source.height.baseVal.value;
  } else {
    ({ width, height } = source as ImageBitmap | HTMLCanvasElement | OffscreenCanvas);
  }
  return width > 0 && height > 0 ? { width, height } : null;
}

/**
 * The decoded blueprint as a texture takes it. Throws when the image is broken or not loaded yet,
 * so the engine reports it when it is handed over rather than when a frame draws it.
 */
export function blueprintResource(source: CanvasImageSource): BlueprintResource {
  const size = sourceSize(source);
  if (!size) throw new Error('The blueprint image is empty or could not be decoded');
  if (typeof SVGImageElement !== 'undefined' && source instanceof SVGImageElement) {
    // Textures take bitmaps, not SVG elements: rasterise it once.
    const canvas = new OffscreenCanvas(size.width, size.height);
    canvas.getContext('2d')?.drawImage(source, 0, 0);
    return canvas;
  }
  return source as BlueprintResource;
}
