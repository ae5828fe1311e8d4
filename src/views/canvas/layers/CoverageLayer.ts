import type { Container } from 'pixi.js';
import type { Simulation } from '../../../domain/schemas/installation';
import { COVERAGE_ALPHA, coverageTexels } from './coverageStyle';
import { FloorGridSprite } from './floorGridSprite';
import type { CanvasLayer, FrameContext, LayerDefinition } from './Layer';
import { layerData, SCENE_INPUTS } from './layerInputs';

/**
 * The coverage simulation shown (POST /api/installation/anchor/simulate's answer) with its floor;
 * null shows none. The screen drops another floor's answer.
 */
export const COVERAGE = layerData<{ floorId: number; simulation: Simulation } | null>('coverage', null);

/**
 * The simulated coverage as one sprite (FloorGridSprite), as the heatmap is drawn: green where
 * 2-D positioning works, amber where enough anchors are heard but their geometry is too poor, red
 * where fewer than four are heard, clear where none is. The simulation's cells are metres. Static: drawn
 * again only when the answer or the floor's frame changes.
 */
export class CoverageLayer implements CanvasLayer {
  private readonly grid = new FloorGridSprite('coverage', COVERAGE_ALPHA);
  redraws = 0;

  attach(world: Container): void {
    this.grid.attach(world);
  }

  update({ scene }: FrameContext): boolean {
    const simulation = COVERAGE.value(scene)?.simulation;
    if (!simulation || simulation.columns === 0 || simulation.rows === 0 || scene.transform === null) {
      this.grid.hide();
      return true;
    }
    this.redraws++;
    const { columns, rows, cell_size_m: cell, width_m: width, height_m: height } = simulation;
    this.grid.show(
      {
        texels: coverageTexels(simulation),
        columns,
        rows,
        cellsAcross: width / cell,
        cellsDown: height / cell,
      },
      scene.size,
    );
    return true;
  }

  destroy(): void {
    this.grid.destroy();
  }
}

export const coverageLayer: LayerDefinition = {
  name: 'coverage',
  redraw: 'static',
  inputs: [COVERAGE, SCENE_INPUTS.frame],
  create: () => new CoverageLayer(),
};
