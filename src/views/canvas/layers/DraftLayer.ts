import { type Container, Graphics } from 'pixi.js';
import { type CanvasLayer, type FrameContext, flatRing, type LayerDefinition } from './Layer';
import { SCENE_INPUTS } from './layerInputs';
import { DRAFT_COLOUR } from './zoneStyle';

const LINE_PX = 2;
const VERTEX_PX = 4;

/**
 * A polygon being drawn (the Maps screen's machine owns it and passes its vertices): the edges so
 * far, a dot per vertex, and a rubber band from the last vertex to the pointer and back to the first.
 */
export class DraftLayer implements CanvasLayer {
  private readonly graphics = new Graphics({ label: 'draft', eventMode: 'none' });

  attach(world: Container): void {
    world.addChild(this.graphics);
  }

  update({ scene, view }: FrameContext): boolean {
    const g = this.graphics.clear();
    const vertices = scene.draft;
    if (!vertices || vertices.length === 0) return true;
    const line = LINE_PX / view.scale;
    if (vertices.length > 1) {
      g.poly(flatRing(vertices), false).stroke({ color: DRAFT_COLOUR, width: line });
    }
    const last = vertices[vertices.length - 1];
    if (scene.pointer) {
      g.moveTo(last.x, last.y)
        .lineTo(scene.pointer.x, scene.pointer.y)
        .lineTo(vertices[0].x, vertices[0].y)
        .stroke({ color: DRAFT_COLOUR, width: line, alpha: 0.5 });
    }
    for (const v of vertices) {
      g.circle(v.x, v.y, VERTEX_PX / view.scale)
        .fill({ color: 0xffffff })
        .stroke({ color: DRAFT_COLOUR, width: line });
    }
    return true;
  }

  destroy(): void {
    this.graphics.destroy();
  }
}

export const draftLayer: LayerDefinition = {
  name: 'draft',
  redraw: 'static',
  inputs: [SCENE_INPUTS.draft, SCENE_INPUTS.draftPointer, SCENE_INPUTS.zoom],
  create: () => new DraftLayer(),
};
