import { type Container, Graphics } from 'pixi.js';
import { type CanvasLayer, type FrameContext, flatRing, type LayerDefinition } from './Layer';
import { SCENE_INPUTS } from './layerInputs';
import { ZONE_COLOURS, ZONE_FILL_ALPHA } from './zoneStyle';

/** Outline width in image pixels: zones are static, so the stroke scales with the zoom. */
const OUTLINE_WIDTH = 2;

/**
 * Every zone as a translucent polygon in its kind's colour, outlined. One Graphics for all of
 * them: rebuilt when the zone list or the floor changes, untouched while the view pans or zooms.
 * Hit-testing is the scene's (point in polygon in image pixels), not Pixi's event system.
 */
export class ZonesLayer implements CanvasLayer {
  private readonly graphics = new Graphics({ label: 'zones', eventMode: 'none' });

  attach(world: Container): void {
    world.addChild(this.graphics);
  }

  update({ scene }: FrameContext): boolean {
    const g = this.graphics.clear();
    for (const { zone, ring } of scene.zones) {
      const colour = ZONE_COLOURS[zone.kind];
      g.poly(flatRing(ring), true)
        .fill({ color: colour, alpha: ZONE_FILL_ALPHA })
        .stroke({ color: colour, width: OUTLINE_WIDTH, alpha: 0.9, join: 'round' });
    }
    return true;
  }

  destroy(): void {
    this.graphics.destroy();
  }
}

export const zonesLayer: LayerDefinition = {
  name: 'zones',
  redraw: 'static',
  // The zones' version moves with the floor's frame too: the scene projects them again.
  inputs: [SCENE_INPUTS.zones],
  create: () => new ZonesLayer(),
};
