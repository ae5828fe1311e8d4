import { BufferImageSource, type Container, Rectangle, Sprite, Texture } from 'pixi.js';

/** A grid of cells along the floor's own axes, one texel per cell, as `show` takes it. */
export interface FloorGridTexels {
  texels: Uint8Array;
  columns: number;
  rows: number;
  /** How many cells fit on the floor along each axis: the last, partial cell is cut there. */
  cellsAcross: number;
  cellsDown: number;
}

/**
 * One sprite stretched over the floor whose texture holds one texel per grid cell, so a floor of
 * 100,000 cells costs one draw call and one small upload, whatever the zoom. The grid lies along
 * the floor's axes from its corner a, which is the blueprint scaled to the floor's size.
 */
export class FloorGridSprite {
  private readonly sprite: Sprite;
  private texture: Texture | null = null;

  constructor(
    private readonly label: string,
    alpha: number,
  ) {
    this.sprite = new Sprite({ label, eventMode: 'none', alpha });
  }

  attach(world: Container): void {
    this.sprite.visible = false;
    world.addChild(this.sprite);
  }

  hide(): void {
    this.sprite.visible = false;
    this.sprite.texture = Texture.EMPTY;
    this.release();
  }

  show(grid: FloorGridTexels, floorSize: { width: number; height: number }): void {
    const source = new BufferImageSource({
      resource: grid.texels,
      width: grid.columns,
      height: grid.rows,
      format: 'rgba8unorm',
      // Texels are opaque or empty, so premultiplied and straight alpha are the same bytes.
      alphaMode: 'premultiplied-alpha',
      // One flat colour per cell: the hover's value is the colour under the pointer.
      scaleMode: 'nearest',
      autoGenerateMipmaps: false,
    });
    const frame = new Rectangle(
      0,
      0,
      Math.min(grid.columns, grid.cellsAcross),
      Math.min(grid.rows, grid.cellsDown),
    );
    const texture = new Texture({ source, frame, label: this.label });
    this.sprite.texture = texture;
    this.release();
    this.texture = texture;
    this.sprite.position.set(0, 0);
    this.sprite.width = floorSize.width;
    this.sprite.height = floorSize.height;
    this.sprite.visible = true;
  }

  destroy(): void {
    this.sprite.destroy();
    this.release();
  }

  private release(): void {
    this.texture?.destroy(true);
    this.texture = null;
  }
}
