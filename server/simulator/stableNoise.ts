/**
 * Randomness that is a function of its keys: the same node, pair or minute draws the same number
 * on every run and every restart, so the demo's node history written at start and the live
 * simulator tell one story (nodeBehaviour.ts).
 */

/** A number in [0, 1) fixed by the keys: FNV-1a of the keys, finished with murmur3's mix. */
export function unitHash(...keys: readonly (string | number)[]): number {
  let hash = 0x811c9dc5;
  const text = keys.join('|');
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  hash ^= hash >>> 16;
  hash = Math.imul(hash, 0x85ebca6b);
  hash ^= hash >>> 13;
  hash = Math.imul(hash, 0xc2b2ae35);
  hash ^= hash >>> 16;
  return (hash >>> 0) / 4_294_967_296;
}

/** A number in [min, max) fixed by the keys. */
export function hashBetween(min: number, max: number, ...keys: readonly (string | number)[]): number {
  return min + unitHash(...keys) * (max - min);
}

/** Noise in [-amplitude, amplitude) fixed by the keys. */
export function stableNoise(amplitude: number, ...keys: readonly (string | number)[]): number {
  return (unitHash(...keys) * 2 - 1) * amplitude;
}
