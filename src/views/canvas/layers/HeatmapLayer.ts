import { BufferImageSource, type Container, Rectangle, Sprite, Texture } from 'pixi.js';
import type { HeatmapCells } from './heatmapCells';
import { heatmapTexels } from './heatmapCells';
import { HEATMAP_ALPHA } from './heatmapRamp';
import type { CanvasLayer, FrameContext, LayerDefinition } from './Layer';
import { layerData, SCENE_INPUTS } from './layerInputs';

/**
 * The heatmap's cells, from the screen that fetched them (`layerDataSource(HEATMAP, cells$)`);
 * null shows none. The cells must be the canvas floor's (the screen drops another floor's).
 */
export const HEATMAP = layerData<HeatmapCells | null>('heatmap', null);

/**
 * Worker-hours per grid cell as one sprite: the cells are written into a texture of one texel
 * per cell (through the colour ramp) and the texture is stretched over the floor, so a floor of
 * 100,000 cells costs one draw call and one small upload, whatever the zoom. The grid lies along
 * the floor's own axes in its unit square (src/domain/geo.ts `floorGrid`), which is the blueprint
 * scaled to its size; the texture's frame stops where the last, partial cell leaves the floor.
 * Static: drawn again only when the cells or the floor's frame change.
 */
export class HeatmapLayer implements CanvasLayer {
  private readonly sprite = new Sprite({ label: 'heatmap', eventMode: 'none', alpha: HEATMAP_ALPHA });
  private texture: Texture | null = null;
  /** How many textures it built: tests tell a redraw from a pan. */
  redraws = 0;

  attach(world: Container): void {
    this.sprite.visible = false;
    world.addChild(this.sprite);
  }

  update({ scene }: FrameContext): boolean {
    const cells = HEATMAP.value(scene);
    const drawable = cells !== null && cells.maxSeconds > 0 && scene.transform !== null;
    if (!drawable) {
      this.sprite.visible = false;
      this.sprite.texture = Texture.EMPTY;
      this.release();
      return true;
    }
    this.redraws++;
    const source = new BufferImageSource({
      resource: heatmapTexels(cells),
      width: cells.columns,
      height: cells.rows,
      format: 'rgba8unorm',
      // Texels are opaque or empty, so premultiplied and straight alpha are the same bytes.
      alphaMode: 'premultiplied-alpha',
      // One flat colour per cell: the hover's value is the colour under the pointer.
      scaleMode: 'nearest',
      autoGenerateMipmaps: false,
    });
    const cell = cells.grid.cellRect(0, 0);
    const frame = new Rectangle(
      0,
      0,
      Math.min(cells.columns, 1 / cell.width),
      Math.min(cells.rows, 1 / cell.height),
    );
    const texture = new Texture({ source, frame, label: 'heatmap' });
    this.sprite.texture = texture;
    this.release();
    this.texture = texture;
    this.sprite.position.set(0, 0);
    this.sprite.width = scene.size.width;
    this.sprite.height = scene.size.height;
    this.sprite.visible = true;
    return true;
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

export const heatmapLayer: LayerDefinition = {
  name: 'heatmap',
  redraw: 'static',
  inputs: [HEATMAP, SCENE_INPUTS.frame],
  create: () => new HeatmapLayer(),
};
