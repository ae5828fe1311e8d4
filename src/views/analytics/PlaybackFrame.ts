import { POSITION_SAMPLE_SECONDS } from '../../domain/analytics';
import type { Floor } from '../../domain/floor';
import { type FloorGrid, floorGrid } from '../../domain/geo';
import type { DecodedHistory } from '../../domain/historyChunk';
import type { WorkerOnMap } from '../../domain/inventory';
import { TRACK_GAP_MS, trackSegments } from '../../domain/pathLength';
import { HISTORY_ACTIVE, HISTORY_ONLINE } from '../../domain/schemas/analytics';
import type { EntitySample, SampleSlice, SampleWindow } from '../../streams/playback.stream';
import { lowerBound, slicesBetween, upperBound } from '../../streams/playbackWindows';
import type { WorkerMap } from '../../streams/workerMapState';
import type { HeatmapCells } from '../canvas/layers/heatmapCells';
import type { Trail } from '../canvas/layers/TrailsLayer';

/**
 * What the playback screen makes of the generic history player's frames (src/streams/playback.stream.ts):
 * a window of a floor's history as the player's columns (entity = helmet), and from a frame the
 * markers, the trails behind the playhead and the sliding heatmap. Pure, so the three agree.
 */

/** What a replayed worker is called and looks like, from the workers API (when the role may read it). */
export interface WorkerLabel {
  name: string;
  role_name: string | null;
  subcontractor_name: string | null;
  worker_tag_id: string | null;
  helmet_color: string | null;
}

/** The trails behind the playhead cover this much of the past. */
export const TRAIL_WINDOW_MS = 5 * 60_000;
/** The sliding heatmap sums this much of the past. */
export const HEAT_WINDOW_MS = 15 * 60_000;
/** A helmet not seen for longer than this at the playhead has no marker (the live canvas's gap). */
export const MARKER_STALE_MS = TRACK_GAP_MS;

/** A sample's columns beside the player's times and entities (entity = the helmet's inventory id). */
export interface HistoryPayload {
  /** The worker wearing the helmet then; 0 for nobody. */
  readonly workerId: Int32Array;
  readonly lat: Float64Array;
  readonly long: Float64Array;
  /** Zone id, 0 outside every zone. */
  readonly zone: Int32Array;
  /** HISTORY_ONLINE | HISTORY_ACTIVE bits. */
  readonly status: Uint8Array;
}

export type HistoryWindow = SampleWindow<HistoryPayload>;

/**
 * The chunks of one window (its cursor's order) as one player window: times ascending (the
 * route sends (time, helmet) order; anything else is sorted, stably).
 */
export function historySampleWindow(
  chunks: readonly DecodedHistory[],
  fromMs: number,
  toMs: number,
): HistoryWindow {
  let count = 0;
  for (const chunk of chunks) count += chunk.times.length;
  const times = new Float64Array(count);
  const entities = new Uint32Array(count);
  const workerId = new Int32Array(count);
  const lat = new Float64Array(count);
  const long = new Float64Array(count);
  const zone = new Int32Array(count);
  const status = new Uint8Array(count);
  let at = 0;
  for (const chunk of chunks) {
    const n = chunk.times.length;
    times.set(chunk.times, at);
    lat.set(chunk.lat, at);
    long.set(chunk.long, at);
    zone.set(chunk.zone, at);
    status.set(chunk.status, at);
    for (let i = 0; i < n; i++) {
      const helmet = chunk.helmets[chunk.helmetIndex[i]];
      entities[at + i] = helmet?.inventoryItemId ?? 0;
      workerId[at + i] = helmet?.workerId ?? 0;
    }
    at += n;
  }
  let sorted = true;
  for (let i = 1; i < count && sorted; i++) if (times[i] < times[i - 1]) sorted = false;
  if (sorted) return { fromMs, toMs, times, entities, payload: { workerId, lat, long, zone, status } };
  const order = Array.from({ length: count }, (_, i) => i).sort((a, b) => times[a] - times[b] || a - b);
  const pick = <A extends Float64Array | Uint32Array | Int32Array | Uint8Array>(column: A): A => {
    const out = new (column.constructor as new (length: number) => A)(count);
    for (let i = 0; i < count; i++) out[i] = column[order[i]];
    return out;
  };
  return {
    fromMs,
    toMs,
    times: pick(times),
    entities: pick(entities),
    payload: {
      workerId: pick(workerId),
      lat: pick(lat),
      long: pick(long),
      zone: pick(zone),
      status: pick(status),
    },
  };
}

/**
 * The markers of a frame: each helmet's latest sample at the playhead as the live canvas's
 * workers (so markers get the live colours and tooltips), keyed by helmet.
 */
export function markersOf(
  entities: ReadonlyMap<number, EntitySample<HistoryPayload>>,
  floor: Pick<Floor, 'id' | 'name'>,
  labels: ReadonlyMap<number, WorkerLabel>,
  zoneNames: ReadonlyMap<number, string>,
): WorkerMap {
  const out = new Map<number, WorkerOnMap>();
  for (const [helmetId, { window, index, timeMs }] of entities) {
    const { workerId: workers, lat, long, zone: zones, status } = window.payload;
    const workerId = workers[index] === 0 ? null : workers[index];
    const label = workerId === null ? undefined : labels.get(workerId);
    const zone = zones[index];
    out.set(helmetId, {
      id: workerId,
      inventory_id: helmetId,
      wnt_inventory_id: String(helmetId),
      coordinates: { lat: lat[index], long: long[index] },
      name: label?.name ?? null,
      worker_tag_id: label?.worker_tag_id ?? null,
      contact_number: null,
      role_name: label?.role_name ?? null,
      subcontractor_name: label?.subcontractor_name ?? null,
      last_seen: new Date(timeMs).toISOString(),
      is_online: (status[index] & HISTORY_ONLINE) !== 0,
      is_active: (status[index] & HISTORY_ACTIVE) !== 0,
      profile_picture_path: null,
      helmet_color: label?.helmet_color ?? null,
      zone_id: zone === 0 ? null : zone,
      zone_name: zone === 0 ? null : (zoneNames.get(zone) ?? null),
      blueprint_id: floor.id,
      blueprint_name: floor.name,
    });
  }
  return out;
}

/** What a trail is drawn from: each sample's position, in the window's (time) order. */
export interface TrailColumns {
  readonly lat: ArrayLike<number>;
  readonly long: ArrayLike<number>;
}

/**
 * Trails are cut into pieces of this much replay time, aligned on their window's start. A piece
 * the playhead has passed is the same object frame after frame (the trails layer keeps its
 * geometry); only what the playhead added is made, so a frame at 600× builds about its own ten
 * seconds of samples instead of the whole trail.
 */
export const TRAIL_PIECE_MS = 10_000;
/**
 * In the piece the playhead is in, the samples up to the playhead are kept as a segment of their
 * own once they span this much replay time; only the newer ones are made again on the next frame.
 */
export const TRAIL_TIP_MS = 1000;
/** A completed piece of more segments than this is made again as one (a slow replay's many segments). */
const MAX_SEGMENTS = 3;

/** The piece the playhead is in: its segments kept so far, up to `frozenMs`, and the tip after it. */
interface HeadPiece {
  readonly piece: number;
  readonly segments: Trail[][];
  /** Its samples with times ≤ this are in `segments` (−∞: none yet). */
  frozenMs: number;
  tip: { readonly end: number; readonly trails: Trail[] } | null;
}

/** A window's samples regrouped per helmet (entity-major), each led by its previous window's last sample. */
interface WindowTrack {
  /** The window whose last samples lead these tracks (null: none). */
  readonly previous: SampleWindow<TrailColumns> | null;
  /** Helmets with samples in the window, ascending. */
  readonly helmets: Uint32Array;
  /** Helmet h's track is [first[h], first[h + 1]) of the columns; own samples from own[h]. */
  readonly first: Uint32Array;
  readonly own: Uint32Array;
  readonly times: Float64Array;
  readonly lat: Float64Array;
  readonly long: Float64Array;
  /** Helmet h's colour when its pieces were built. */
  readonly colours: Float64Array;
  /** Pieces the playhead has passed, by index in the window. */
  readonly pieces: Map<number, Trail[]>;
  head: HeadPiece | null;
}

const windowTracks = new WeakMap<SampleWindow<TrailColumns>, WindowTrack>();

function windowTrack(
  window: SampleWindow<TrailColumns>,
  previous: SampleWindow<TrailColumns> | null,
): WindowTrack {
  const known = windowTracks.get(window);
  // Kept unless a window to lead it from has come in since (the track is otherwise the same).
  if (known && (previous === null || known.previous === previous)) return known;
  const lead = previous ? windowTracks.get(previous) : undefined;
  const counts = new Map<number, number>();
  const { entities } = window;
  for (let i = 0; i < entities.length; i++) counts.set(entities[i], (counts.get(entities[i]) ?? 0) + 1);
  const helmets = Uint32Array.from(counts.keys()).sort();
  const first = new Uint32Array(helmets.length + 1);
  const own = new Uint32Array(helmets.length);
  const indexOf = new Map<number, number>();
  const leadOf = new Int32Array(helmets.length).fill(-1);
  let at = 0;
  let l = 0;
  for (let h = 0; h < helmets.length; h++) {
    first[h] = at;
    if (lead) {
      while (l < lead.helmets.length && lead.helmets[l] < helmets[h]) l++;
      if (l < lead.helmets.length && lead.helmets[l] === helmets[h]) {
        leadOf[h] = lead.first[l + 1] - 1;
        at++;
      }
    }
    own[h] = at;
    indexOf.set(helmets[h], h);
    at += counts.get(helmets[h])!;
  }
  first[helmets.length] = at;
  const times = new Float64Array(at);
  const lat = new Float64Array(at);
  const long = new Float64Array(at);
  if (lead) {
    for (let h = 0; h < helmets.length; h++) {
      const from = leadOf[h];
      if (from < 0) continue;
      times[first[h]] = lead.times[from];
      lat[first[h]] = lead.lat[from];
      long[first[h]] = lead.long[from];
    }
  }
  const { lat: sampleLat, long: sampleLong } = window.payload;
  const cursor = own.slice();
  for (let i = 0; i < entities.length; i++) {
    const to = cursor[indexOf.get(entities[i])!]++;
    times[to] = window.times[i];
    lat[to] = sampleLat[i];
    long[to] = sampleLong[i];
  }
  const track: WindowTrack = {
    previous: lead ? previous : null,
    helmets,
    first,
    own,
    times,
    lat,
    long,
    colours: new Float64Array(helmets.length).fill(Number.NaN),
    pieces: new Map(),
    head: null,
  };
  windowTracks.set(window, track);
  return track;
}

/**
 * Part of a window's trail: each helmet's samples with fromMs ≤ time < toMs, afterMs < time and
 * time ≤ untilMs,
 * joined to its sample before them (split where the helmet was lost for longer than
 * TRACK_GAP_MS), as one Trail per colour over the window's regrouped columns.
 */
function segmentTrails(
  track: WindowTrack,
  fromMs: number,
  afterMs: number,
  toMs: number,
  untilMs: number,
): Trail[] {
  const byColour = new Map<number, [number, number][]>();
  const { times, first, own, colours } = track;
  for (let h = 0; h < track.helmets.length; h++) {
    const end = first[h + 1];
    let lo = upperBound(times, afterMs, lowerBound(times, fromMs, own[h], end), end);
    const hi = Math.min(lowerBound(times, toMs, lo, end), upperBound(times, untilMs, lo, end));
    if (hi <= lo) continue;
    if (lo > first[h] && times[lo] - times[lo - 1] <= TRACK_GAP_MS) lo--;
    let ranges = byColour.get(colours[h]);
    if (!ranges) {
      ranges = [];
      byColour.set(colours[h], ranges);
    }
    for (const range of trackSegments(times, TRACK_GAP_MS, lo, hi)) ranges.push(range);
  }
  return [...byColour].map(([colour, ranges]) => ({
    key: `trail:${fromMs}:${afterMs}:${colour}`,
    colour,
    lat: track.lat,
    long: track.long,
    ranges,
  }));
}

/**
 * A frame's trail (its samples behind the playhead, slices of windows in time order) as trail
 * pieces: per window and TRAIL_PIECE_MS of it, one Trail per colour over the window's samples
 * regrouped per helmet (polylines join across pieces and windows, and split where a helmet was
 * lost for longer than TRACK_GAP_MS). The pieces the playhead has passed are the same objects
 * on every frame, and so are the segments of the piece it is in once they span TRAIL_TIP_MS, so
 * the trails layer builds only what is new. The trail is drawn by whole pieces: its oldest piece
 * may reach up to TRAIL_PIECE_MS further back than the slices. `colourOf` is asked for every
 * helmet of the windows (ascending, oldest window first).
 */
export function trailsOf<T extends TrailColumns>(
  slices: readonly SampleSlice<T>[],
  colourOf: (helmetId: number) => number,
): Trail[] {
  const trails: Trail[] = [];
  let previous: SampleWindow<TrailColumns> | null = null;
  for (const { window, start, end } of slices) {
    const adjacent = previous !== null && previous.toMs === window.fromMs ? previous : null;
    previous = window;
    if (end <= start) continue;
    const track = windowTrack(window, adjacent);
    let recoloured = false;
    for (let h = 0; h < track.helmets.length; h++) {
      const colour = colourOf(track.helmets[h]);
      if (colour === track.colours[h]) continue;
      track.colours[h] = colour;
      recoloured = true;
    }
    if (recoloured) {
      track.pieces.clear();
      track.head = null;
    }
    const pieceStart = (piece: number) => window.fromMs + piece * TRAIL_PIECE_MS;
    const pieceOf = (ms: number) => Math.floor((ms - window.fromMs) / TRAIL_PIECE_MS);
    const firstPiece = Math.max(0, pieceOf(window.times[start]));
    const untilMs = window.times[end - 1];
    const headPiece = pieceOf(untilMs);
    // The head piece is whole when no sample of it is left after the slice.
    const headWhole = end === window.times.length || window.times[end] >= pieceStart(headPiece + 1);
    let pushed: Trail[] | null = null;
    for (let piece = firstPiece; piece <= headPiece; piece++) {
      const fromMs = pieceStart(piece);
      const toMs = pieceStart(piece + 1);
      const whole = (p: number) => p < headPiece || headWhole;
      if (whole(piece)) {
        let done = track.pieces.get(piece);
        if (!done) {
          const head = track.head?.piece === piece ? track.head : null;
          if (head && head.segments.length < MAX_SEGMENTS) {
            // What the playhead left of it as segments, and the rest.
            done = [...head.segments.flat(), ...segmentTrails(track, fromMs, head.frozenMs, toMs, Infinity)];
            track.pieces.set(piece, done);
          } else {
            // Passed pieces never drawn (a jump, a slow frame at a high speed): one run of them at
            // once, so a helmet's walk is one polyline there rather than one per piece.
            let last = piece;
            while (whole(last + 1) && last + 1 <= headPiece && !track.pieces.has(last + 1)) last++;
            done = segmentTrails(track, fromMs, -Infinity, pieceStart(last + 1), Infinity);
            for (let p = piece; p <= last; p++) track.pieces.set(p, done);
          }
          if (head) track.head = null;
        }
        // A run of pieces shares its trails: drawn once.
        if (done !== pushed) trails.push(...done);
        pushed = done;
        continue;
      }
      let head = track.head;
      // A new piece, or a seek back into this one: nothing of it is kept.
      if (head?.piece !== piece || untilMs < head.frozenMs) {
        head = { piece, segments: [], frozenMs: -Infinity, tip: null };
        track.head = head;
      }
      for (const segment of head.segments) trails.push(...segment);
      if (untilMs - Math.max(fromMs, head.frozenMs) >= TRAIL_TIP_MS) {
        head.segments.push(segmentTrails(track, fromMs, head.frozenMs, toMs, untilMs));
        head.frozenMs = untilMs;
        head.tip = null;
        trails.push(...head.segments[head.segments.length - 1]);
        continue;
      }
      if (head.tip?.end !== end) {
        head.tip = { end, trails: segmentTrails(track, fromMs, head.frozenMs, toMs, untilMs) };
      }
      trails.push(...head.tip.trails);
    }
  }
  return trails;
}

/** The floor's analytics grid (the rule the rollups use), for the client-side sliding heatmap. */
export function playbackGrid(floor: Floor, cellSizeMetres?: number): FloorGrid | null {
  try {
    return floorGrid(floor.coordinates, cellSizeMetres);
  } catch {
    return null;
  }
}

/**
 * Worker-seconds per cell over [playhead − window, playhead], from the windows of a frame (which
 * cover its lookback): each position stands for POSITION_SAMPLE_SECONDS, as in the rollups.
 */
export function slidingHeatmap(
  windows: readonly HistoryWindow[],
  grid: FloorGrid,
  floorId: number,
  playheadMs: number,
  windowMs = HEAT_WINDOW_MS,
): HeatmapCells {
  const { columns, rows } = grid;
  const seconds = new Float64Array(columns * rows);
  let maxSeconds = 0;
  for (const { window, start, end } of slicesBetween(windows, playheadMs - windowMs, playheadMs)) {
    const { lat, long } = window.payload;
    for (let i = start; i < end; i++) {
      const cell = grid.cellOf({ lat: lat[i], long: long[i] });
      if (!cell) continue;
      const slot = cell.y * columns + cell.x;
      seconds[slot] += POSITION_SAMPLE_SECONDS;
      if (seconds[slot] > maxSeconds) maxSeconds = seconds[slot];
    }
  }
  return { floorId, grid, columns, rows, seconds, maxSeconds };
}
