import { greatCircleDistance } from '../../src/domain/distance';
import type { FloorCorners, ImageProperties, LongLat, ZoneKind } from '../../src/domain/floor';
import {
  type FloorTransform,
  floorTransform,
  type ImagePoint,
  imagePoint,
  pointInPolygon,
} from '../../src/domain/geo';
import type { Random } from '../../src/domain/seededRandom';

/** A floor as the simulator walks it: in blueprint pixels, with its zones in the same frame. */
export interface SimFloor {
  id: number;
  buildingId: number;
  image: ImageProperties;
  transform: FloorTransform;
  metresPerPixel: number;
  /** Work and assembly zones: where workers go. */
  walkable: ImagePoint[][];
  /** Restricted zones: where no target is ever picked. */
  restricted: ImagePoint[][];
}

export interface FloorInput {
  id: number;
  buildingId: number;
  corners: FloorCorners;
  /** The blueprint's size; any frame will do for a floor without one. */
  image: ImageProperties | null;
  zones: { kind: ZoneKind; coordinates: LongLat[] }[];
}

const FALLBACK_IMAGE: ImageProperties = { width: 1000, height: 1000 };
const SAMPLE_TRIES = 40;

export function simFloor(input: FloorInput): SimFloor {
  const image = input.image ?? FALLBACK_IMAGE;
  const transform = floorTransform(input.corners, image);
  const ring = (coordinates: LongLat[]) => coordinates.map(([long, lat]) => transform.toImage({ lat, long }));
  return {
    id: input.id,
    buildingId: input.buildingId,
    image,
    transform,
    metresPerPixel: greatCircleDistance(input.corners.a, input.corners.b) / image.width,
    walkable: input.zones.filter((z) => z.kind !== 'restricted').map((z) => ring(z.coordinates)),
    restricted: input.zones.filter((z) => z.kind === 'restricted').map((z) => ring(z.coordinates)),
  };
}

function inRestricted(floor: SimFloor, point: ImagePoint): boolean {
  return floor.restricted.some((ring) => pointInPolygon(point, ring));
}

function inImage(floor: SimFloor, point: ImagePoint): boolean {
  return point.x >= 0 && point.y >= 0 && point.x <= floor.image.width && point.y <= floor.image.height;
}

/** A point inside the ring (rejection sampling in its bounding box), or null after a few misses. */
function pointInRing(random: Random, floor: SimFloor, ring: ImagePoint[]): ImagePoint | null {
  const xs = ring.map((p) => p.x);
  const ys = ring.map((p) => p.y);
  const [minX, maxX, minY, maxY] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
  for (let i = 0; i < SAMPLE_TRIES; i++) {
    const point = imagePoint(minX + random() * (maxX - minX), minY + random() * (maxY - minY));
    if (pointInPolygon(point, ring) && inImage(floor, point) && !inRestricted(floor, point)) return point;
  }
  return null;
}

/**
 * Somewhere a worker would walk to: a point in one of the floor's work or assembly zones, or
 * anywhere on the floor outside restricted zones when it has none (or the zone was too thin
 * to hit).
 */
export function randomTarget(random: Random, floor: SimFloor): ImagePoint {
  if (floor.walkable.length > 0) {
    const ring = floor.walkable[Math.floor(random() * floor.walkable.length)];
    const point = pointInRing(random, floor, ring);
    if (point) return point;
  }
  for (let i = 0; i < SAMPLE_TRIES; i++) {
    const point = imagePoint(random() * floor.image.width, random() * floor.image.height);
    if (!inRestricted(floor, point)) return point;
  }
  return imagePoint(floor.image.width / 2, floor.image.height / 2);
}

export function isWalkable(floor: SimFloor, point: ImagePoint): boolean {
  return inImage(floor, point) && !inRestricted(floor, point);
}
