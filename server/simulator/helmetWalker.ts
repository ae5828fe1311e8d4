import { type ImagePoint, imagePoint } from '../../src/domain/geo';
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
