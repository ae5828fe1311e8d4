import { type Container, Graphics } from 'pixi.js';
import { type CanvasLayer, type FrameContext, flatRing, type LayerDefinition } from './Layer';
import { SCENE_INPUTS } from './layerInputs';
import { SELECTED_FILL_ALPHA, SELECTION_OUTLINE, ZONE_COLOURS } from './zoneStyle';

/** Outline width in screen pixels, whatever the zoom. */
const OUTLINE_PX = 3;

/** The selected zone, filled stronger and outlined in orange. */
export class SelectionLayer implements CanvasLayer {
  private readonly graphics = new Graphics({ label: 'selection', eventMode: 'none' });

  attach(world: Container): void {
    world.addChild(this.graphics);
  }

  update({ scene, view }: FrameContext): boolean {
    const g = this.graphics.clear();
    const selected = scene.selectedId === null ? undefined : scene.zone(scene.selectedId);
    if (!selected) return true;
    g.poly(flatRing(selected.ring), true)
      .fill({ color: ZONE_COLOURS[selected.zone.kind], alpha: SELECTED_FILL_ALPHA })
      .stroke({ color: SELECTION_OUTLINE, width: OUTLINE_PX / view.scale, join: 'round' });
    return true;
  }

  destroy(): void {
    this.graphics.destroy();
  }
}

export const selectionLayer: LayerDefinition = {
  name: 'selection',
  redraw: 'static',
  inputs: [SCENE_INPUTS.selection, SCENE_INPUTS.zones, SCENE_INPUTS.zoomWhenSelected],
  create: () => new SelectionLayer(),
};
