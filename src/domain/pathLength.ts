import { POSITION_SAMPLE_SECONDS } from './analytics';
import { greatCircleDistance } from './distance';

/**
 * Walking paths from a floor's history: the positions of each worker (or of a helmet nobody
 * wore) in time order, the distance walked and the time spent in each zone.
 */

/** A worker lost for longer than this was not walking in a straight line: the path breaks there. */
export const TRACK_GAP_MS = 60_000;

/** History positions as columns (a decoded history chunk has this shape). */
export interface HistoryColumns {
  readonly helmets: readonly { readonly inventoryItemId: number; readonly workerId: number | null }[];
  /** Absolute milliseconds. */
  readonly times: ArrayLike<number>;
  readonly helmetIndex: ArrayLike<number>;
  readonly lat: ArrayLike<number>;
  readonly long: ArrayLike<number>;
  /** Zone id, 0 outside every zone. */
  readonly zone: ArrayLike<number>;
  readonly status: ArrayLike<number>;
}

/** One worker's positions in time order (a helmet nobody wore is its own track, workerId null). */
export interface Track {
  /** `worker:<id>`, or `helmet:<id>` for an unworn helmet. */
  readonly key: string;
  readonly workerId: number | null;
  /** The helmet of its first position. */
  readonly inventoryItemId: number;
  readonly times: number[];
  readonly lat: number[];
  readonly long: number[];
  readonly zone: number[];
  readonly status: number[];
}

export function trackKey(workerId: number | null, inventoryItemId: number): string {
  return workerId === null ? `helmet:${inventoryItemId}` : `worker:${workerId}`;
}

/**
 * The tracks of some chunks (in any order: windows fetched side by side arrive as they come),
 * each sorted by time with repeated instants kept once.
 */
export function tracksOf(chunks: readonly HistoryColumns[]): Track[] {
  const byKey = new Map<string, Track>();
  for (const chunk of chunks) {
    const tracks = chunk.helmets.map(({ workerId, inventoryItemId }) => {
      const key = trackKey(workerId, inventoryItemId);
      let track = byKey.get(key);
      if (!track) {
        track = { key, workerId, inventoryItemId, times: [], lat: [], long: [], zone: [], status: [] };
        byKey.set(key, track);
      }
      return track;
    });
    for (let i = 0; i < chunk.times.length; i++) {
      const track = tracks[chunk.helmetIndex[i]];
      if (!track) continue;
      track.times.push(chunk.times[i]);
      track.lat.push(chunk.lat[i]);
      track.long.push(chunk.long[i]);
      track.zone.push(chunk.zone[i]);
      track.status.push(chunk.status[i]);
    }
  }
  return [...byKey.values()].map(sortTrack).sort((a, b) => a.key.localeCompare(b.key));
}

function sortTrack(track: Track): Track {
  const { times } = track;
  let sorted = true;
  for (let i = 1; i < times.length && sorted; i++) if (times[i] <= times[i - 1]) sorted = false;
  if (sorted) return track;
  const order = times.map((_, i) => i).sort((a, b) => times[a] - times[b]);
  const kept = order.filter((index, i) => i === 0 || times[index] !== times[order[i - 1]]);
  const pick = (column: number[]) => kept.map((i) => column[i]);
  return {
    ...track,
    times: pick(times),
    lat: pick(track.lat),
    long: pick(track.long),
    zone: pick(track.zone),
    status: pick(track.status),
  };
}

/** Where a track's positions are continuous: [start, end) index ranges split at gaps over `gapMs`. */
export function trackSegments(
  times: ArrayLike<number>,
  gapMs = TRACK_GAP_MS,
  start = 0,
  end = times.length,
): [number, number][] {
  const out: [number, number][] = [];
  let from = start;
  for (let i = start + 1; i < end; i++) {
    if (times[i] - times[i - 1] > gapMs) {
      out.push([from, i]);
      from = i;
    }
  }
  if (end > from) out.push([from, end]);
  return out;
}

/**
 * The distance walked, in metres: the great-circle distance between consecutive positions,
 * not across a gap longer than `gapMs` (where the worker was not seen, nothing is assumed).
 */
export function pathLengthMetres(track: Pick<Track, 'times' | 'lat' | 'long'>, gapMs = TRACK_GAP_MS): number {
  let total = 0;
  const { times, lat, long } = track;
  for (let i = 1; i < times.length; i++) {
    if (times[i] - times[i - 1] > gapMs) continue;
    total += greatCircleDistance({ lat: lat[i - 1], long: long[i - 1] }, { lat: lat[i], long: long[i] });
  }
  return total;
}

/**
 * Seconds in each zone (0: outside every zone): each stored position stands for
 * POSITION_SAMPLE_SECONDS, the rule the rollups count by, so these agree with the analytics.
 */
export function zoneSeconds(track: Pick<Track, 'zone'>): Map<number, number> {
  const out = new Map<number, number>();
  for (const zone of track.zone) out.set(zone, (out.get(zone) ?? 0) + POSITION_SAMPLE_SECONDS);
  return out;
}

/** The index of the last time at or before `t`, or -1 (times ascending). */
export function indexAtOrBefore(times: ArrayLike<number>, t: number): number {
  let lo = 0;
  let hi = times.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (times[mid] <= t) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}
