import { Container, Graphics, Text } from 'pixi.js';
import { bucketScale, zoomBucket } from '../../../domain/polylineSimplify';
import { ZOOM_BUCKET } from './AnchorsLayer';
import type { CanvasLayer, FrameContext, LayerDefinition } from './Layer';
import { layerData, SCENE_INPUTS } from './layerInputs';

/**
 * A marker of installation mode that is not an installed node:
 * - 'planned': a planning anchor of the floor (spec §3), a diamond labelled with its anchor_id;
 * - 'suggested': a placement the suggestion proposed, ghosted until accepted or skipped;
 * - 'placement': where an anchor being approved is placed (dragged, or taken from its plan).
 */
export type PlannedMarkerKind = 'planned' | 'suggested' | 'placement';

export interface PlannedMarker {
  /** Stable across redraws: `planned:<id>`, `suggested:<index>`, `placement:<inventory id>`. */
  readonly key: string;
  readonly kind: PlannedMarkerKind;
  readonly label: string;
  readonly lat: number;
  readonly long: number;
}

export interface PlannedMarkers {
  readonly markers: readonly PlannedMarker[];
  /** Ringed: the selected planning anchor, or the one being dragged. */
  readonly selectedKey: string | null;
}

export const PLANNED_MARKERS = layerData<PlannedMarkers>('plannedMarkers', {
  markers: [],
  selectedKey: null,
});

/** Blueprint's INDIGO3 for the plan, VIOLET3 for an approval's placement: apart from node health's colours. */
export const PLANNED_COLOURS: Record<PlannedMarkerKind, number> = {
  planned: 0x5642a6,
  suggested: 0x5642a6,
  placement: 0x9d3f9d,
};
const SELECTED_COLOUR = 0x1c2127;

/** Half the diamond's diagonal, in screen pixels (the zoom bucket's). */
export const PLANNED_RADIUS_PX = 8;
const LABEL_PX = 12;

/** A marker as drawn, for tests and the screen's debug hook. */
export interface DrawnPlannedMarker {
  readonly key: string;
  readonly kind: PlannedMarkerKind;
  readonly label: string;
  readonly x: number;
  readonly y: number;
}

/**
 * Planning anchors as diamonds (installed anchors are discs, AnchorsLayer), each labelled with its
 * name; suggested placements ghosted and dashed-looking (hollow, half transparent); an approval's
 * placement as a violet cross-hair diamond. One Graphics for the shapes and a pool of texts for
 * the labels, sized in screen pixels by the zoom bucket. Static: drawn again when the markers, the
 * floor or the zoom bucket change (a drag changes the markers, so the dragged one follows).
 */
export class PlanningAnchorsLayer implements CanvasLayer {
  private readonly root = new Container({ label: 'planning-anchors-layer', eventMode: 'none' });
  private readonly shapes = new Graphics({ label: 'planning-anchors', eventMode: 'none' });
  private readonly labels = new Container({ label: 'planning-anchor-labels', eventMode: 'none' });
  private readonly texts: Text[] = [];
  drawn: readonly DrawnPlannedMarker[] = [];
  redraws = 0;

  constructor(private readonly report?: (drawn: readonly DrawnPlannedMarker[]) => void) {}

  attach(world: Container): void {
    this.root.addChild(this.shapes, this.labels);
    world.addChild(this.root);
  }

  update({ scene, view }: FrameContext): boolean {
    this.redraws++;
    const g = this.shapes.clear();
    const { markers, selectedKey } = PLANNED_MARKERS.value(scene);
    const transform = scene.transform;
    const scale = bucketScale(zoomBucket(view.scale));
    const r = PLANNED_RADIUS_PX / scale;
    const drawn: DrawnPlannedMarker[] = [];
    if (transform) {
      for (const marker of markers) {
        const { x, y } = transform.toImage(marker);
        const colour = PLANNED_COLOURS[marker.kind];
        const diamond = [x, y - r, x + r, y, x, y + r, x - r, y];
        if (marker.kind === 'planned') {
          g.poly(diamond, true)
            .fill({ color: colour, alpha: 0.9 })
            .stroke({ color: 0xffffff, width: 1.5 / scale });
        } else if (marker.kind === 'suggested') {
          g.poly(diamond, true)
            .fill({ color: colour, alpha: 0.2 })
            .stroke({ color: colour, width: 2 / scale, alpha: 0.7 });
        } else {
          g.poly(diamond, true)
            .fill({ color: 0xffffff, alpha: 0.9 })
            .stroke({ color: colour, width: 3 / scale });
          g.moveTo(x - 1.6 * r, y)
            .lineTo(x + 1.6 * r, y)
            .moveTo(x, y - 1.6 * r)
            .lineTo(x, y + 1.6 * r)
            .stroke({ color: colour, width: 1.5 / scale });
        }
        if (marker.key === selectedKey) {
          const ring = r * 1.6;
          g.poly([x, y - ring, x + ring, y, x, y + ring, x - ring, y], true).stroke({
            color: SELECTED_COLOUR,
            width: 2.5 / scale,
          });
        }
        drawn.push({ key: marker.key, kind: marker.kind, label: marker.label, x, y });
      }
    }
    this.label(drawn, scale, r);
    this.drawn = drawn;
    this.report?.(drawn);
    return true;
  }

  /** One text per marker, recycled by index, beside its diamond and never mirrored. */
  private label(drawn: readonly DrawnPlannedMarker[], scale: number, r: number): void {
    for (let i = 0; i < drawn.length; i++) {
      const marker = drawn[i];
      let text = this.texts[i];
      if (!text) {
        text = new Text({
          text: '',
          style: {
            fontFamily: 'sans-serif',
            fontSize: LABEL_PX * 2,
            fill: 0x1c2127,
            stroke: { color: 0xffffff, width: 4 },
          },
        });
        this.texts[i] = text;
        this.labels.addChild(text);
      }
      text.visible = true;
      if (text.text !== marker.label) text.text = marker.label;
      text.alpha = marker.kind === 'suggested' ? 0.6 : 1;
      // Drawn at twice the size and halved, so it stays crisp one zoom bucket in.
      text.scale.set(0.5 / scale);
      text.position.set(marker.x + r * 1.2, marker.y - r * 1.8);
    }
    for (let i = drawn.length; i < this.texts.length; i++) this.texts[i].visible = false;
  }

  destroy(): void {
    this.root.destroy({ children: true });
  }
}

/** The planning anchors layer; `report` hears what each draw put on the canvas (the screen's debug hook). */
export function planningAnchorsLayerDefinition(
  report?: (drawn: readonly DrawnPlannedMarker[]) => void,
): LayerDefinition {
  return {
    name: 'planningAnchors',
    redraw: 'static',
    inputs: [PLANNED_MARKERS, SCENE_INPUTS.frame, ZOOM_BUCKET],
    create: () => new PlanningAnchorsLayer(report),
  };
}
