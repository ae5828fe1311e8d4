import { greatCircleDistance } from './distance';
import type { FloorCorners, ImageProperties, LatLong, LongLat } from './floor';
import { pointInPolygon as pointInRing } from './polygon';

declare const brand: unique symbol;
/** A nominal type: the same shape, but not assignable from a plain object or another brand. */
type Brand<T, B extends string> = T & { readonly [brand]: B };

/** A point in a floor's blueprint, in image pixels: (0,0) top-left, x to the right, y down. */
export type ImagePoint = Brand<{ readonly x: number; readonly y: number }, 'ImagePoint'>;
/** A point on the earth, in degrees. */
export type GeoPoint = Brand<LatLong, 'GeoPoint'>;

export function imagePoint(x: number, y: number): ImagePoint {
  return { x, y } as ImagePoint;
}

export function geoPoint(lat: number, long: number): GeoPoint {
  return { lat, long } as GeoPoint;
}

/** A GeoJSON-ordered vertex ([long, lat]) as a point. */
export function fromLongLat([long, lat]: LongLat): GeoPoint {
  return geoPoint(lat, long);
}

export function toLongLat(point: LatLong): LongLat {
  return [point.long, point.lat];
}

export interface FloorTransform {
  toImage(geo: LatLong): ImagePoint;
  toGeo(image: ImagePoint): GeoPoint;
}

/** The eight coefficients of a homography with h33 = 1: [h11, h12, h13, h21, h22, h23, h31, h32]. */
type Homography = readonly [number, number, number, number, number, number, number, number];
type Pair = readonly [number, number];

/**
 * Lat/long to blueprint pixels and back, by the projective transform that sends corner a to the
 * image's top-left (0,0), b to (w,0), c to (w,h) and d to (0,h) (spec §5). Longitude is x and
 * latitude y; a floor is small enough that the plane through its corners is the earth.
 *
 * Both sides are normalised before solving (geo relative to corner a and divided by the floor's
 * span, pixels divided by the image size) so the 8×8 system has entries near 1: solved on raw
 * degrees (~50 with a span of ~0.001) it would lose about six digits.
 */
export function floorTransform(corners: FloorCorners, imageSize: ImageProperties): FloorTransform {
  const { width, height } = imageSize;
  if (!(width > 0 && height > 0)) throw new RangeError('The image size must be positive');
  const origin = corners.a;
  const geo = [corners.a, corners.b, corners.c, corners.d];
  const span = Math.max(
    ...geo.map((p) => Math.abs(p.long - origin.long)),
    ...geo.map((p) => Math.abs(p.lat - origin.lat)),
  );
  if (!(span > 0) || !Number.isFinite(span)) throw new RangeError('The floor corners must be distinct');
  const local = geo.map((p): Pair => [(p.long - origin.long) / span, (p.lat - origin.lat) / span]);
  if (!isConvexQuad(local)) throw new RangeError('The floor corners must form a convex quadrilateral');
  const unit: Pair[] = [
    [0, 0],
    [1, 0],
    [1, 1],
    [0, 1],
  ];
  const forward = solveHomography(local, unit);
  const backward = solveHomography(unit, local);
  return {
    toImage(point) {
      const [u, v] = apply(forward, (point.long - origin.long) / span, (point.lat - origin.lat) / span);
      return imagePoint(u * width, v * height);
    },
    toGeo(point) {
      const [x, y] = apply(backward, point.x / width, point.y / height);
      return geoPoint(origin.lat + y * span, origin.long + x * span);
    },
  };
}

function apply(h: Homography, x: number, y: number): Pair {
  const w = h[6] * x + h[7] * y + 1;
  return [(h[0] * x + h[1] * y + h[2]) / w, (h[3] * x + h[4] * y + h[5]) / w];
}

/** The corners in order a, b, c, d turn the same way at every vertex, so the ring is convex and simple. */
function isConvexQuad(points: readonly Pair[]): boolean {
  let sign = 0;
  for (let i = 0; i < 4; i++) {
    const [x0, y0] = points[i];
    const [x1, y1] = points[(i + 1) % 4];
    const [x2, y2] = points[(i + 2) % 4];
    const cross = (x1 - x0) * (y2 - y1) - (y1 - y0) * (x2 - x1);
    if (Math.abs(cross) < 1e-12) return false;
    if (sign === 0) sign = Math.sign(cross);
    else if (Math.sign(cross) !== sign) return false;
  }
  return true;
}

/**
 * The homography sending each `from[i]` to `to[i]`: two equations per correspondence,
 *   h11·x + h12·y + h13 − h31·x·X − h32·y·X = X
 *   h21·x + h22·y + h23 − h31·x·Y − h32·y·Y = Y
 * solved by Gaussian elimination with partial pivoting.
 */
function solveHomography(from: readonly Pair[], to: readonly Pair[]): Homography {
  const rows: number[][] = [];
  for (let i = 0; i < 4; i++) {
    const [x, y] = from[i];
    const [X, Y] = to[i];
    rows.push([x, y, 1, 0, 0, 0, -x * X, -y * X, X]);
    rows.push([0, 0, 0, x, y, 1, -x * Y, -y * Y, Y]);
  }
  const n = 8;
  for (let col = 0; col < n; col++) {
    let pivot = col;
    for (let r = col + 1; r < n; r++) if (Math.abs(rows[r][col]) > Math.abs(rows[pivot][col])) pivot = r;
    if (Math.abs(rows[pivot][col]) < 1e-12) throw new RangeError('The floor corners are degenerate');
    [rows[col], rows[pivot]] = [rows[pivot], rows[col]];
    for (let r = col + 1; r < n; r++) {
      const factor = rows[r][col] / rows[col][col];
      if (factor === 0) continue;
      for (let k = col; k <= n; k++) rows[r][k] -= factor * rows[col][k];
    }
  }
  const h = new Array<number>(n).fill(0);
  for (let r = n - 1; r >= 0; r--) {
    let sum = rows[r][n];
    for (let k = r + 1; k < n; k++) sum -= rows[r][k] * h[k];
    h[r] = sum / rows[r][r];
  }
  return h as unknown as Homography;
}

/** Ray casting; a point exactly on an edge may fall either side. The ring is open (spec §3 Zone). */
export function pointInPolygon(point: ImagePoint, ring: readonly ImagePoint[]): boolean {
  // The one even-odd rule lives in polygon.ts; this is its image-pixel form.
  return pointInRing(
    [point.x, point.y],
    ring.map((vertex) => [vertex.x, vertex.y] as const),
  );
}

/** The analytics grid's default cell edge, in metres (a floor may set its own). */
export const DEFAULT_CELL_SIZE_M = 1;

/**
 * A floor's analytics grid: square-ish cells of `cellSizeMetres` laid along the floor's own axes
 * (corner a→b is x, a→d is y), so cells line up with the blueprint. Cell (0,0) is at corner a.
 * The server's rollups and the console's heatmap both derive cells here, never separately.
 */
export interface FloorGrid {
  readonly columns: number;
  readonly rows: number;
  readonly cellSizeMetres: number;
  /** The cell a point falls in, or null when it lies outside the floor. */
  cellOf(point: LatLong): { x: number; y: number } | null;
  /** A cell's rectangle in the floor's unit square (0..1 on both axes; multiply by the image size). */
  cellRect(x: number, y: number): { left: number; top: number; width: number; height: number };
}

export function floorGrid(corners: FloorCorners, cellSizeMetres: number = DEFAULT_CELL_SIZE_M): FloorGrid {
  if (!(cellSizeMetres > 0) || !Number.isFinite(cellSizeMetres))
    throw new RangeError('The cell size must be a positive number of metres');
  const unit = floorTransform(corners, { width: 1, height: 1 });
  const widthMetres = Math.max(greatCircleDistance(corners.a, corners.b), cellSizeMetres);
  const heightMetres = Math.max(greatCircleDistance(corners.a, corners.d), cellSizeMetres);
  const columns = Math.ceil(widthMetres / cellSizeMetres);
  const rows = Math.ceil(heightMetres / cellSizeMetres);
  const cellWidth = cellSizeMetres / widthMetres;
  const cellHeight = cellSizeMetres / heightMetres;
  return {
    columns,
    rows,
    cellSizeMetres,
    cellOf(point) {
      const { x: u, y: v } = unit.toImage(point);
      if (!(u >= 0 && u <= 1 && v >= 0 && v <= 1)) return null;
      return {
        x: Math.min(columns - 1, Math.floor(u / cellWidth)),
        y: Math.min(rows - 1, Math.floor(v / cellHeight)),
      };
    },
    cellRect(x, y) {
      const left = x * cellWidth;
      const top = y * cellHeight;
      return { left, top, width: Math.min(cellWidth, 1 - left), height: Math.min(cellHeight, 1 - top) };
    },
  };
}

/**
 * How far a node is from where it was placed: the great-circle distance in metres between its
 * configured position (installation or approval) and the one the network computed for it.
 */
export function displacementMetres(placed: LatLong, computed: LatLong): number {
  return greatCircleDistance(placed, computed);
}
