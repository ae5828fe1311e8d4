import type { LongLat } from '../domain/floor';
import { LIMITS } from '../domain/limits';
import { containsPoint } from '../domain/polygon';
import { samePoint } from '../domain/wallGeometry';

/** The vertex editing that the zone and wall drawing machines share: pure, on [long, lat] points. */

export function withVertexAdded(vertices: readonly LongLat[], point: LongLat): LongLat[] {
  return [...vertices, point];
}

export function withVertexMoved(vertices: readonly LongLat[], index: number, point: LongLat): LongLat[] {
  return vertices.map((vertex, at) => (at === index ? point : vertex));
}

export function isVertexIndex(vertices: readonly LongLat[], index: number): boolean {
  return Number.isInteger(index) && index >= 0 && index < vertices.length;
}

/**
 * Inside the floor, and not where the last vertex is: a double-click's two clicks land on one
 * point, and the second adds nothing.
 */
export function isNewVertex(
  floor: readonly LongLat[],
  vertices: readonly LongLat[],
  point: LongLat,
): boolean {
  if (!containsPoint(floor, point)) return false;
  const last = vertices.at(-1);
  return !last || !samePoint(last, point);
}

/** A name a drawn shape can be saved under: not blank once trimmed, and not too long. */
export function validShapeName(name: string): boolean {
  const trimmed = name.trim();
  return trimmed.length > 0 && trimmed.length <= LIMITS.nameMax;
}
