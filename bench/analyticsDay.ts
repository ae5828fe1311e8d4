// Bench data for the analytics fast paths (heatmap.bench.ts, playbackSeek.bench.ts): N workers
// with helmets walking a floor at 1 Hz, written straight into `positions` by SQL (generate_series,
// no round trip per row), and the rollups the ingest would write for them, computed by the
// ingest's own rollupsOf/addRollups from the stored rows.
import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import { ensurePositionPartitions } from '../server/analytics/positionPartitions';
import { addRollups, rollupsOf, type StoredPosition } from '../server/analytics/rollupWriter';
import type { Db } from '../server/db/database';
import { floorGrid } from '../src/domain/geo';
import { cornersOf, type FloorRow } from './benchServer';

export interface BenchHelmet {
  id: number;
  workerId: number;
}

type Rows<T> = { rows: T[] };

/** `count` workers of the site, each wearing a new helmet. */
export async function seedWalkers(db: Db, siteId: number, count: number): Promise<BenchHelmet[]> {
  for (let start = 0; start < count; start += 1000) {
    const size = Math.min(1000, count - start);
    await db.execute(sql`
      with new_workers as (
        insert into workers (site_id, name, worker_tag_id)
        select ${siteId}, 'Walker ' || g, 'WK-' || g from generate_series(${start + 1}::int, ${start + size}::int) g
        returning id, worker_tag_id
      )
      insert into inventory_items (site_id, wnt_inventory_id, type, worker_id)
      select ${siteId}, 'WALK-' || substr(worker_tag_id, 4), 'helmet', id from new_workers`);
  }
  const result = (await db.execute(sql`
    select i.id, i.worker_id from inventory_items i
    where i.site_id = ${siteId} and i.wnt_inventory_id like 'WALK-%' order by i.id`)) as unknown as Rows<{
    id: number;
    worker_id: number;
  }>;
  return result.rows.map((r) => ({ id: Number(r.id), workerId: Number(r.worker_id) }));
}

/**
 * Positions of every walker for `seconds` seconds from `startMs`, one a second, written a
 * `sliceSeconds` slice at a time. Each walker circles the floor on its own slow Lissajous path
 * (corner a + u·(b − a) + v·(d − a)), so cells fill unevenly as on a site.
 */
export async function writeWalks(
  db: Db,
  options: {
    siteId: number;
    floor: FloorRow;
    helmets: readonly BenchHelmet[];
    startMs: number;
    seconds: number;
    sliceSeconds?: number;
    /** Stops early (returns the seconds written) once this many ms have passed. */
    budgetMs?: number;
    onSlice?: (secondsWritten: number) => void;
  },
): Promise<number> {
  const { floor, siteId, startMs, seconds } = options;
  const slice = options.sliceSeconds ?? 600;
  const ids = options.helmets.map((h) => h.id);
  const started = performance.now();
  const days = new Set<number>();
  for (let s = 0; s <= seconds; s += 3600) days.add(startMs + s * 1000);
  await ensurePositionPartitions(db, [...days, startMs + seconds * 1000 - 1]);
  let written = 0;
  while (written < seconds) {
    const upTo = Math.min(seconds, written + slice);
    await db.execute(sql`
      insert into positions (site_id, inventory_item_id, worker_id, floor_id, zone_id, lat, long, is_online, is_active, ts)
      select ${siteId}, h.id, h.worker_id, ${floor.id}, null,
        ${floor.aLat} + w.u * (${floor.bLat - floor.aLat}) + w.v * (${floor.dLat - floor.aLat}),
        ${floor.aLong} + w.u * (${floor.bLong - floor.aLong}) + w.v * (${floor.dLong - floor.aLong}),
        true, (s % 7) <> 0,
        ${new Date(startMs).toISOString()}::timestamptz + s * interval '1 second'
      from inventory_items h
      cross join generate_series(${written}::int, ${upTo - 1}::int) s
      cross join lateral (select
        0.5 + 0.45 * sin(h.id * 1.37 + s / (40.0 + h.id % 53)) as u,
        0.5 + 0.45 * cos(h.id * 0.71 + s / (55.0 + h.id % 37)) as v) w
      where h.id = any(${sql.param(ids)}::int[])`);
    written = upTo;
    options.onSlice?.(written);
    if (options.budgetMs !== undefined && performance.now() - started > options.budgetMs) break;
  }
  return written;
}

/**
 * The rollups of the floor's positions in [startMs, startMs + seconds·1000), a minute at a time,
 * computed and written by the ingest's own code (server/analytics/rollupWriter.ts) from the
 * stored rows: exactly what the ingest would have written for them.
 */
export async function writeRollups(
  db: Db,
  options: { siteId: number; floor: FloorRow; startMs: number; seconds: number },
): Promise<void> {
  const grid = floorGrid(cornersOf(options.floor), options.floor.cellSizeMetres);
  for (let minute = 0; minute * 60 < options.seconds; minute++) {
    const from = options.startMs + minute * 60_000;
    const result = (await db.execute(sql`
      select p.worker_id, p.zone_id, p.lat, p.long, date_part('epoch', p.ts) as s from positions p
      where p.floor_id = ${options.floor.id}
        and p.ts >= ${new Date(from).toISOString()}::timestamptz
        and p.ts < ${new Date(from + 60_000).toISOString()}::timestamptz`)) as unknown as Rows<{
      worker_id: number | null;
      zone_id: number | null;
      lat: number;
      long: number;
      s: number;
    }>;
    const stored: StoredPosition[] = result.rows.map((r) => ({
      siteId: options.siteId,
      workerId: r.worker_id === null ? null : Number(r.worker_id),
      floorId: options.floor.id,
      zoneId: r.zone_id === null ? null : Number(r.zone_id),
      lat: Number(r.lat),
      long: Number(r.long),
      ms: Math.round(Number(r.s) * 1e6) / 1000,
    }));
    await addRollups(
      db,
      rollupsOf(stored, (_, lat, long) => grid.cellOf({ lat, long })),
    );
  }
}
