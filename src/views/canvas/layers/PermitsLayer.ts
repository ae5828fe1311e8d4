import { type Container, Graphics } from 'pixi.js';
import type { LongLat } from '../../../domain/floor';
import { fromLongLat, type ImagePoint } from '../../../domain/geo';
import type { PermitType } from '../../../domain/workPermits';
import { type CanvasLayer, type FrameContext, flatRing, type LayerDefinition } from './Layer';
import { layerData, SCENE_INPUTS } from './layerInputs';

/** A permit as the layer draws it: its area, its type's colour, and whether it is in force now. */
export interface PermitShape {
  readonly id: number;
  readonly type: PermitType;
  readonly area: readonly LongLat[];
  readonly inForce: boolean;
}

export interface PermitShapes {
  readonly permits: readonly PermitShape[];
  readonly selectedId: number | null;
}

export const PERMIT_SHAPES = layerData<PermitShapes>('permits', { permits: [], selectedId: null });

/** Blueprint palette colours, apart from the zones' (work green, restricted red, assembly blue). */
export const PERMIT_COLOURS: Record<PermitType, number> = {
  hotWork: 0xec9a3c,
  workAtHeight: 0x00a396,
  confinedSpace: 0x9d3f9d,
  electricalIsolation: 0xd1980b,
  excavation: 0x8d6e63,
  other: 0x738091,
};

const IN_FORCE_ALPHA = 0.3;
const DIMMED_ALPHA = 0.08;
/** Screen pixels between hatch lines and of the outline: divided by the zoom, so fixed on screen. */
const HATCH_SPACING_PX = 10;
const OUTLINE_PX = 2;
const SELECTED_OUTLINE_PX = 4;

/** The pieces of the line x − y = c (a 45° hatch line) inside the ring, by the even–odd rule. */
function hatchSegments(ring: readonly ImagePoint[], c: number): [ImagePoint, ImagePoint][] {
  const crossings: { x: number; y: number }[] = [];
  for (let i = 0; i < ring.length; i++) {
    const a = ring[i];
    const b = ring[(i + 1) % ring.length];
    const fa = a.x - a.y - c;
    const fb = b.x - b.y - c;
    if (fa > 0 === fb > 0) continue;
    const t = fa / (fa - fb);
    crossings.push({ x: a.x + t * (b.x - a.x), y: a.y + t * (b.y - a.y) });
  }
  crossings.sort((p, q) => p.x - q.x);
  const segments: [ImagePoint, ImagePoint][] = [];
  for (let i = 0; i + 1 < crossings.length; i += 2)
    segments.push([crossings[i] as ImagePoint, crossings[i + 1] as ImagePoint]);
  return segments;
}

/**
 * Work permits' areas in their type's colour: filled when in force, dimmed and hatched when not
 * (a draft, suspended, closed or outside its validity); the selected one outlined thicker. Static:
 * drawn again when the permits, the floor or the zoom change (the hatch keeps its screen spacing).
 */
export class PermitsLayer implements CanvasLayer {
  private readonly graphics = new Graphics({ label: 'permits', eventMode: 'none' });

  attach(world: Container): void {
    world.addChild(this.graphics);
  }

  update({ scene, view }: FrameContext): boolean {
    const g = this.graphics.clear();
    const transform = scene.transform;
    if (!transform) return true;
    const { permits, selectedId } = PERMIT_SHAPES.value(scene);
    const scale = view.scale > 0 ? view.scale : 1;
    for (const permit of permits) {
      if (permit.area.length < 3) continue;
      const ring = permit.area.map((vertex) => transform.toImage(fromLongLat(vertex)));
      const colour = PERMIT_COLOURS[permit.type];
      g.poly(flatRing(ring), true)
        .fill({ color: colour, alpha: permit.inForce ? IN_FORCE_ALPHA : DIMMED_ALPHA })
        .stroke({
          color: colour,
          width: (permit.id === selectedId ? SELECTED_OUTLINE_PX : OUTLINE_PX) / scale,
          alpha: permit.inForce ? 0.95 : 0.5,
          join: 'round',
        });
      if (permit.inForce) continue;
      const offsets = ring.map((p) => p.x - p.y);
      const spacing = HATCH_SPACING_PX / scale;
      const first = Math.ceil(Math.min(...offsets) / spacing) * spacing;
      for (let c = first; c < Math.max(...offsets); c += spacing) {
        for (const [from, to] of hatchSegments(ring, c)) g.moveTo(from.x, from.y).lineTo(to.x, to.y);
      }
      g.stroke({ color: colour, width: 1 / scale, alpha: 0.6 });
    }
    return true;
  }

  destroy(): void {
    this.graphics.destroy();
  }
}

export const permitsLayer: LayerDefinition = {
  name: 'permits',
  redraw: 'static',
  inputs: [SCENE_INPUTS.frame, SCENE_INPUTS.zoom, PERMIT_SHAPES],
  create: () => new PermitsLayer(),
};
