/** A number generator in [0, 1), like Math.random. */
export type Random = () => number;

/**
 * mulberry32: a small, fast generator whose sequence is fixed by its seed, so the demo seed
 * and the simulator's tests produce the same workers and walks on every run.
 */
export function seededRandom(seed: number): Random {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** One element of a non-empty list. */
export function pick<T>(random: Random, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)];
}

/** A number in [min, max). */
export function between(random: Random, min: number, max: number): number {
  return min + random() * (max - min);
}
