/** A point in a plane: [x, y]. Zones pass [long, lat], which is fine at building scale. */
export type Point = readonly [number, number];

export type PolygonProblem = 'tooFewPoints' | 'selfIntersecting' | 'outside';

const same = (p: Point, q: Point) => p[0] === q[0] && p[1] === q[1];

/** Twice the signed area of the triangle p, q, r: > 0 counter-clockwise, 0 collinear. */
function cross(p: Point, q: Point, r: Point): number {
  return (q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0]);
}

function sign(value: number): number {
  return value > 0 ? 1 : value < 0 ? -1 : 0;
}

/** p lies on the segment a–b (p collinear with it and within its bounding box). */
export function onSegment(p: Point, a: Point, b: Point): boolean {
  return (
    cross(a, b, p) === 0 &&
    Math.min(a[0], b[0]) <= p[0] &&
    p[0] <= Math.max(a[0], b[0]) &&
    Math.min(a[1], b[1]) <= p[1] &&
    p[1] <= Math.max(a[1], b[1])
  );
}

/** The segments a–b and c–d share at least one point (crossing, touching or overlapping). */
export function segmentsIntersect(a: Point, b: Point, c: Point, d: Point): boolean {
  const d1 = sign(cross(c, d, a));
  const d2 = sign(cross(c, d, b));
  const d3 = sign(cross(a, b, c));
  const d4 = sign(cross(a, b, d));
  if (d1 * d2 < 0 && d3 * d4 < 0) return true;
  return (
    (d1 === 0 && onSegment(a, c, d)) ||
    (d2 === 0 && onSegment(b, c, d)) ||
    (d3 === 0 && onSegment(c, a, b)) ||
    (d4 === 0 && onSegment(d, a, b))
  );
}

/** The ring without a repeated closing vertex and without consecutive duplicates. */
export function openRing<T extends Point>(ring: readonly T[]): T[] {
  const out: T[] = [];
  for (const point of ring) if (out.length === 0 || !same(out[out.length - 1], point)) out.push(point);
  while (out.length > 1 && same(out[0], out[out.length - 1])) out.pop();
  return out;
}

/** Twice the signed area (shoelace); 0 for a ring whose points are all on one line. */
export function signedArea2(ring: readonly Point[]): number {
  let sum = 0;
  for (let i = 0; i < ring.length; i++) {
    const [x1, y1] = ring[i];
    const [x2, y2] = ring[(i + 1) % ring.length];
    sum += x1 * y2 - x2 * y1;
  }
  return sum;
}

/** Every point on one line (a figure of eight can have zero area without being collinear). */
export function allCollinear(points: readonly Point[]): boolean {
  const first = points[0];
  const second = points.find((p) => !same(p, first));
  if (!second) return true;
  return points.every((p) => cross(first, second, p) === 0);
}

/** Two edges of the (open) ring meet anywhere but at the vertex adjacent edges share. */
export function isSelfIntersecting(ring: readonly Point[]): boolean {
  const n = ring.length;
  for (let i = 0; i < n; i++) {
    const a = ring[i];
    const b = ring[(i + 1) % n];
    for (let j = i + 1; j < n; j++) {
      const c = ring[j];
      const d = ring[(j + 1) % n];
      const adjacent = j === i + 1 || (i === 0 && j === n - 1);
      if (adjacent) {
        // Neighbours share one vertex; they intersect only when they fold back over each other.
        const shared = j === i + 1 ? b : a;
        const farA = j === i + 1 ? a : b;
        const farB = j === i + 1 ? d : c;
        if (
          cross(farA, shared, farB) === 0 &&
          (onSegment(farA, shared, farB) || onSegment(farB, shared, farA))
        )
          return true;
      } else if (segmentsIntersect(a, b, c, d)) {
        return true;
      }
    }
  }
  return false;
}

/** Strictly inside by ray casting; points on the boundary may go either way (see containsPoint). */
export function pointInPolygon(point: Point, polygon: readonly Point[]): boolean {
  const [x, y] = point;
  let inside = false;
  for (let i = 0, j = polygon.length - 1; i < polygon.length; j = i++) {
    const [xi, yi] = polygon[i];
    const [xj, yj] = polygon[j];
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

/** Inside or on the boundary: a zone may be drawn up to the floor's edge. */
export function containsPoint(polygon: readonly Point[], point: Point): boolean {
  for (let i = 0; i < polygon.length; i++) {
    if (onSegment(point, polygon[i], polygon[(i + 1) % polygon.length])) return true;
  }
  return pointInPolygon(point, polygon);
}

/**
 * Why a ring is not a valid zone, or null: fewer than three distinct points (or all on one line),
 * edges crossing, or a vertex outside the container (the floor's corner quadrilateral).
 */
export function polygonProblem(ring: readonly Point[], container?: readonly Point[]): PolygonProblem | null {
  const open = openRing(ring);
  if (open.length < 3 || allCollinear(open)) return 'tooFewPoints';
  if (isSelfIntersecting(open)) return 'selfIntersecting';
  if (container && !open.every((point) => containsPoint(container, point))) return 'outside';
  return null;
}
