import { type Container, Graphics } from 'pixi.js';
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

/**
 * Worker trails as polylines, one colour each, simplified for the zoom (Douglas–Peucker at a
 * tolerance of one screen pixel), and rings where a screen marks places. A static layer: drawn
 * again only when the trails, the floor's frame or the zoom bucket change, never while panning.
 * Each track is projected once per floor frame and reused while a playback slides its window.
 */
export class TrailsLayer implements CanvasLayer {
  private readonly graphics = new Graphics({ label: 'trails', eventMode: 'none' });
  private projected = new WeakMap<ArrayLike<number>, Projected>();
  /** How many times the trails were drawn: tests tell a pan from a redraw. */
  redraws = 0;

  attach(world: Container): void {
    world.addChild(this.graphics);
  }

  update({ scene, view }: FrameContext): boolean {
    this.redraws++;
    const g = this.graphics.clear();
    const transform = scene.transform;
    if (!transform) return true;
    const { trails, marks } = TRAILS.value(scene);
    const scale = bucketScale(zoomBucket(view.scale));
    const tolerance = TOLERANCE_PX / scale;
    const width = LINE_PX / scale;
    for (const trail of trails) {
      const xy = this.project(trail, transform, scene.frameVersion);
      const ranges = trail.ranges ?? [[0, trail.lat.length] as const];
      for (const [start, end] of ranges) {
        if (end - start < 1) continue;
        if (end - start === 1) {
          g.circle(xy[2 * start], xy[2 * start + 1], width / 2).fill({ color: trail.colour });
          continue;
        }
        const line = simplifyPolyline(xy.subarray(2 * start, 2 * end), tolerance);
        g.poly(line, false).stroke({ color: trail.colour, width, alpha: 0.9, cap: 'round', join: 'round' });
      }
    }
    for (const mark of marks ?? []) {
      const p = transform.toImage(mark);
      g.circle(p.x, p.y, MARK_PX / scale)
        .fill({ color: 0xffffff, alpha: 0.8 })
        .stroke({ color: mark.colour, width: width });
    }
    return true;
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
    this.graphics.destroy();
    this.projected = new WeakMap();
  }
}

export const trailsLayer: LayerDefinition = {
  name: 'trails',
  redraw: 'static',
  inputs: [TRAILS, SCENE_INPUTS.frame, ZOOM_BUCKET],
  create: () => new TrailsLayer(),
};
