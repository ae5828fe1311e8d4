import { Container, Graphics } from 'pixi.js';
import { LINK_QUALITY, type NodeHealthState } from '../../../domain/nodeHealth';
import { bucketScale, zoomBucket } from '../../../domain/polylineSimplify';
import {
  HEALTH_COLOURS,
  type MapNode,
  NODE_RADIUS_PX,
  nodeImagePoint,
  RING_SIDES,
  ZOOM_BUCKET,
} from './AnchorsLayer';
import { cacheAtZoom } from './cachedDrawing';
import type { CanvasLayer, FrameContext, LayerDefinition } from './Layer';
import { layerData, SCENE_INPUTS } from './layerInputs';

/** A radio link between two nodes of `AnchorGraph.nodes` (indexes), with its quality 0–100. */
export interface MapLink {
  readonly a: number;
  readonly b: number;
  readonly quality: number;
}

/**
 * The anchor graph: the nodes (the same array the anchors layer draws) and the links between
 * them, each pair once. Null shows no graph (the live map without the graph view).
 */
export interface AnchorGraph {
  readonly nodes: readonly MapNode[];
  readonly links: readonly MapLink[];
}

export const ANCHOR_GRAPH = layerData<AnchorGraph | null>('anchorGraph', null);

/** A link's band by its quality, as nodeHealth.ts judges a node's best link (LINK_QUALITY). */
export function linkBand(quality: number): NodeHealthState {
  if (quality < LINK_QUALITY.bad) return 'bad';
  if (quality < LINK_QUALITY.warning) return 'warning';
  return 'ok';
}

const BANDS: readonly NodeHealthState[] = ['bad', 'warning', 'ok'];
const LINK_PX = 2;
const LINK_ALPHA = 0.75;
/** The ring around a node no link reaches: outside its marker and its selection ring. */
const ISOLATED_RING_PX = NODE_RADIUS_PX + 6;
const ISOLATED_RING_WIDTH_PX = 3;

/** What the last draw showed, for tests and the screen's debug hook. */
export interface DrawnGraph {
  /** Links drawn per band. */
  readonly links: Readonly<Record<NodeHealthState, number>>;
  /** Keys of the nodes that reported but no link reaches, ringed red. */
  readonly isolated: readonly number[];
}

/** A graph unchanged this long is kept as a picture; one changing faster (a replay at speed) is not. */
export const SETTLED_MS = 400;

/**
 * The links of the anchor graph, coloured by quality (good, weak, bad: one Graphics each, so
 * 10,000 links are three strokes), under a red ring around every node no link reaches. Good
 * links are drawn first and bad ones last, so a bad link is not hidden under a good one; drawn
 * under the anchors, again only when the graph, the floor or the zoom bucket change. Once the
 * graph has not changed for SETTLED_MS it is cached as one texture at the zoom bucket's
 * resolution (cachedDrawing.ts), so a pan renders one quad, not the links' 20,000 triangles
 * again; a graph changing every frame (a replay at speed) is drawn as it is, since rendering the
 * texture again each frame would cost more than it saves. So a per-frame layer: it checks its
 * inputs itself, and asks for one more render when the graph settles.
 */
export class AnchorGraphLayer implements CanvasLayer {
  private readonly root = new Container({ label: 'anchor-graph', eventMode: 'none' });
  private readonly bands = new Map<NodeHealthState, Graphics>(
    [...BANDS].reverse().map((band) => [band, new Graphics({ label: `links-${band}`, eventMode: 'none' })]),
  );
  private readonly isolated = new Graphics({ label: 'isolated-nodes', eventMode: 'none' });
  drawn: DrawnGraph = { links: { ok: 0, warning: 0, bad: 0 }, isolated: [] };
  redraws = 0;
  /** The inputs' versions the drawing is of; null before the first. */
  private drawnVersions: readonly unknown[] | null = null;
  private drawnAt = 0;
  /** Drawn, unchanged since SETTLED_MS, and cached (or nothing to cache). */
  private settled = true;

  /** `now` is for tests (performance.now() by default). */
  constructor(
    private readonly report?: (drawn: DrawnGraph) => void,
    private readonly now: () => number = () => performance.now(),
  ) {}

  attach(world: Container): void {
    this.root.addChild(...this.bands.values(), this.isolated);
    world.addChild(this.root);
  }

  update(frame: FrameContext): boolean {
    const versions = GRAPH_INPUTS.map((input) => input.version(frame));
    if (this.drawnVersions && versions.every((version, i) => Object.is(version, this.drawnVersions![i]))) {
      if (this.settled || this.now() - this.drawnAt < SETTLED_MS) return false;
      this.settled = true;
      cacheAtZoom(this.root, true, frame.scene.size, frame.view.scale);
      return true;
    }
    this.drawnVersions = versions;
    this.drawnAt = this.now();
    this.root.cacheAsTexture(false);
    this.settled = !this.draw(frame);
    return true;
  }

  /** Draws the graph; answers whether there is anything drawn. */
  private draw({ scene, view }: FrameContext): boolean {
    this.redraws++;
    for (const g of this.bands.values()) g.clear();
    const ring = this.isolated.clear();
    const graph = ANCHOR_GRAPH.value(scene);
    const transform = scene.transform;
    const counts = { ok: 0, warning: 0, bad: 0 };
    const isolated: number[] = [];
    if (graph && transform) {
      const scale = bucketScale(zoomBucket(view.scale));
      const n = graph.nodes.length;
      const xy = new Float64Array(2 * n).fill(Number.NaN);
      for (let i = 0; i < n; i++) {
        const at = nodeImagePoint(graph.nodes[i], transform);
        if (!at) continue;
        xy[2 * i] = at.x;
        xy[2 * i + 1] = at.y;
      }
      const linked = new Uint8Array(n);
      for (const link of graph.links) {
        const { a, b } = link;
        if (a === b || a < 0 || b < 0 || a >= n || b >= n) continue;
        if (Number.isNaN(xy[2 * a]) || Number.isNaN(xy[2 * b])) continue;
        const band = linkBand(link.quality);
        this.bands
          .get(band)!
          .moveTo(xy[2 * a], xy[2 * a + 1])
          .lineTo(xy[2 * b], xy[2 * b + 1]);
        counts[band]++;
        linked[a] = 1;
        linked[b] = 1;
      }
      for (const band of BANDS) {
        if (counts[band] === 0) continue;
        this.bands.get(band)!.stroke({
          color: HEALTH_COLOURS[band],
          width: LINK_PX / scale,
          alpha: LINK_ALPHA,
          cap: 'butt',
        });
      }
      for (let i = 0; i < n; i++) {
        // Only a node that reported can be heard by nobody: one without a report is unknown.
        if (linked[i] || Number.isNaN(xy[2 * i]) || graph.nodes[i].lat === null) continue;
        isolated.push(graph.nodes[i].key);
        ring.regularPoly(xy[2 * i], xy[2 * i + 1], ISOLATED_RING_PX / scale, RING_SIDES);
      }
      if (isolated.length > 0) {
        ring.stroke({ color: HEALTH_COLOURS.bad, width: ISOLATED_RING_WIDTH_PX / scale });
      }
    }
    this.drawn = { links: counts, isolated };
    this.report?.(this.drawn);
    return graph !== null && transform !== null;
  }

  destroy(): void {
    this.root.destroy({ children: true });
  }
}

const GRAPH_INPUTS = [ANCHOR_GRAPH, SCENE_INPUTS.frame, ZOOM_BUCKET];

/** The anchor graph layer; `report` hears what each draw showed (the screen's debug hook). */
export function anchorGraphLayerDefinition(
  report?: (drawn: DrawnGraph) => void,
  now?: () => number,
): LayerDefinition {
  return {
    name: 'anchorGraph',
    redraw: 'frame',
    inputs: GRAPH_INPUTS,
    create: () => new AnchorGraphLayer(report, now),
  };
}

export const anchorGraphLayer: LayerDefinition = anchorGraphLayerDefinition();
