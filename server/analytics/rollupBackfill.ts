import { inArray, sql } from 'drizzle-orm';
import type { Db } from '../db/database';
import type { Executor } from '../db/executor';
import { workers, zones } from '../db/schema';
import { floorGeometryCacheFor } from '../ingest/floorGeometry';
import { addRollups, rollupsOf, type StoredPosition } from './rollupWriter';

/**
 * The rollups of positions stored before migration 0009. That migration leaves the old rows in
 * `positions_rollup_backlog` (they are already copied into the partitioned `positions`); here
 * each transaction deletes a slice of them with `delete … returning` and adds exactly those rows'
 * rollups. A crash rolls both back, a second process running at the same time deletes (and
 * counts) other rows or none, so every migrated position is counted once. The empty backlog is
 * dropped. Positions the ingest stores meanwhile get their rollups from the ingest and are never
 * in the backlog.
 */

export const ROLLUP_BACKLOG = 'positions_rollup_backlog';
const SLICE_ROWS = 20_000;

function codeOf(error: unknown): string | undefined {
  for (let e = error; e && typeof e === 'object'; e = (e as { cause?: unknown }).cause) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') return code;
  }
  return undefined;
}

async function backlogExists(db: Db): Promise<boolean> {
  const result = await db.execute(sql`select to_regclass(${ROLLUP_BACKLOG}) is not null as present`);
  return (result as unknown as { rows: { present: boolean }[] }).rows[0]?.present === true;
}

/** Ids among `ids` that still exist in the table (deleted workers and zones have no rollups). */
async function existing(
  tx: Executor,
  table: typeof workers | typeof zones,
  ids: number[],
): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const rows = await tx.select({ id: table.id }).from(table).where(inArray(table.id, ids));
  return new Set(rows.map((row) => row.id));
}

/** One slice: delete it, add its rollups; answers how many rows it held (0: the backlog is empty). */
async function backfillSlice(db: Db, sliceRows: number): Promise<number> {
  const cache = floorGeometryCacheFor(db);
  return db.transaction(async (tx) => {
    const result = await tx.execute(
      sql.raw(`delete from ${ROLLUP_BACKLOG}
        where ctid = any(array(select ctid from ${ROLLUP_BACKLOG} limit ${Math.floor(sliceRows)}))
        returning site_id as "siteId", worker_id as "workerId", floor_id as "floorId", zone_id as "zoneId",
          lat, long, (extract(epoch from ts) * 1000)::float8 as ms`),
    );
    const rows = (result as unknown as { rows: StoredPosition[] }).rows;
    if (rows.length === 0) return 0;
    const liveWorkers = await existing(tx, workers, [
      ...new Set(rows.flatMap((r) => (r.workerId === null ? [] : [r.workerId]))),
    ]);
    const liveZones = await existing(tx, zones, [
      ...new Set(rows.flatMap((r) => (r.zoneId === null ? [] : [r.zoneId]))),
    ]);
    const floorsBySite = new Map<number, Set<number>>();
    for (const row of rows)
      if (row.floorId !== null)
        floorsBySite.set(row.siteId, (floorsBySite.get(row.siteId) ?? new Set()).add(row.floorId));
    const geometries = new Map<number, Awaited<ReturnType<typeof cache.floorsOfSite>>>();
    for (const [siteId, floorIds] of floorsBySite)
      geometries.set(siteId, await cache.floorsOfSite(tx, siteId, [...floorIds]));
    // A floor, zone or worker deleted since took its rollups with it (on delete cascade): none here.
    const counted = rows.map((row) => {
      const onFloor = row.floorId !== null && geometries.get(row.siteId)?.has(row.floorId) === true;
      const zoneGone = row.zoneId !== null && !liveZones.has(row.zoneId);
      const workerGone = row.workerId !== null && !liveWorkers.has(row.workerId);
      return {
        ...row,
        floorId: onFloor ? row.floorId : null,
        workerId: zoneGone || workerGone ? null : row.workerId,
      };
    });
    await addRollups(
      tx,
      rollupsOf(counted, (floorId, lat, long) => {
        for (const floors of geometries.values()) {
          const floor = floors.get(floorId);
          if (floor) return floor.cellOf(lat, long);
        }
        return null;
      }),
    );
    return rows.length;
  });
}

/** Works the backlog off, slice by slice, until it is empty (then drops it) or `isClosed()`. */
export async function backfillRollups(
  db: Db,
  options: { sliceRows?: number; isClosed?: () => boolean } = {},
): Promise<number> {
  if (!(await backlogExists(db))) return 0;
  let total = 0;
  while (!options.isClosed?.()) {
    let count: number;
    try {
      count = await backfillSlice(db, options.sliceRows ?? SLICE_ROWS);
    } catch (error) {
      // Another process finished and dropped it.
      if (codeOf(error) === '42P01') break;
      throw error;
    }
    if (count === 0) {
      await db.execute(sql.raw(`drop table if exists ${ROLLUP_BACKLOG}`));
      break;
    }
    total += count;
  }
  return total;
}
