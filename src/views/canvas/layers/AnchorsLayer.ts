import { Container, DOMAdapter, Graphics, Particle, ParticleContainer, Rectangle, Texture } from 'pixi.js';
import type { FloorTransform } from '../../../domain/geo';
import type { NodeHealthState, NodeType } from '../../../domain/nodeHealth';
import { bucketScale, zoomBucket } from '../../../domain/polylineSimplify';
import type { CanvasLayer, FrameContext, LayerDefinition, LayerInput } from './Layer';
import { layerData, SCENE_INPUTS } from './layerInputs';
import { DISPLACEMENT_COLOUR, HEALTH_COLOURS, SELECTED_NODE_COLOUR, UNKNOWN_COLOUR } from './nodeStyle';

export { DISPLACEMENT_COLOUR, HEALTH_COLOURS, UNKNOWN_COLOUR };

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
  /** Null when unknown: a replay before the node's first report in it. */
  readonly health: NodeHealthState | null;
}

export interface MapNodes {
  readonly nodes: readonly MapNode[];
  readonly selectedKey: number | null;
}

/** The nodes a screen shows; none until a screen passes some. */
export const MAP_NODES = layerData<MapNodes>('mapNodes', { nodes: [], selectedKey: null });

/** Below this (metres) an anchor is where it was placed: surveyed anchors are good to about 0.1 m. */
export const DRAWN_DISPLACEMENT_M = 0.1;

/** Marker sizes in screen pixels, whatever the zoom (the zoom bucket's). */
export const NODE_RADIUS_PX = 7;
const GHOST_RADIUS_PX = 4;
const SELECTED_RING_PX = 12;
/** Sides of the few circles drawn as geometry (selection, placed marks): a circle of Pixi's is ~130 triangles. */
export const RING_SIDES = 16;

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
export const healthColour = (node: MapNode): number =>
  node.health === null ? UNKNOWN_COLOUR : HEALTH_COLOURS[node.health];

/** Atlas cell size in pixels: drawn larger than any marker shows, so it stays crisp. */
const CELL_PX = 48;
/** The ring's width as a share of the marker's diameter. */
const RING_SHARE = 0.2;

/**
 * The marker shapes, white so a tint colours them: a disc and a square, each as a fill and as a
 * ring, four frames of one texture (a particle container draws from a single source).
 */
export interface NodeAtlas {
  readonly fill: Readonly<Record<NodeType, Texture>>;
  readonly ring: Readonly<Record<NodeType, Texture>>;
}

export function createNodeAtlas(): NodeAtlas {
  const canvas = DOMAdapter.get().createCanvas(4 * CELL_PX, CELL_PX);
  const g = canvas.getContext('2d') as CanvasRenderingContext2D;
  const ring = CELL_PX * RING_SHARE;
  const middle = CELL_PX / 2;
  g.fillStyle = '#ffffff';
  g.strokeStyle = '#ffffff';
  g.lineWidth = ring;
  g.beginPath();
  g.arc(middle, middle, middle - 1, 0, Math.PI * 2);
  g.fill();
  g.beginPath();
  g.arc(CELL_PX + middle, middle, middle - ring / 2 - 1, 0, Math.PI * 2);
  g.stroke();
  const inset = CELL_PX * 0.1;
  const side = CELL_PX - 2 * inset;
  g.fillRect(2 * CELL_PX + inset, inset, side, side);
  g.strokeRect(3 * CELL_PX + inset + ring / 2, inset + ring / 2, side - ring, side - ring);
  const { source } = Texture.from(canvas);
  const frame = (cell: number) =>
    new Texture({ source, frame: new Rectangle(cell * CELL_PX, 0, CELL_PX, CELL_PX) });
  return { fill: { anchor: frame(0), sink: frame(2) }, ring: { anchor: frame(1), sink: frame(3) } };
}

/**
 * Anchors (discs) and sinks (squares) filled by battery and ringed by health, a violet line back
 * to where a displaced anchor was placed (with a small hollow mark there), and the selected node
 * ringed. The markers are particles of one atlas, two per node (four triangles: a Graphics circle
 * is ~130, which a software rasteriser pays for every frame); the lines and marks are one
 * Graphics. Not cached as a texture as the links are: a floor-sized quad costs a software
 * rasteriser more than 4,000 small ones (bench/RESULTS.md "anchorGraph"). Static: drawn again
 * only when the nodes, the floor or the zoom bucket change.
 */
export class AnchorsLayer implements CanvasLayer {
  private readonly root = new Container({ label: 'anchors-layer', eventMode: 'none' });
  private readonly lines = new Graphics({ label: 'anchor-displacement', eventMode: 'none' });
  private readonly markers = new ParticleContainer({
    label: 'anchors',
    eventMode: 'none',
    // Rebuilt only when the nodes change; a few thousand particles upload in no time.
    dynamicProperties: { position: true, color: true, vertex: true, uvs: true, rotation: false },
  });
  private readonly selection = new Graphics({ label: 'anchor-selection', eventMode: 'none' });
  private atlas: NodeAtlas | null;
  private readonly ownsAtlas: boolean;
  private readonly particles: Particle[] = [];
  /** What the last draw put on the canvas. */
  drawn: readonly DrawnNode[] = [];
  redraws = 0;

  /** `atlas` is for tests without a DOM; the console draws its own. */
  constructor(
    private readonly report?: (drawn: readonly DrawnNode[]) => void,
    atlas?: NodeAtlas,
  ) {
    this.atlas = atlas ?? null;
    this.ownsAtlas = atlas === undefined;
  }

  attach(world: Container): void {
    this.atlas ??= createNodeAtlas();
    this.markers.texture = this.atlas.fill.anchor;
    this.root.addChild(this.lines, this.markers, this.selection);
    world.addChild(this.root);
  }

  /** The marker particles now shown, fill and ring of each node in turn (tests). */
  get markerParticles(): readonly Particle[] {
    return this.particles.slice(0, this.markers.particleChildren.length);
  }

  update({ scene, view }: FrameContext): boolean {
    this.redraws++;
    const lines = this.lines.clear();
    const selection = this.selection.clear();
    const transform = scene.transform;
    const { nodes, selectedKey } = MAP_NODES.value(scene);
    const drawn: DrawnNode[] = [];
    const scale = bucketScale(zoomBucket(view.scale));
    if (transform) {
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
          ring: healthColour(node),
          placedAt,
        });
        if (node.key === selectedKey) {
          selection
            .regularPoly(at.x, at.y, SELECTED_RING_PX / scale, RING_SIDES)
            .stroke({ color: SELECTED_NODE_COLOUR, width: 2.5 / scale });
        }
      }
      if (ghosts.length > 0) {
        lines.stroke({ color: DISPLACEMENT_COLOUR, width: 2 / scale, alpha: 0.9, cap: 'butt' });
        for (let i = 0; i < ghosts.length; i += 2) {
          lines.regularPoly(ghosts[i], ghosts[i + 1], GHOST_RADIUS_PX / scale, RING_SIDES / 2);
        }
        lines.stroke({ color: DISPLACEMENT_COLOUR, width: 1.5 / scale });
      }
    }
    this.place(drawn, (2 * NODE_RADIUS_PX) / CELL_PX / scale);
    this.drawn = drawn;
    this.report?.(drawn);
    return true;
  }

  /** Two particles per node, recycled by index: the fill, then the ring over its edge. */
  private place(drawn: readonly DrawnNode[], size: number): void {
    const atlas = this.atlas!;
    const count = 2 * drawn.length;
    const shown = this.markers.particleChildren.length;
    for (let i = 0; i < count; i++) {
      const node = drawn[i >> 1];
      const ring = (i & 1) === 1;
      let p = this.particles[i];
      if (!p) {
        p = new Particle({ texture: atlas.fill.anchor, anchorX: 0.5, anchorY: 0.5 });
        this.particles[i] = p;
      }
      p.texture = ring ? atlas.ring[node.type] : atlas.fill[node.type];
      p.x = node.x;
      p.y = node.y;
      p.scaleX = size;
      p.scaleY = size;
      p.tint = ring ? node.ring : node.fill;
      if (i >= shown) this.markers.addParticle(p);
    }
    if (shown > count) this.markers.removeParticles(count, shown);
  }

  destroy(): void {
    this.root.destroy({ children: true });
    if (this.ownsAtlas) this.atlas?.fill.anchor.source.destroy();
  }
}

/** The anchors layer; `report` hears what each draw put on the canvas (the screen's debug hook). */
export function anchorsLayerDefinition(
  report?: (drawn: readonly DrawnNode[]) => void,
  atlas?: NodeAtlas,
): LayerDefinition {
  return {
    name: 'anchors',
    redraw: 'static',
    inputs: [MAP_NODES, SCENE_INPUTS.frame, ZOOM_BUCKET],
    create: () => new AnchorsLayer(report, atlas),
  };
}

export const anchorsLayer: LayerDefinition = anchorsLayerDefinition();
