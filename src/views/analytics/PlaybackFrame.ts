import { POSITION_SAMPLE_SECONDS } from '../../domain/analytics';
import type { Floor } from '../../domain/floor';
import { type FloorGrid, floorGrid } from '../../domain/geo';
import type { DecodedHistory } from '../../domain/historyChunk';
import type { WorkerOnMap } from '../../domain/inventory';
import { TRACK_GAP_MS, trackSegments } from '../../domain/pathLength';
import { HISTORY_ACTIVE, HISTORY_ONLINE } from '../../domain/schemas/analytics';
import type { EntitySample, SampleSlice, SampleWindow } from '../../streams/playback.stream';
import { slicesBetween } from '../../streams/playbackWindows';
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

/**
 * A frame's trail (its samples behind the playhead, slices in time order) regrouped per helmet,
 * split where the helmet was lost for longer than TRACK_GAP_MS.
 */
export function trailsOf(
  slices: readonly SampleSlice<HistoryPayload>[],
  colourOf: (helmetId: number) => number,
): Trail[] {
  const counts = new Map<number, number>();
  for (const { window, start, end } of slices) {
    for (let i = start; i < end; i++) {
      const helmet = window.entities[i];
      counts.set(helmet, (counts.get(helmet) ?? 0) + 1);
    }
  }
  const columns = new Map<
    number,
    { times: Float64Array; lat: Float64Array; long: Float64Array; n: number }
  >();
  for (const [helmet, n] of counts) {
    columns.set(helmet, {
      times: new Float64Array(n),
      lat: new Float64Array(n),
      long: new Float64Array(n),
      n: 0,
    });
  }
  for (const { window, start, end } of slices) {
    const { lat, long } = window.payload;
    for (let i = start; i < end; i++) {
      const column = columns.get(window.entities[i])!;
      column.times[column.n] = window.times[i];
      column.lat[column.n] = lat[i];
      column.long[column.n] = long[i];
      column.n++;
    }
  }
  const trails: Trail[] = [];
  for (const [helmet, column] of [...columns].sort((a, b) => a[0] - b[0])) {
    trails.push({
      key: `helmet:${helmet}`,
      colour: colourOf(helmet),
      lat: column.lat,
      long: column.long,
      ranges: trackSegments(column.times, TRACK_GAP_MS),
    });
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
