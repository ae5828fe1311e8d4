import type { Container } from 'pixi.js';
import { FloorGridSprite } from './floorGridSprite';
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
 * Worker-hours per grid cell as one sprite (FloorGridSprite), through the colour ramp. The grid is
 * the floor's unit square cut by src/domain/geo.ts `floorGrid`.
 * Static: drawn again only when the cells or the floor's frame change.
 */
export class HeatmapLayer implements CanvasLayer {
  private readonly grid = new FloorGridSprite('heatmap', HEATMAP_ALPHA);
  /** How many textures it built: tests tell a redraw from a pan. */
  redraws = 0;

  attach(world: Container): void {
    this.grid.attach(world);
  }

  update({ scene }: FrameContext): boolean {
    const cells = HEATMAP.value(scene);
    if (cells === null || cells.maxSeconds <= 0 || scene.transform === null) {
      this.grid.hide();
      return true;
    }
    this.redraws++;
    const cell = cells.grid.cellRect(0, 0);
    this.grid.show(
      {
        texels: heatmapTexels(cells),
        columns: cells.columns,
        rows: cells.rows,
        cellsAcross: 1 / cell.width,
        cellsDown: 1 / cell.height,
      },
      scene.size,
    );
    return true;
  }

  destroy(): void {
    this.grid.destroy();
  }
}

export const heatmapLayer: LayerDefinition = {
  name: 'heatmap',
  redraw: 'static',
  inputs: [HEATMAP, SCENE_INPUTS.frame],
  create: () => new HeatmapLayer(),
};
