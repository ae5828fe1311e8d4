import { type Container, Graphics } from 'pixi.js';
import type { FloorTransform } from '../../../domain/geo';
import type { NodeHealthState, NodeType } from '../../../domain/nodeHealth';
import { bucketScale, zoomBucket } from '../../../domain/polylineSimplify';
import type { CanvasLayer, FrameContext, LayerDefinition, LayerInput } from './Layer';
import { layerData, SCENE_INPUTS } from './layerInputs';
import { SELECTION_OUTLINE } from './zoneStyle';

/**
 * An anchor or sink as the maintenance map draws it, live or replayed: where the network computed
 * it, where it was placed, and its battery and health judged by src/domain/nodeHealth.ts.
 */
export interface MapNode {
  /** The inventory item's id: stable across polls and replayed frames. */
  readonly key: number;
  readonly nodeId: string;
  readonly type: NodeType;
  /** The computed position (degrees); null when it never reported (then drawn where it was placed). */
  readonly lat: number | null;
  readonly long: number | null;
  readonly configured: { readonly lat: number; readonly long: number } | null;
  /** Metres between placed and computed position; null when either is unknown. */
  readonly displacementError: number | null;
  /** The battery's band (BATTERY_VOLTS of its type); null when unknown. */
  readonly battery: NodeHealthState | null;
  readonly health: NodeHealthState;
}

export interface MapNodes {
  readonly nodes: readonly MapNode[];
  readonly selectedKey: number | null;
}

/** The nodes a screen shows; none until a screen passes some. */
export const MAP_NODES = layerData<MapNodes>('mapNodes', { nodes: [], selectedKey: null });

/** Blueprint's GREEN3, ORANGE3 and RED3 by state, grey when unknown: as the tags beside the map. */
export const HEALTH_COLOURS: Record<NodeHealthState, number> = {
  ok: 0x238551,
  warning: 0xc87619,
  bad: 0xcd4246,
};
export const UNKNOWN_COLOUR = 0x8f99a8;
/** The line from where an anchor was placed to where it is: Blueprint's VIOLET3, apart from the states. */
export const DISPLACEMENT_COLOUR = 0x7961db;

/** Below this (metres) an anchor is where it was placed: surveyed anchors are good to about 0.1 m. */
export const DRAWN_DISPLACEMENT_M = 0.1;

/** Marker sizes in screen pixels, whatever the zoom. */
export const NODE_RADIUS_PX = 6;
const SINK_HALF_PX = 7;
const RING_PX = 2.5;
const GHOST_RADIUS_PX = 4;
const SELECTED_RING_PX = 12;

/** The zoom in half-octave buckets: the markers are sized again only when it changes bucket. */
export const ZOOM_BUCKET: LayerInput = { name: 'zoomBucket', version: ({ view }) => zoomBucket(view.scale) };

/** A node as drawn: image pixels and colours, for tests and the screen's debug hook. */
export interface DrawnNode {
  readonly key: number;
  readonly nodeId: string;
  readonly type: NodeType;
  readonly x: number;
  readonly y: number;
  readonly fill: number;
  readonly ring: number;
  /** Where it was placed, when a displacement line is drawn to it. */
  readonly placedAt: { readonly x: number; readonly y: number } | null;
}

/** Where a node is drawn (its computed position, else its placed one) in image pixels, or null. */
export function nodeImagePoint(node: MapNode, transform: FloorTransform): { x: number; y: number } | null {
  if (node.lat !== null && node.long !== null) return transform.toImage({ lat: node.lat, long: node.long });
  return node.configured ? transform.toImage(node.configured) : null;
}

export const batteryColour = (node: MapNode): number =>
  node.battery === null ? UNKNOWN_COLOUR : HEALTH_COLOURS[node.battery];

/**
 * Anchors (circles) and sinks (squares) filled by battery and ringed by health, a violet line
 * back to where a displaced anchor was placed (with a small hollow mark there), and the selected
 * node ringed. Few Graphics whatever the count: one path per colour, so 2,000 nodes are a handful
 * of fills and strokes. Static: drawn again only when the nodes, the floor or the zoom bucket change.
 */
export class AnchorsLayer implements CanvasLayer {
  private readonly lines = new Graphics({ label: 'anchor-displacement', eventMode: 'none' });
  private readonly markers = new Graphics({ label: 'anchors', eventMode: 'none' });
  private readonly selection = new Graphics({ label: 'anchor-selection', eventMode: 'none' });
  /** What the last draw put on the canvas. */
  drawn: readonly DrawnNode[] = [];
  redraws = 0;

  constructor(private readonly report?: (drawn: readonly DrawnNode[]) => void) {}

  attach(world: Container): void {
    world.addChild(this.lines, this.markers, this.selection);
  }

  update({ scene, view }: FrameContext): boolean {
    this.redraws++;
    const lines = this.lines.clear();
    const markers = this.markers.clear();
    const selection = this.selection.clear();
    const transform = scene.transform;
    const { nodes, selectedKey } = MAP_NODES.value(scene);
    const drawn: DrawnNode[] = [];
    if (transform) {
      const scale = bucketScale(zoomBucket(view.scale));
      const ghosts: number[] = [];
      for (const node of nodes) {
        const at = nodeImagePoint(node, transform);
        if (!at) continue;
        let placedAt: { x: number; y: number } | null = null;
        if (
          node.configured &&
          node.lat !== null &&
          node.displacementError !== null &&
          node.displacementError >= DRAWN_DISPLACEMENT_M
        ) {
          placedAt = transform.toImage(node.configured);
          lines.moveTo(placedAt.x, placedAt.y).lineTo(at.x, at.y);
          ghosts.push(placedAt.x, placedAt.y);
        }
        drawn.push({
          key: node.key,
          nodeId: node.nodeId,
          type: node.type,
          x: at.x,
          y: at.y,
          fill: batteryColour(node),
          ring: HEALTH_COLOURS[node.health],
          placedAt,
        });
        if (node.key === selectedKey) {
          selection
            .circle(at.x, at.y, SELECTED_RING_PX / scale)
            .stroke({ color: SELECTION_OUTLINE, width: 3 / scale });
        }
      }
      if (ghosts.length > 0) {
        lines.stroke({ color: DISPLACEMENT_COLOUR, width: 2 / scale, alpha: 0.9 });
        for (let i = 0; i < ghosts.length; i += 2)
          lines.circle(ghosts[i], ghosts[i + 1], GHOST_RADIUS_PX / scale);
        lines.stroke({ color: DISPLACEMENT_COLOUR, width: 1.5 / scale });
      }
      // The shapes of one colour make one path: a fill (or stroke) per colour, not per node.
      for (const colour of new Set(drawn.map((d) => d.fill))) {
        addShapes(markers, drawn, (d) => d.fill === colour, scale).fill({ color: colour });
      }
      for (const colour of new Set(drawn.map((d) => d.ring))) {
        addShapes(markers, drawn, (d) => d.ring === colour, scale).stroke({
          color: colour,
          width: RING_PX / scale,
        });
      }
    }
    this.drawn = drawn;
    this.report?.(drawn);
    return true;
  }

  destroy(): void {
    this.lines.destroy();
    this.markers.destroy();
    this.selection.destroy();
  }
}

/** Adds the marker shapes of the nodes `which` picks to `g`'s current path. */
function addShapes(
  g: Graphics,
  drawn: readonly DrawnNode[],
  which: (node: DrawnNode) => boolean,
  scale: number,
): Graphics {
  const radius = NODE_RADIUS_PX / scale;
  const half = SINK_HALF_PX / scale;
  for (const node of drawn) {
    if (!which(node)) continue;
    if (node.type === 'sink') g.rect(node.x - half, node.y - half, 2 * half, 2 * half);
    else g.circle(node.x, node.y, radius);
  }
  return g;
}

/** The anchors layer; `report` hears what each draw put on the canvas (the screen's debug hook). */
export function anchorsLayerDefinition(report?: (drawn: readonly DrawnNode[]) => void): LayerDefinition {
  return {
    name: 'anchors',
    redraw: 'static',
    inputs: [MAP_NODES, SCENE_INPUTS.frame, ZOOM_BUCKET],
    create: () => new AnchorsLayer(report),
  };
}

export const anchorsLayer: LayerDefinition = anchorsLayerDefinition();
