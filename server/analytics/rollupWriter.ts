import { sql } from 'drizzle-orm';
import { bucketStart, POSITION_SAMPLE_SECONDS } from '../../src/domain/analytics';
import type { Executor } from '../db/executor';
import { presenceCellMinutes, presenceMinutes } from '../db/schema';
import { chunks } from '../ingest/chunks';

/**
 * The rollups of stored positions (docs/decisions.md "Analytics storage"): each position counts
 * POSITION_SAMPLE_SECONDS in its floor × grid cell × minute (none when it lies outside the floor)
 * and, when a worker wore the helmet, in its worker × floor × zone-or-null × minute. They are
 * added, never set, so they must only ever be given rows that were just inserted (the ingest's
 * `returning`, the backfill's `delete … returning`): each row is then counted exactly once.
 */

/** A stored position, as much of it as the rollups read. */
export interface StoredPosition {
  siteId: number;
  workerId: number | null;
  floorId: number | null;
  zoneId: number | null;
  lat: number;
  long: number;
  ms: number;
}

/** The grid cell of a point on a floor, or null (outside the floor, unknown floor). */
export type CellLocator = (floorId: number, lat: number, long: number) => { x: number; y: number } | null;

export interface CellRollup {
  siteId: number;
  floorId: number;
  bucket: number;
  cellX: number;
  cellY: number;
  workerSeconds: number;
}

export interface PresenceRollup {
  siteId: number;
  workerId: number;
  floorId: number;
  zoneId: number | null;
  bucket: number;
  seconds: number;
}

export interface Rollups {
  cells: CellRollup[];
  presence: PresenceRollup[];
}

/** Rows per upsert statement (six arrays, whatever the count). */
const ROWS_PER_UPSERT = 5000;

/**
 * The rows summed per key, sorted by key: concurrent writers then lock shared rollup rows in one
 * order (no deadlock), and no statement touches a row twice (ON CONFLICT DO UPDATE forbids it).
 */
export function rollupsOf(rows: readonly StoredPosition[], cellOf: CellLocator): Rollups {
  const cells = new Map<string, CellRollup>();
  const presence = new Map<string, PresenceRollup>();
  for (const row of rows) {
    if (row.floorId === null) continue;
    const bucket = bucketStart(row.ms);
    const cell = cellOf(row.floorId, row.lat, row.long);
    if (cell) {
      const key = `${row.floorId}:${bucket}:${cell.x}:${cell.y}`;
      const found = cells.get(key);
      if (found) found.workerSeconds += POSITION_SAMPLE_SECONDS;
      else
        cells.set(key, {
          siteId: row.siteId,
          floorId: row.floorId,
          bucket,
          cellX: cell.x,
          cellY: cell.y,
          workerSeconds: POSITION_SAMPLE_SECONDS,
        });
    }
    if (row.workerId !== null) {
      const key = `${row.workerId}:${bucket}:${row.floorId}:${row.zoneId ?? ''}`;
      const found = presence.get(key);
      if (found) found.seconds += POSITION_SAMPLE_SECONDS;
      else
        presence.set(key, {
          siteId: row.siteId,
          workerId: row.workerId,
          floorId: row.floorId,
          zoneId: row.zoneId,
          bucket,
          seconds: POSITION_SAMPLE_SECONDS,
        });
    }
  }
  return {
    cells: [...cells.values()].sort(
      (a, b) => a.floorId - b.floorId || a.bucket - b.bucket || a.cellX - b.cellX || a.cellY - b.cellY,
    ),
    presence: [...presence.values()].sort(
      (a, b) =>
        a.workerId - b.workerId ||
        a.bucket - b.bucket ||
        a.floorId - b.floorId ||
        (a.zoneId ?? -1) - (b.zoneId ?? -1),
    ),
  };
}

const iso = (ms: number) => new Date(ms).toISOString();

/** Adds the rollups to their tables (upserts summing), cells first, in the caller's transaction. */
export async function addRollups(tx: Executor, rollups: Rollups): Promise<void> {
  for (const rows of chunks(rollups.cells, ROWS_PER_UPSERT)) {
    await tx.execute(sql`
      insert into ${presenceCellMinutes} (site_id, floor_id, bucket, cell_x, cell_y, worker_seconds)
      select * from unnest(
        ${sql.param(rows.map((r) => r.siteId))}::int[], ${sql.param(rows.map((r) => r.floorId))}::int[],
        ${sql.param(rows.map((r) => iso(r.bucket)))}::timestamptz[], ${sql.param(rows.map((r) => r.cellX))}::int[],
        ${sql.param(rows.map((r) => r.cellY))}::int[], ${sql.param(rows.map((r) => r.workerSeconds))}::int[])
      on conflict (floor_id, bucket, cell_x, cell_y)
      do update set worker_seconds = ${presenceCellMinutes}.worker_seconds + excluded.worker_seconds`);
  }
  for (const rows of chunks(rollups.presence, ROWS_PER_UPSERT)) {
    await tx.execute(sql`
      insert into ${presenceMinutes} (site_id, worker_id, floor_id, zone_id, bucket, seconds)
      select * from unnest(
        ${sql.param(rows.map((r) => r.siteId))}::int[], ${sql.param(rows.map((r) => r.workerId))}::int[],
        ${sql.param(rows.map((r) => r.floorId))}::int[], ${sql.param(rows.map((r) => r.zoneId))}::int[],
        ${sql.param(rows.map((r) => iso(r.bucket)))}::timestamptz[], ${sql.param(rows.map((r) => r.seconds))}::int[])
      on conflict on constraint presence_minutes_key
      do update set seconds = ${presenceMinutes}.seconds + excluded.seconds`);
  }
}
