import type { LongLat } from './floor';
import { containsPoint, type Point } from './polygon';

/**
 * A wall's polyline rules (issue 19), shared by the drawing machine and the server: at least two
 * vertices, at most MAX_WALL_POINTS, every vertex inside the floor's corner ring (its edge
 * included), and no segment of zero length (two consecutive vertices at one point).
 */

/** What a wall is made of; its attenuation in dB comes from the site's radio model. */
export const WALL_MATERIALS = ['drywall', 'brick', 'concrete', 'glass', 'metal'] as const;
export type WallMaterial = (typeof WALL_MATERIALS)[number];

export const MIN_WALL_POINTS = 2;
export const MAX_WALL_POINTS = 200;

export type WallPolylineProblem = 'tooFewPoints' | 'tooManyPoints' | 'zeroLengthSegment' | 'outside';

export function samePoint(a: Point, b: Point): boolean {
  return a[0] === b[0] && a[1] === b[1];
}

/** Why `points` is not a wall's polyline on a floor with corner ring `floor`, or null. */
export function wallPolylineProblem(
  points: readonly Point[],
  floor?: readonly Point[],
): WallPolylineProblem | null {
  if (points.length < MIN_WALL_POINTS) return 'tooFewPoints';
  if (points.length > MAX_WALL_POINTS) return 'tooManyPoints';
  for (let i = 1; i < points.length; i++) if (samePoint(points[i - 1], points[i])) return 'zeroLengthSegment';
  if (floor && !points.every((point) => containsPoint(floor, point))) return 'outside';
  return null;
}

/** `points` moved by `to − from` (a whole wall dragged by one of its points). */
export function translatePolyline(points: readonly LongLat[], from: Point, to: Point): LongLat[] {
  const dx = to[0] - from[0];
  const dy = to[1] - from[1];
  return points.map(([x, y]) => [x + dx, y + dy]);
}

/** The distance from `p` to the segment a–b, in the plane's own units. */
export function distanceToSegment(p: Point, a: Point, b: Point): number {
  const dx = b[0] - a[0];
  const dy = b[1] - a[1];
  const length2 = dx * dx + dy * dy;
  const t = length2 === 0 ? 0 : Math.max(0, Math.min(1, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / length2));
  return Math.hypot(p[0] - (a[0] + t * dx), p[1] - (a[1] + t * dy));
}

/** The distance from `p` to the nearest segment of the polyline (to its only vertex when it has one). */
export function distanceToPolyline(p: Point, points: readonly Point[]): number {
  if (points.length === 0) return Number.POSITIVE_INFINITY;
  if (points.length === 1) return Math.hypot(p[0] - points[0][0], p[1] - points[0][1]);
  let best = Number.POSITIVE_INFINITY;
  for (let i = 1; i < points.length; i++)
    best = Math.min(best, distanceToSegment(p, points[i - 1], points[i]));
  return best;
}
