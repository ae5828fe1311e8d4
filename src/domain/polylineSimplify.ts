/**
 * Polyline simplification for drawing trails at a zoom level: points closer than a tolerance
 * (radial distance) are dropped first, then Douglas–Peucker keeps only the points that bend the
 * line by more than the tolerance. The tolerance is in the points' own units: the trails layer
 * gives image pixels worth a fixed number of screen pixels, so a trail has as many vertices as
 * the screen can show and no more.
 *
 * Points travel as flat arrays (x0, y0, x1, y1, …): a day of one helmet is 36,000 points and no
 * object is made per point.
 */

/** Drops every point within `tolerance` of the last kept one; the first and last points stay. */
export function radialSimplify(points: ArrayLike<number>, tolerance: number): number[] {
  const n = points.length >> 1;
  if (n <= 2) return Array.from(points);
  const out: number[] = [points[0], points[1]];
  const limit = tolerance * tolerance;
  let px = points[0];
  let py = points[1];
  for (let i = 1; i < n - 1; i++) {
    const x = points[2 * i];
    const y = points[2 * i + 1];
    const dx = x - px;
    const dy = y - py;
    if (dx * dx + dy * dy > limit) {
      out.push(x, y);
      px = x;
      py = y;
    }
  }
  out.push(points[2 * n - 2], points[2 * n - 1]);
  return out;
}

/** The squared distance from (x, y) to the segment (ax, ay)–(bx, by). */
function segmentDistanceSquared(
  x: number,
  y: number,
  ax: number,
  ay: number,
  bx: number,
  by: number,
): number {
  let dx = bx - ax;
  let dy = by - ay;
  if (dx !== 0 || dy !== 0) {
    const t = ((x - ax) * dx + (y - ay) * dy) / (dx * dx + dy * dy);
    if (t > 1) {
      ax = bx;
      ay = by;
    } else if (t > 0) {
      ax += dx * t;
      ay += dy * t;
    }
  }
  dx = x - ax;
  dy = y - ay;
  return dx * dx + dy * dy;
}

/**
 * Douglas–Peucker: keeps the first and last points and, recursively, the point farthest from the
 * chord when it is farther than `tolerance`. Iterative (an explicit stack), so a long trail
 * cannot overflow the call stack.
 */
export function douglasPeucker(points: ArrayLike<number>, tolerance: number): number[] {
  const n = points.length >> 1;
  if (n <= 2) return Array.from(points);
  const keep = new Uint8Array(n);
  keep[0] = 1;
  keep[n - 1] = 1;
  const limit = tolerance * tolerance;
  const stack: number[] = [0, n - 1];
  while (stack.length) {
    const last = stack.pop() as number;
    const first = stack.pop() as number;
    let farthest = -1;
    let max = limit;
    const ax = points[2 * first];
    const ay = points[2 * first + 1];
    const bx = points[2 * last];
    const by = points[2 * last + 1];
    for (let i = first + 1; i < last; i++) {
      const d = segmentDistanceSquared(points[2 * i], points[2 * i + 1], ax, ay, bx, by);
      if (d > max) {
        farthest = i;
        max = d;
      }
    }
    if (farthest !== -1) {
      keep[farthest] = 1;
      stack.push(first, farthest, farthest, last);
    }
  }
  const out: number[] = [];
  for (let i = 0; i < n; i++) if (keep[i]) out.push(points[2 * i], points[2 * i + 1]);
  return out;
}

/**
 * The polyline as drawn at a zoom: radial distance, then Douglas–Peucker, with one tolerance.
 * Each pass gets half of it: a point the radial pass drops is within half of a kept vertex, and
 * that vertex within half of the Douglas–Peucker line, so every input point lies within
 * `tolerance` of what is drawn.
 */
export function simplifyPolyline(points: ArrayLike<number>, tolerance: number): number[] {
  if (!(tolerance > 0)) return Array.from(points);
  return douglasPeucker(radialSimplify(points, tolerance / 2), tolerance / 2);
}

/**
 * The zoom bucket of a scale: half-octave steps, so zooming in by less than √2 keeps the
 * simplified trails (and draws nothing again).
 */
export function zoomBucket(scale: number): number {
  return Math.round(Math.log2(scale) * 2);
}

/** The scale a bucket stands for (its tolerance is computed at this scale). */
export function bucketScale(bucket: number): number {
  return 2 ** (bucket / 2);
}
