import { greatCircleDistance } from '../../src/domain/distance';
import { type ImagePoint, imagePoint, pointInPolygon } from '../../src/domain/geo';
import { between, type Random } from '../../src/domain/seededRandom';
import { isWalkable, randomTarget, type SimFloor } from './floorGeometry';

/** Where one worker is and where it is heading, in its floor's blueprint pixels. */
export interface Walker {
  floor: SimFloor;
  at: ImagePoint;
  target: ImagePoint | null;
  /** Seconds left standing at the last target before picking the next one. */
  dwell: number;
}

/** Metres per second: an unhurried walk across a site. */
export const WALKING_SPEED = { min: 0.8, max: 1.5 };
/** Seconds spent at a target before walking on. */
export const DWELL_SECONDS = { min: 15, max: 120 };
/** Chance, on leaving a target, of going to another floor of the same building. */
export const FLOOR_CHANGE_CHANCE = 0.15;

export function newWalker(random: Random, floor: SimFloor): Walker {
  return {
    floor,
    at: randomTarget(random, floor),
    target: null,
    dwell: between(random, 0, DWELL_SECONDS.max),
  };
}

function nextTarget(random: Random, walker: Walker, floors: readonly SimFloor[]): Walker {
  const others = floors.filter((f) => f.buildingId === walker.floor.buildingId && f.id !== walker.floor.id);
  if (others.length > 0 && random() < FLOOR_CHANGE_CHANCE) {
    // Up or down the stairs: the same spot of the storey above or below, when it is walkable there.
    const floor = others[Math.floor(random() * others.length)];
    const same = imagePoint(
      (walker.at.x / walker.floor.image.width) * floor.image.width,
      (walker.at.y / walker.floor.image.height) * floor.image.height,
    );
    const at = isWalkable(floor, same) ? same : randomTarget(random, floor);
    return { floor, at, target: randomTarget(random, floor), dwell: 0 };
  }
  return { ...walker, target: randomTarget(random, walker.floor), dwell: 0 };
}

/**
 * One worker after `seconds` on duty: standing at a target until the dwell runs out, then
 * walking straight to the next one at walking speed, now and then on another floor.
 */
export function stepWalker(
  random: Random,
  walker: Walker,
  seconds: number,
  floors: readonly SimFloor[],
): Walker {
  if (walker.target === null) {
    const dwell = walker.dwell - seconds;
    return dwell > 0 ? { ...walker, dwell } : nextTarget(random, walker, floors);
  }
  const step =
    (between(random, WALKING_SPEED.min, WALKING_SPEED.max) * seconds) / walker.floor.metresPerPixel;
  const dx = walker.target.x - walker.at.x;
  const dy = walker.target.y - walker.at.y;
  const distance = Math.hypot(dx, dy);
  if (distance <= step) {
    return {
      ...walker,
      at: walker.target,
      target: null,
      dwell: between(random, DWELL_SECONDS.min, DWELL_SECONDS.max),
    };
  }
  return {
    ...walker,
    at: imagePoint(walker.at.x + (dx / distance) * step, walker.at.y + (dy / distance) * step),
  };
}

/** A worker walking out during an evacuation, from where it stood to a spot in an assembly zone. */
export interface Evacuee {
  from: { floor: SimFloor; at: ImagePoint };
  to: { floor: SimFloor; at: ImagePoint; zone: AssemblyZoneShape };
  /** Ticks from the start of the walk until the worker stands in the assembly zone. */
  arrivalTick: number;
}

/** An assembly zone as the walk needs it (SimAssemblyZone of siteModel.ts fits). */
export interface AssemblyZoneShape {
  id: number;
  floorId: number;
  buildingId: number;
  ring: readonly ImagePoint[];
}

/** What a change of storey adds to a walk when comparing assembly zones, in metres. */
const STOREY_METRES = 15;
const SAMPLE_TRIES = 40;

function centroid(ring: readonly ImagePoint[]): ImagePoint {
  const x = ring.reduce((sum, p) => sum + p.x, 0) / ring.length;
  const y = ring.reduce((sum, p) => sum + p.y, 0) / ring.length;
  return imagePoint(x, y);
}

/** A spot well inside the ring: a random point of it pulled a quarter of the way to its middle. */
function spotIn(random: Random, ring: readonly ImagePoint[]): ImagePoint {
  const middle = centroid(ring);
  const xs = ring.map((p) => p.x);
  const ys = ring.map((p) => p.y);
  const [minX, maxX, minY, maxY] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
  for (let i = 0; i < SAMPLE_TRIES; i++) {
    const point = imagePoint(minX + random() * (maxX - minX), minY + random() * (maxY - minY));
    if (pointInPolygon(point, ring))
      return imagePoint(point.x + (middle.x - point.x) / 4, point.y + (middle.y - point.y) / 4);
  }
  return middle;
}

/**
 * Where a worker goes when the alarm sounds: the nearest assembly zone of its own building (any
 * building's when its own has none), a change of storey counting as a longer walk. Null when the
 * site has no assembly zone on a floor the simulator knows.
 */
export function evacueeOf(
  random: Random,
  walker: Walker,
  zones: readonly AssemblyZoneShape[],
  floors: readonly SimFloor[],
  arrivalTick: number,
): Evacuee | null {
  const reachable = zones.filter((zone) => floors.some((f) => f.id === zone.floorId));
  const sameBuilding = reachable.filter((zone) => zone.buildingId === walker.floor.buildingId);
  const candidates = sameBuilding.length > 0 ? sameBuilding : reachable;
  const here = walker.floor.transform.toGeo(walker.at);
  let best: { zone: AssemblyZoneShape; floor: SimFloor; metres: number } | null = null;
  for (const zone of candidates) {
    const floor = floors.find((f) => f.id === zone.floorId) as SimFloor;
    const metres =
      greatCircleDistance(here, floor.transform.toGeo(centroid(zone.ring))) +
      (floor.id === walker.floor.id ? 0 : STOREY_METRES);
    if (!best || metres < best.metres) best = { zone, floor, metres };
  }
  if (!best) return null;
  return {
    from: { floor: walker.floor, at: walker.at },
    to: { floor: best.floor, at: spotIn(random, best.zone.ring), zone: best.zone },
    arrivalTick,
  };
}

/**
 * Where an evacuee is `tick` ticks into its walk: straight towards the assembly spot, down the
 * stairs halfway when the zone is on another storey, then standing in the zone.
 */
export function evacueeAt(evacuee: Evacuee, tick: number): Walker {
  const progress = Math.min(1, Math.max(0, tick / evacuee.arrivalTick));
  const { from, to } = evacuee;
  const floor = progress < 0.5 ? from.floor : to.floor;
  const fromX = from.at.x / from.floor.image.width;
  const fromY = from.at.y / from.floor.image.height;
  const toX = to.at.x / to.floor.image.width;
  const toY = to.at.y / to.floor.image.height;
  const at =
    progress >= 1
      ? to.at
      : imagePoint(
          (fromX + (toX - fromX) * progress) * floor.image.width,
          (fromY + (toY - fromY) * progress) * floor.image.height,
        );
  // Once released, the worker waits at the assembly point a while before going back to work.
  return { floor, at, target: null, dwell: DWELL_SECONDS.max };
}

/** The first tick of the walk at which the evacuee stands in its assembly zone (safe from then on). */
export function firstTickInZone(evacuee: Evacuee): number {
  for (let tick = 0; tick < evacuee.arrivalTick; tick++) {
    const walker = evacueeAt(evacuee, tick);
    if (walker.floor.id === evacuee.to.floor.id && pointInPolygon(walker.at, evacuee.to.zone.ring))
      return tick;
  }
  return evacuee.arrivalTick;
}
