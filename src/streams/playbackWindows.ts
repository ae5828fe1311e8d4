/**
 * The pure arithmetic of the history player (playback.stream.ts): how a range splits into
 * windows, which windows a playhead needs and wants ahead, and the binary searches that let a
 * frame read a window without scanning it. Nothing here knows what a sample means.
 */

/**
 * One fetched window of history, as columns: sample `i` is `times[i]` (absolute ms, ascending)
 * of entity `entities[i]`; what else it carries (position, zone, status…) is in `payload`, indexed
 * by the same `i` and opaque to the player.
 */
export interface SampleWindow<T> {
  /** The span asked for: [fromMs, toMs). */
  readonly fromMs: number;
  readonly toMs: number;
  readonly times: Float64Array;
  readonly entities: Uint32Array;
  readonly payload: T;
}

/** A range of samples of one window: indexes [start, end). */
export interface SampleSlice<T> {
  readonly window: SampleWindow<T>;
  readonly start: number;
  readonly end: number;
}

/** An entity's latest sample at or before the playhead. */
export interface EntitySample<T> {
  readonly window: SampleWindow<T>;
  readonly index: number;
  readonly timeMs: number;
}

export interface WindowGrid {
  readonly fromMs: number;
  readonly toMs: number;
  readonly windowMs: number;
}

export function windowCount(grid: WindowGrid): number {
  return Math.max(1, Math.ceil((grid.toMs - grid.fromMs) / grid.windowMs));
}

/** The window holding `ms`; the range's end belongs to the last window. */
export function windowIndexOf(grid: WindowGrid, ms: number): number {
  const index = Math.floor((ms - grid.fromMs) / grid.windowMs);
  return Math.min(windowCount(grid) - 1, Math.max(0, Number.isFinite(index) ? index : 0));
}

/** The span window `index` fetches: [fromMs, toMs), the last one cut at the range's end. */
export function windowSpan(grid: WindowGrid, index: number): { fromMs: number; toMs: number } {
  const fromMs = grid.fromMs + index * grid.windowMs;
  return { fromMs, toMs: Math.min(grid.toMs, fromMs + grid.windowMs) };
}

export interface PrefetchPolicy {
  /** Windows ahead at 1× (and the least at any speed). */
  readonly prefetchWindows: number;
  /** Real milliseconds of playing the prefetched windows should cover at the current speed. */
  readonly leadMs: number;
  readonly maxPrefetchWindows: number;
}

/** Windows to hold ahead of the playhead: more at higher speed, within [prefetchWindows, max]. */
export function prefetchDepth(policy: PrefetchPolicy, windowMs: number, speed: number): number {
  const wanted = Math.ceil((Math.max(1, speed) * policy.leadMs) / windowMs);
  return Math.min(policy.maxPrefetchWindows, Math.max(policy.prefetchWindows, wanted));
}

/** The windows a frame at `playheadMs` reads: those meeting [playhead − lookback, playhead]. */
export function neededWindows(grid: WindowGrid, playheadMs: number, lookbackMs: number): number[] {
  const last = windowIndexOf(grid, playheadMs);
  const first = windowIndexOf(grid, playheadMs - lookbackMs);
  // The playhead's own window first: it is the one a seek waits for.
  const needed = [last];
  for (let index = last - 1; index >= first; index--) needed.push(index);
  return needed;
}

/** Needed windows first, then `depth` windows ahead in playing order. */
export function wantedWindows(
  grid: WindowGrid,
  playheadMs: number,
  lookbackMs: number,
  depth: number,
): number[] {
  const wanted = neededWindows(grid, playheadMs, lookbackMs);
  const last = Math.min(windowCount(grid) - 1, wanted[0] + depth);
  for (let index = wanted[0] + 1; index <= last; index++) wanted.push(index);
  return wanted;
}

/** The first index whose time is ≥ ms (times ascending). */
export function lowerBound(times: Float64Array, ms: number, start = 0, end = times.length): number {
  let lo = start;
  let hi = end;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (times[mid] < ms) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The first index whose time is > ms (times ascending). */
export function upperBound(times: Float64Array, ms: number, start = 0, end = times.length): number {
  let lo = start;
  let hi = end;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (times[mid] <= ms) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The samples with fromMs ≤ time ≤ toMs across windows given in time order, as slices (no copy):
 * the trail behind the playhead, or a sliding heatmap window.
 */
export function slicesBetween<T>(
  windows: readonly SampleWindow<T>[],
  fromMs: number,
  toMs: number,
): SampleSlice<T>[] {
  const slices: SampleSlice<T>[] = [];
  for (const window of windows) {
    if (window.toMs <= fromMs || window.fromMs > toMs) continue;
    const start = lowerBound(window.times, fromMs);
    const end = upperBound(window.times, toMs, start);
    if (end > start) slices.push({ window, start, end });
  }
  return slices;
}

/**
 * Each entity's latest sample with afterMs < time ≤ atMs, written over `into` (windows in time
 * order): read newest first, so an entity's first sample met is its latest (never a future one)
 * and at 600× a frame's ten seconds of samples make one entry per entity, not one per sample.
 */
export function latestSamples<T>(
  into: Map<number, EntitySample<T>>,
  windows: readonly SampleWindow<T>[],
  afterMs: number,
  atMs: number,
): Map<number, EntitySample<T>> {
  const seen = new Set<number>();
  for (let w = windows.length - 1; w >= 0; w--) {
    const window = windows[w];
    if (window.toMs <= afterMs || window.fromMs > atMs) continue;
    const { times, entities } = window;
    const first = upperBound(times, afterMs);
    for (let index = upperBound(times, atMs, first) - 1; index >= first; index--) {
      const entity = entities[index];
      if (seen.has(entity)) continue;
      seen.add(entity);
      into.set(entity, { window, index, timeMs: times[index] });
    }
  }
  return into;
}
