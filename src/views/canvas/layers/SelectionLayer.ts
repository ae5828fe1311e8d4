import { type Container, Graphics } from 'pixi.js';
import { type CanvasLayer, type FrameContext, flatRing } from './Layer';
import { SELECTED_FILL_ALPHA, SELECTION_OUTLINE, ZONE_COLOURS } from './zoneStyle';

/** Outline width in screen pixels, whatever the zoom. */
const OUTLINE_PX = 3;

/** The selected zone, filled stronger and outlined in orange; redrawn when the selection or zoom changes. */
export class SelectionLayer implements CanvasLayer {
  readonly name = 'selection';
  private readonly graphics = new Graphics({ label: 'selection', eventMode: 'none' });
  private drawn = { selection: -1, zones: -1, scale: 0 };

  attach(world: Container): void {
    world.addChild(this.graphics);
  }

  update({ scene, view }: FrameContext): boolean {
    const d = this.drawn;
    const same = d.selection === scene.selectionVersion && d.zones === scene.zonesVersion;
    // With nothing selected the zoom does not matter.
    if (same && (d.scale === view.scale || scene.selectedId === null)) return false;
    this.drawn = { selection: scene.selectionVersion, zones: scene.zonesVersion, scale: view.scale };
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
