import { POSITION_SAMPLE_SECONDS } from './analytics';
import { greatCircleDistance } from './distance';
import { TRACK_GAP_MS, type Track } from './pathLength';

/** A place a worker stayed: at least STOP_MIN_MS within STOP_RADIUS_M of where the stay began. */
export interface Stop {
  readonly startMs: number;
  readonly endMs: number;
  readonly durationMs: number;
  /** The mean of the positions of the stay. */
  readonly lat: number;
  readonly long: number;
  /** The zone most of the stay was in, 0 for none. */
  readonly zone: number;
}

/** A stay this long or longer is a stop. */
export const STOP_MIN_MS = 5 * 60_000;
/** …when every position of it lies this close to its first one. */
export const STOP_RADIUS_M = 5;

export interface StopOptions {
  minDurationMs?: number;
  radiusMetres?: number;
  /** A stay is broken where the worker was not seen for longer than this. */
  gapMs?: number;
}

type TrackColumns = Pick<Track, 'times' | 'lat' | 'long' | 'zone'>;

const SAMPLE_MS = POSITION_SAMPLE_SECONDS * 1000;

/**
 * The stops of a track (stay-point detection): from each position, the run of following
 * positions within the radius of it; a run lasting at least the minimum is a stop and the search
 * goes on after it, otherwise from the next position. A stop lasts from its first position to the
 * end of its last one (each position stands for POSITION_SAMPLE_SECONDS).
 */
export function findStops(track: TrackColumns, options: StopOptions = {}): Stop[] {
  const minMs = options.minDurationMs ?? STOP_MIN_MS;
  const radius = options.radiusMetres ?? STOP_RADIUS_M;
  const gapMs = options.gapMs ?? TRACK_GAP_MS;
  const { times, lat, long, zone } = track;
  const n = times.length;
  const stops: Stop[] = [];
  let i = 0;
  while (i < n) {
    const anchor = { lat: lat[i], long: long[i] };
    let j = i + 1;
    while (
      j < n &&
      times[j] - times[j - 1] <= gapMs &&
      greatCircleDistance(anchor, { lat: lat[j], long: long[j] }) <= radius
    )
      j++;
    const endMs = times[j - 1] + SAMPLE_MS;
    if (endMs - times[i] >= minMs) {
      stops.push(stopOf(times, lat, long, zone, i, j, endMs));
      i = j;
    } else i++;
  }
  return stops;
}

function stopOf(
  times: ArrayLike<number>,
  lat: ArrayLike<number>,
  long: ArrayLike<number>,
  zone: ArrayLike<number>,
  from: number,
  to: number,
  endMs: number,
): Stop {
  let sumLat = 0;
  let sumLong = 0;
  const zones = new Map<number, number>();
  for (let k = from; k < to; k++) {
    sumLat += lat[k];
    sumLong += long[k];
    zones.set(zone[k], (zones.get(zone[k]) ?? 0) + 1);
  }
  let mostZone = 0;
  let most = -1;
  for (const [id, count] of zones) {
    if (count > most) {
      most = count;
      mostZone = id;
    }
  }
  const count = to - from;
  return {
    startMs: times[from],
    endMs,
    durationMs: endMs - times[from],
    lat: sumLat / count,
    long: sumLong / count,
    zone: mostZone,
  };
}

/** A stay in one zone: from the first position in it to the end of the last one. */
export interface ZoneVisit {
  readonly zoneId: number;
  readonly enteredMs: number;
  readonly leftMs: number;
  readonly durationMs: number;
}

/**
 * The zone visits of a track, in time order: runs of positions in the same zone (0, outside
 * every zone, is no visit), broken where the zone changes or the worker was not seen for longer
 * than `gapMs`.
 */
export function zoneVisits(track: Pick<Track, 'times' | 'zone'>, gapMs = TRACK_GAP_MS): ZoneVisit[] {
  const { times, zone } = track;
  const visits: ZoneVisit[] = [];
  let start = -1;
  const close = (last: number) => {
    if (start === -1) return;
    const leftMs = times[last] + SAMPLE_MS;
    visits.push({ zoneId: zone[start], enteredMs: times[start], leftMs, durationMs: leftMs - times[start] });
    start = -1;
  };
  for (let i = 0; i < times.length; i++) {
    const continues = start !== -1 && zone[i] === zone[start] && times[i] - times[i - 1] <= gapMs;
    if (continues) continue;
    close(i - 1);
    if (zone[i] !== 0) start = i;
  }
  close(times.length - 1);
  return visits;
}
