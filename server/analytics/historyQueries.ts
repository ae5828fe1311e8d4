import { type SQL, sql } from 'drizzle-orm';
import { ANALYTICS_MESSAGES, HISTORY_CHUNK_POSITIONS } from '../../src/domain/analytics';
import { encodeHistoryChunk, type HistoryRow } from '../../src/domain/historyChunk';
import type { HistoryChunk } from '../../src/domain/schemas/analytics';
import type { Db } from '../db/database';
import { unprocessable } from '../http/errors';
import type { TimeWindow } from './historyWindow';

/**
 * One chunk of a floor's positions in [from, to), in (ts, inventory_item_id) order: the playback
 * and spaghetti views' history. The cursor is where the previous chunk stopped (its last row's
 * time to the microsecond and helmet), so chunks follow each other without a gap or an overlap
 * whatever arrives meanwhile outside the window, and a seek is just a chunk starting at `from`.
 */

/** Where a chunk stops: the last position sent. */
export interface HistoryCursor {
  /** Epoch microseconds of the last position's ts. */
  microseconds: number;
  inventoryItemId: number;
}

const CURSOR_PREFIX = 'h1';
const CURSOR_TEXT = /^h1:(\d{1,17}):(\d{1,10})$/;

/** The cursor as an opaque URL-safe text. */
export function encodeCursor(cursor: HistoryCursor): string {
  return Buffer.from(`${CURSOR_PREFIX}:${cursor.microseconds}:${cursor.inventoryItemId}`).toString(
    'base64url',
  );
}

/** A cursor this server wrote for the same window, or a 422 (never a 500) for anything else. */
export function decodeCursor(text: string, window: TimeWindow): HistoryCursor {
  const match = /^[A-Za-z0-9_-]{1,80}$/.test(text)
    ? CURSOR_TEXT.exec(Buffer.from(text, 'base64url').toString('latin1'))
    : null;
  const microseconds = match ? Number(match[1]) : Number.NaN;
  const inventoryItemId = match ? Number(match[2]) : Number.NaN;
  const inWindow =
    microseconds >= window.from.getTime() * 1000 &&
    microseconds < window.to.getTime() * 1000 &&
    inventoryItemId >= 1 &&
    inventoryItemId <= 2_147_483_647;
  if (!inWindow) throw unprocessable({ cursor: ANALYTICS_MESSAGES.cursorInvalid });
  return { microseconds, inventoryItemId };
}

/** `1,2,3` as worker ids (at most 1,000), or a 422. */
export function parseWorkerIds(text: string | undefined): number[] | undefined {
  if (text === undefined) return undefined;
  const parts = text.split(',').map((part) => part.trim());
  const ids = parts.map(Number);
  const valid =
    parts.length <= 1000 &&
    parts.every((part) => /^\d{1,10}$/.test(part)) &&
    ids.every((id) => id >= 1 && id <= 2_147_483_647);
  if (!valid) throw unprocessable({ workerIds: ANALYTICS_MESSAGES.workerIdsInvalid });
  return [...new Set(ids)];
}

export interface HistoryRequest {
  floor: { id: number; siteId: number; aLat: number; aLong: number };
  window: TimeWindow;
  workerIds?: readonly number[];
  cursor?: HistoryCursor;
  /** Positions per chunk; HISTORY_CHUNK_POSITIONS unless a test asks for fewer. */
  limit?: number;
}

interface PositionRecord {
  s: number;
  i: number;
  w: number | null;
  lat: number;
  long: number;
  z: number | null;
  o: boolean;
  a: boolean;
}

const at = (date: Date) => sql`${date.toISOString()}::timestamptz`;

/** The chunk of positions the request names, encoded (src/domain/historyChunk.ts). */
export async function readHistoryChunk(db: Db, request: HistoryRequest): Promise<HistoryChunk> {
  const { floor, window, workerIds, cursor } = request;
  const limit = request.limit ?? HISTORY_CHUNK_POSITIONS;
  const conditions: SQL[] = [
    sql`p.floor_id = ${floor.id}`,
    sql`p.site_id = ${floor.siteId}`,
    sql`p.ts >= ${at(window.from)}`,
    sql`p.ts < ${at(window.to)}`,
  ];
  if (workerIds) conditions.push(sql`p.worker_id = any(${sql.param(workerIds)}::int[])`);
  if (cursor) {
    const cursorTs = sql`('epoch'::timestamptz + ${String(cursor.microseconds)}::bigint * interval '1 microsecond')`;
    // `ts >= cursor` lets the (floor_id, ts) index start at the cursor; the row comparison alone
    // would scan from `from` and filter, ever slower deeper into the window.
    conditions.push(
      sql`p.ts >= ${cursorTs}`,
      sql`(p.ts, p.inventory_item_id) > (${cursorTs}, ${cursor.inventoryItemId}::int)`,
    );
  }
  const result = (await db.execute(sql`
    select date_part('epoch', p.ts) as s, p.inventory_item_id as i, p.worker_id as w, p.lat, p.long,
      p.zone_id as z, p.is_online as o, p.is_active as a
    from positions p
    where ${sql.join(conditions, sql` and `)}
    order by p.ts, p.inventory_item_id
    limit ${limit + 1}`)) as unknown as { rows: PositionRecord[] };
  const records = result.rows;
  const more = records.length > limit;
  const count = Math.min(records.length, limit);
  const rows = new Array<HistoryRow>(count);
  let lastMicroseconds = 0;
  for (let k = 0; k < count; k++) {
    const record = records[k];
    lastMicroseconds = Math.round(Number(record.s) * 1e6);
    rows[k] = {
      ms: lastMicroseconds / 1000,
      inventoryItemId: Number(record.i),
      workerId: record.w === null ? null : Number(record.w),
      lat: Number(record.lat),
      long: Number(record.long),
      zoneId: record.z === null ? null : Number(record.z),
      online: record.o,
      active: record.a,
    };
  }
  const nextCursor =
    more && count > 0
      ? encodeCursor({ microseconds: lastMicroseconds, inventoryItemId: rows[count - 1].inventoryItemId })
      : null;
  return encodeHistoryChunk(rows, {
    floorId: floor.id,
    from: window.from.toISOString(),
    to: window.to.toISOString(),
    origin: { lat: floor.aLat, long: floor.aLong },
    nextCursor,
  });
}
