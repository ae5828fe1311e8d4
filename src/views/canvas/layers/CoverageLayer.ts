import { BufferImageSource, type Container, Rectangle, Sprite, Texture } from 'pixi.js';
import type { Simulation } from '../../../domain/schemas/installation';
import { COVERAGE_ALPHA, coverageTexels } from './coverageStyle';
import type { CanvasLayer, FrameContext, LayerDefinition } from './Layer';
import { layerData, SCENE_INPUTS } from './layerInputs';

/**
 * The coverage simulation shown (POST /api/installation/anchor/simulate's answer) with its floor;
 * null shows none. The screen drops another floor's answer.
 */
export const COVERAGE = layerData<{ floorId: number; simulation: Simulation } | null>('coverage', null);

/**
 * The simulated coverage as one sprite of one texel per cell, as the heatmap is drawn: green where
 * 2-D positioning works, amber where enough anchors are heard but their geometry is too poor, red
 * where fewer than four are heard, clear where none is. The simulation's grid lies along the
 * floor's axes from corner a (x along a→b, y along a→d), which is the blueprint scaled to the
 * floor; the texture's frame stops where the last, partial cell leaves the floor. Static: drawn
 * again only when the answer or the floor's frame changes.
 */
export class CoverageLayer implements CanvasLayer {
  private readonly sprite = new Sprite({ label: 'coverage', eventMode: 'none', alpha: COVERAGE_ALPHA });
  private texture: Texture | null = null;
  redraws = 0;

  attach(world: Container): void {
    this.sprite.visible = false;
    world.addChild(this.sprite);
  }

  update({ scene }: FrameContext): boolean {
    const shown = COVERAGE.value(scene);
    const simulation = shown?.simulation;
    if (!simulation || simulation.columns === 0 || simulation.rows === 0 || scene.transform === null) {
      this.sprite.visible = false;
      this.sprite.texture = Texture.EMPTY;
      this.release();
      return true;
    }
    this.redraws++;
    const { columns, rows, cell_size_m: cell, width_m: width, height_m: height } = simulation;
    const source = new BufferImageSource({
      resource: coverageTexels(simulation),
      width: columns,
      height: rows,
      format: 'rgba8unorm',
      alphaMode: 'premultiplied-alpha',
      scaleMode: 'nearest',
      autoGenerateMipmaps: false,
    });
    const frame = new Rectangle(0, 0, Math.min(columns, width / cell), Math.min(rows, height / cell));
    const texture = new Texture({ source, frame, label: 'coverage' });
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

export const coverageLayer: LayerDefinition = {
  name: 'coverage',
  redraw: 'static',
  inputs: [COVERAGE, SCENE_INPUTS.frame],
  create: () => new CoverageLayer(),
};
