import { type Container, Graphics } from 'pixi.js';
import type { LongLat } from '../../../domain/floor';
import { fromLongLat, type ImagePoint } from '../../../domain/geo';
import type { WallMaterial } from '../../../domain/wallGeometry';
import {
  type CanvasLayer,
  type FrameContext,
  flatRing,
  type LayerDefinition,
  type LayerInput,
} from './Layer';
import { layerData, SCENE_INPUTS } from './layerInputs';
import { WALL_STYLES } from './wallStyle';
import { DRAFT_COLOUR, SELECTION_OUTLINE } from './zoneStyle';

export { WALL_STYLES };

/** A wall as the layer draws it: the stored ones, or the selected one's points while it is edited. */
export interface WallLine {
  readonly id: number;
  readonly material: WallMaterial;
  readonly points: readonly LongLat[];
}

export interface WallLayerState {
  readonly walls: readonly WallLine[];
  /** The selected wall: drawn from `edited` (its points as moved so far) over an orange halo, with its vertices. */
  readonly selectedId: number | null;
  readonly edited: readonly LongLat[] | null;
  /** A new wall's polyline being drawn; a rubber band follows the pointer from its last vertex. */
  readonly draft: readonly LongLat[] | null;
}

export const WALLS = layerData<WallLayerState>('walls', {
  walls: [],
  selectedId: null,
  edited: null,
  draft: null,
});

const HALO_PX = 6;
const VERTEX_PX = 5;
const DRAFT_PX = 3;

/** A wall as drawn, in image pixels: for hit-testing on the screen and for tests. */
export interface DrawnWall {
  readonly id: number;
  readonly material: WallMaterial;
  readonly points: readonly ImagePoint[];
  readonly colour: number;
  readonly selected: boolean;
}

/** What one draw put on the canvas: every wall, and the vertices of a new wall being drawn. */
export interface DrawnWalls {
  readonly walls: readonly DrawnWall[];
  readonly draft: readonly ImagePoint[];
}

/** The pointer, while a new wall is being drawn (a rubber band follows it); otherwise it never changes. */
const DRAFT_POINTER: LayerInput = {
  name: 'wallDraftPointer',
  version: ({ scene }) => (WALLS.value(scene).draft?.length ? scene.pointerVersion : -1),
};

/**
 * The floor's walls as polylines in their material's colour and width, the selected one over an
 * orange halo with a handle on each vertex, and a new wall being drawn (violet, as a zone's
 * draft) with its rubber band. One Graphics; static: drawn again when the walls, the selection,
 * the draft, the floor or the zoom change (widths are fixed on screen).
 */
export class WallsLayer implements CanvasLayer {
  private readonly graphics = new Graphics({ label: 'walls', eventMode: 'none' });
  /** What the last draw put on the canvas. */
  drawn: DrawnWalls = { walls: [], draft: [] };

  constructor(private readonly report?: (drawn: DrawnWalls) => void) {}

  attach(world: Container): void {
    world.addChild(this.graphics);
  }

  update({ scene, view }: FrameContext): boolean {
    const g = this.graphics.clear();
    const transform = scene.transform;
    const state = WALLS.value(scene);
    const drawn: DrawnWall[] = [];
    let draft: ImagePoint[] = [];
    if (transform) {
      const project = (points: readonly LongLat[]) => points.map((p) => transform.toImage(fromLongLat(p)));
      const px = (value: number) => value / view.scale;
      let selected: DrawnWall | null = null;
      for (const wall of state.walls) {
        const isSelected = wall.id === state.selectedId;
        const points = project(isSelected && state.edited ? state.edited : wall.points);
        const style = WALL_STYLES[wall.material];
        const line: DrawnWall = {
          id: wall.id,
          material: wall.material,
          points,
          colour: style.colour,
          selected: isSelected,
        };
        drawn.push(line);
        if (isSelected) selected = line;
        else if (points.length > 1) this.stroke(g, points, style.colour, px(style.widthPx));
      }
      if (selected && selected.points.length > 1) {
        const width = px(WALL_STYLES[selected.material].widthPx);
        this.stroke(g, selected.points, SELECTION_OUTLINE, width + px(HALO_PX));
        this.stroke(g, selected.points, selected.colour, width);
        for (const p of selected.points) {
          g.circle(p.x, p.y, px(VERTEX_PX))
            .fill({ color: 0xffffff })
            .stroke({ color: SELECTION_OUTLINE, width: px(2) });
        }
      }
      draft = state.draft ? project(state.draft) : [];
      if (draft.length > 0) {
        if (draft.length > 1) this.stroke(g, draft, DRAFT_COLOUR, px(DRAFT_PX));
        const last = draft[draft.length - 1];
        if (scene.pointer) {
          g.moveTo(last.x, last.y)
            .lineTo(scene.pointer.x, scene.pointer.y)
            .stroke({ color: DRAFT_COLOUR, width: px(2), alpha: 0.5 });
        }
        for (const p of draft) {
          g.circle(p.x, p.y, px(4))
            .fill({ color: 0xffffff })
            .stroke({ color: DRAFT_COLOUR, width: px(2) });
        }
      }
    }
    this.drawn = { walls: drawn, draft };
    this.report?.(this.drawn);
    return true;
  }

  private stroke(g: Graphics, points: readonly ImagePoint[], colour: number, width: number): void {
    g.poly(flatRing(points), false).stroke({ color: colour, width, cap: 'round', join: 'round' });
  }

  destroy(): void {
    this.graphics.destroy();
  }
}

/** The walls layer; `report` hears what each draw put on the canvas (the screen's hit-testing). */
export function wallsLayerDefinition(report?: (drawn: DrawnWalls) => void): LayerDefinition {
  return {
    name: 'walls',
    redraw: 'static',
    inputs: [WALLS, SCENE_INPUTS.frame, SCENE_INPUTS.zoom, DRAFT_POINTER],
    create: () => new WallsLayer(report),
  };
}

export const wallsLayer: LayerDefinition = wallsLayerDefinition();
