import { Container, Graphics } from 'pixi.js';
import type { FloorTransform } from '../../../domain/geo';
import { bucketScale, simplifyPolyline, zoomBucket } from '../../../domain/polylineSimplify';
import type { CanvasLayer, FrameContext, LayerDefinition, LayerInput } from './Layer';
import { layerData, SCENE_INPUTS } from './layerInputs';

/**
 * Distinguishable trail colours (Tableau 10, reordered so the first ones differ most), away from
 * nothing in particular: the markers keep their own status colours on top.
 */
export const TRAIL_COLOURS: readonly number[] = [
  0x1f77b4, 0xff7f0e, 0x9467bd, 0x17becf, 0xe377c2, 0x8c564b, 0xbcbd22, 0x2ca02c, 0xd62728, 0x7f7f7f,
];

/** The colour of the `index`-th trail (the palette repeats after ten). */
export function trailColour(index: number): number {
  return TRAIL_COLOURS[((index % TRAIL_COLOURS.length) + TRAIL_COLOURS.length) % TRAIL_COLOURS.length];
}

/** `#rrggbb` of a colour, for the lists beside the canvas. */
export function cssColour(colour: number): string {
  return `#${colour.toString(16).padStart(6, '0')}`;
}

/**
 * One trail: a track's positions (degrees; the same arrays across frames, so their projection is
 * kept) and which index ranges of them to draw, each range a polyline of its own.
 */
export interface Trail {
  readonly key: string;
  readonly colour: number;
  readonly lat: ArrayLike<number>;
  readonly long: ArrayLike<number>;
  /** [start, end) index ranges; the whole track when left out. */
  readonly ranges?: readonly (readonly [number, number])[];
}

/** A place marked on the trails (a stop): a ring in the trail's colour. */
export interface TrailMark {
  readonly lat: number;
  readonly long: number;
  readonly colour: number;
}

export interface TrailsData {
  readonly trails: readonly Trail[];
  readonly marks?: readonly TrailMark[];
}

/** The trails a screen shows; none until a screen passes some. */
export const TRAILS = layerData<TrailsData>('trails', { trails: [] });

/** Trail width and simplification tolerance, in screen pixels. */
const LINE_PX = 3;
const TOLERANCE_PX = 1;
const MARK_PX = 7;

/** The zoom in half-octave buckets: trails are simplified again only when it changes bucket. */
const ZOOM_BUCKET: LayerInput = { name: 'zoomBucket', version: ({ view }) => zoomBucket(view.scale) };

/** A track projected to image pixels, kept while the floor's frame is the same. */
interface Projected {
  readonly frame: number;
  readonly xy: Float64Array;
}

/** One trail's built geometry, and the floor frame and zoom bucket it was built for. */
interface Built {
  readonly graphics: Graphics;
  frame: number;
  bucket: number;
}

/**
 * Worker trails as polylines, one colour each, simplified for the zoom (Douglas–Peucker at a
 * tolerance of one screen pixel), and rings where a screen marks places. A static layer: drawn
 * again only when the trails, the floor's frame or the zoom bucket change, never while panning.
 * Each trail object has its own Graphics, kept while the same object is passed again for the
 * same floor frame and zoom bucket: a playback that passes its past trail pieces again builds only
 * the new ones, and the Graphics of trails no longer passed are destroyed. Each track is
 * projected once per floor frame, shared by the trails drawn from its arrays.
 */
export class TrailsLayer implements CanvasLayer {
  private readonly root = new Container({ label: 'trails', eventMode: 'none' });
  private readonly marksGraphics = new Graphics({ label: 'trail-marks', eventMode: 'none' });
  private built = new Map<Trail, Built>();
  private marksDrawn: { marks: readonly TrailMark[] | undefined; frame: number; bucket: number } | null =
    null;
  private projected = new WeakMap<ArrayLike<number>, Projected>();
  /** How many times the trails were drawn: tests tell a pan from a redraw. */
  redraws = 0;
  /** How many trails were built (projected, simplified, stroked) in all: tests tell a reuse from a rebuild. */
  builds = 0;

  attach(world: Container): void {
    world.addChild(this.root);
  }

  /** The Graphics per trail now shown, in drawing order (tests). */
  get trailGraphics(): readonly Graphics[] {
    return this.root.children.filter(
      (child): child is Graphics => child !== this.marksGraphics,
    ) as Graphics[];
  }

  update({ scene, view }: FrameContext): boolean {
    this.redraws++;
    const transform = scene.transform;
    const { trails, marks } = transform ? TRAILS.value(scene) : { trails: [], marks: undefined };
    const bucket = zoomBucket(view.scale);
    const frame = scene.frameVersion;
    const next = new Map<Trail, Built>();
    const order: Graphics[] = [];
    for (const trail of trails) {
      if (next.has(trail)) continue;
      let entry = this.built.get(trail);
      if (!entry) {
        entry = { graphics: new Graphics({ eventMode: 'none' }), frame: Number.NaN, bucket: Number.NaN };
      }
      if (transform && (entry.frame !== frame || entry.bucket !== bucket)) {
        this.build(entry.graphics.clear(), trail, transform, frame, bucket);
        entry.frame = frame;
        entry.bucket = bucket;
      }
      next.set(trail, entry);
      order.push(entry.graphics);
    }
    for (const [trail, entry] of this.built) if (!next.has(trail)) entry.graphics.destroy();
    this.built = next;
    order.push(this.marksGraphics);
    this.arrange(order);
    if (
      !this.marksDrawn ||
      this.marksDrawn.marks !== marks ||
      this.marksDrawn.frame !== frame ||
      this.marksDrawn.bucket !== bucket
    ) {
      this.marksDrawn = { marks, frame, bucket };
      this.drawMarks(transform, marks ?? [], bucket);
    }
    return true;
  }

  /** Puts the children in `order`, touching the container only when it differs. */
  private arrange(order: readonly Graphics[]): void {
    const children = this.root.children;
    if (children.length === order.length && order.every((g, i) => children[i] === g)) return;
    if (children.length > 0) this.root.removeChildren();
    for (const g of order) this.root.addChild(g);
  }

  private build(g: Graphics, trail: Trail, transform: FloorTransform, frame: number, bucket: number): void {
    this.builds++;
    const scale = bucketScale(bucket);
    const tolerance = TOLERANCE_PX / scale;
    const width = LINE_PX / scale;
    const xy = this.project(trail, transform, frame);
    const ranges = trail.ranges ?? [[0, trail.lat.length] as const];
    for (const [start, end] of ranges) {
      if (end - start < 1) continue;
      if (end - start === 1) {
        g.circle(xy[2 * start], xy[2 * start + 1], width / 2).fill({ color: trail.colour });
        continue;
      }
      const line = simplifyPolyline(xy.subarray(2 * start, 2 * end), tolerance);
      if (withinOnePoint(line, width / 2)) {
        // Someone who stood still: butt caps would draw nothing, a dot shows where.
        g.circle(line[0], line[1], width / 2).fill({ color: trail.colour });
        continue;
      }
      // Butt caps and bevel joins: round ones multiply the vertices of every trail drawn.
      g.poly(line, false).stroke({ color: trail.colour, width, alpha: 0.9, cap: 'butt', join: 'bevel' });
    }
  }

  private drawMarks(transform: FloorTransform | null, marks: readonly TrailMark[], bucket: number): void {
    const g = this.marksGraphics.clear();
    if (!transform) return;
    const scale = bucketScale(bucket);
    for (const mark of marks) {
      const p = transform.toImage(mark);
      g.circle(p.x, p.y, MARK_PX / scale)
        .fill({ color: 0xffffff, alpha: 0.8 })
        .stroke({ color: mark.colour, width: LINE_PX / scale });
    }
  }

  private project(trail: Trail, transform: FloorTransform, frame: number): Float64Array {
    const cached = this.projected.get(trail.lat);
    if (cached && cached.frame === frame && cached.xy.length === 2 * trail.lat.length) return cached.xy;
    const n = trail.lat.length;
    const xy = new Float64Array(2 * n);
    for (let i = 0; i < n; i++) {
      const p = transform.toImage({ lat: trail.lat[i], long: trail.long[i] });
      xy[2 * i] = p.x;
      xy[2 * i + 1] = p.y;
    }
    this.projected.set(trail.lat, { frame, xy });
    return xy;
  }

  destroy(): void {
    for (const entry of this.built.values()) entry.graphics.destroy();
    this.built = new Map();
    this.root.destroy({ children: true });
    this.projected = new WeakMap();
  }
}

/** Whether every point of `xy` (x, y pairs) is within `radius` of the first. */
function withinOnePoint(xy: ArrayLike<number>, radius: number): boolean {
  for (let i = 2; i < xy.length; i += 2) {
    if (Math.abs(xy[i] - xy[0]) > radius || Math.abs(xy[i + 1] - xy[1]) > radius) return false;
  }
  return true;
}

export const trailsLayer: LayerDefinition = {
  name: 'trails',
  redraw: 'static',
  inputs: [TRAILS, SCENE_INPUTS.frame, ZOOM_BUCKET],
  create: () => new TrailsLayer(),
};
