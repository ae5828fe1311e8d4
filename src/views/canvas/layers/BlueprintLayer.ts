import { Container, ImageSource, Sprite, Texture } from 'pixi.js';
import type { CanvasLayer, FrameContext } from './Layer';

type Resource =
  | ImageBitmap
  | HTMLCanvasElement
  | OffscreenCanvas
  | HTMLImageElement
  | HTMLVideoElement
  | VideoFrame;

/**
 * The floor's blueprint image stretched over the world (its pixel size is the floor's
 * image_properties). The screen fetches the image itself (it needs the bearer token) and hands
 * over the decoded source; a source that cannot be drawn leaves the layer empty and throws, so
 * the engine reports it.
 */
export class BlueprintLayer implements CanvasLayer {
  readonly name = 'blueprint';
  private readonly container = new Container({ label: 'blueprint', eventMode: 'none' });
  private sprite: Sprite | null = null;
  private texture: Texture | null = null;
  private frameVersion = -1;

  attach(world: Container): void {
    world.addChild(this.container);
  }

  /** Shows `source` (null clears). Throws when the image is broken or not loaded yet. */
  setSource(source: CanvasImageSource | null): void {
    this.clear();
    this.frameVersion = -1;
    if (!source) return;
    const resource = toResource(source);
    this.texture = new Texture({ source: new ImageSource({ resource }) });
    this.sprite = new Sprite(this.texture);
    this.container.addChild(this.sprite);
  }

  update({ scene }: FrameContext): boolean {
    if (this.frameVersion === scene.frameVersion) return false;
    this.frameVersion = scene.frameVersion;
    if (this.sprite) {
      this.sprite.width = scene.size.width;
      this.sprite.height = scene.size.height;
    }
    return true;
  }

  private clear(): void {
    this.sprite?.destroy();
    this.texture?.destroy(true);
    this.sprite = null;
    this.texture = null;
  }

  destroy(): void {
    this.clear();
    this.container.destroy({ children: true });
  }
}

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

function toResource(source: CanvasImageSource): Resource {
  const size = sourceSize(source);
  if (!size) throw new Error('The blueprint image is empty or could not be decoded');
  if (typeof SVGImageElement !== 'undefined' && source instanceof SVGImageElement) {
    // Textures take bitmaps, not SVG elements: rasterise it once.
    const canvas = new OffscreenCanvas(size.width, size.height);
    canvas.getContext('2d')?.drawImage(source, 0, 0);
    return canvas;
  }
  return source as Resource;
}
