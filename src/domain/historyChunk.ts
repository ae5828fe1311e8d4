import {
  HISTORY_ACTIVE,
  HISTORY_COORDINATE_UNIT,
  HISTORY_ONLINE,
  type HistoryChunk,
} from './schemas/analytics';

/**
 * The pure encoding of a history chunk (GET /api/floors/{id}/history, src/domain/schemas/analytics.ts):
 * positions in, columns of integers out, and back into typed arrays for the playback stream. The
 * server encodes with it and the console decodes with it, so the two can never disagree.
 */

/** One stored position, as the history route reads it. */
export interface HistoryRow {
  /** Epoch milliseconds (a fraction when the stored time has microseconds; the chunk keeps whole ms). */
  ms: number;
  inventoryItemId: number;
  /** The worker wearing the helmet at that time, if any. */
  workerId: number | null;
  lat: number;
  long: number;
  zoneId: number | null;
  online: boolean;
  active: boolean;
}

export interface HistoryHelmet {
  inventoryItemId: number;
  workerId: number | null;
}

export interface EncodeHistoryOptions {
  floorId: number;
  /** The window as the request named it (ISO texts). */
  from: string;
  to: string;
  /** What lat/long offsets are measured from (the floor's corner a, say). */
  origin: { lat: number; long: number };
  nextCursor: string | null;
}

/** A chunk decoded for playback: one entry per position in every array, in the chunk's order. */
export interface DecodedHistory {
  floorId: number;
  helmets: HistoryHelmet[];
  /** Absolute epoch milliseconds. */
  times: Float64Array;
  /** Index into `helmets`. */
  helmetIndex: Uint32Array;
  lat: Float64Array;
  long: Float64Array;
  /** Zone id, 0 outside every zone. */
  zone: Int32Array;
  /** HISTORY_ONLINE | HISTORY_ACTIVE bits. */
  status: Uint8Array;
  nextCursor: string | null;
}

/**
 * Rows (already in (time, helmet) order) as a chunk. A helmet's entry is the pair (helmet, worker):
 * a helmet handed to another worker inside the window gets a second entry, so every position keeps
 * the worker who wore it.
 */
export function encodeHistoryChunk(rows: readonly HistoryRow[], options: EncodeHistoryOptions): HistoryChunk {
  const count = rows.length;
  const startMs = count > 0 ? Math.floor(rows[0].ms) : Date.parse(options.from);
  const helmets: HistoryHelmet[] = [];
  const helmetAt = new Map<string, number>();
  const t = new Array<number>(count);
  const h = new Array<number>(count);
  const lat = new Array<number>(count);
  const long = new Array<number>(count);
  const zone = new Array<number>(count);
  const status = new Array<number>(count);
  const { lat: originLat, long: originLong } = options.origin;
  for (let i = 0; i < count; i++) {
    const row = rows[i];
    const key = `${row.inventoryItemId}:${row.workerId ?? ''}`;
    let index = helmetAt.get(key);
    if (index === undefined) {
      index = helmets.length;
      helmets.push({ inventoryItemId: row.inventoryItemId, workerId: row.workerId });
      helmetAt.set(key, index);
    }
    t[i] = Math.floor(row.ms) - startMs;
    h[i] = index;
    lat[i] = Math.round((row.lat - originLat) / HISTORY_COORDINATE_UNIT);
    long[i] = Math.round((row.long - originLong) / HISTORY_COORDINATE_UNIT);
    zone[i] = row.zoneId ?? 0;
    status[i] = (row.online ? HISTORY_ONLINE : 0) | (row.active ? HISTORY_ACTIVE : 0);
  }
  return {
    floorId: options.floorId,
    from: options.from,
    to: options.to,
    startMs,
    origin: { lat: originLat, long: originLong },
    helmets,
    t,
    h,
    lat,
    long,
    zone,
    status,
    nextCursor: options.nextCursor,
  };
}

/** A chunk as typed arrays: absolute times, degrees, zone ids and status bits. */
export function decodeHistoryChunk(chunk: HistoryChunk): DecodedHistory {
  const count = chunk.t.length;
  const times = new Float64Array(count);
  const helmetIndex = new Uint32Array(count);
  const lat = new Float64Array(count);
  const long = new Float64Array(count);
  const zone = new Int32Array(count);
  const status = new Uint8Array(count);
  const { startMs } = chunk;
  const { lat: originLat, long: originLong } = chunk.origin;
  for (let i = 0; i < count; i++) {
    times[i] = startMs + chunk.t[i];
    helmetIndex[i] = chunk.h[i];
    lat[i] = originLat + chunk.lat[i] * HISTORY_COORDINATE_UNIT;
    long[i] = originLong + chunk.long[i] * HISTORY_COORDINATE_UNIT;
    zone[i] = chunk.zone[i];
    status[i] = chunk.status[i];
  }
  return {
    floorId: chunk.floorId,
    helmets: chunk.helmets.map((helmet) => ({ ...helmet })),
    times,
    helmetIndex,
    lat,
    long,
    zone,
    status,
    nextCursor: chunk.nextCursor,
  };
}
