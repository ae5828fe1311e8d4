// Ingest throughput with the analytics rollups written in the same transaction vs without them,
// in the same run: N helmets worn by workers, one batch a second (one position per helmet), the
// batches alternating between the two modes so both see the same table sizes and machine load.
// Goal (issue 16): rollups on ≥ 0.8× the throughput of rollups off.
// Usage: npx tsx bench/ingestRollups.bench.ts [--helmets 1000] [--seconds 60] [--pg postgres://…/admin-db]
//   (--pg, or TEST_DATABASE_URL, adds a run on that PostgreSQL server after the PGlite one)
import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import { writePositions } from '../server/ingest/positionWriter';
import { bucketStart } from '../src/domain/analytics';
import type { PositionMessage } from '../src/domain/live';
import { type FloorRow, openDemoSite, option } from './benchServer';
import { machine } from './measure';

const helmetCount = Number(option('helmets') ?? 1000);
const seconds = Number(option('seconds') ?? 60);
const pgUrl = option('pg') ?? process.env.TEST_DATABASE_URL;

interface ModeResult {
  positions: number;
  seconds: number;
  positionsPerSecond: number;
}

function at(floor: FloorRow, u: number, v: number): { lat: number; long: number } {
  return {
    lat: floor.aLat + u * (floor.bLat - floor.aLat) + v * (floor.dLat - floor.aLat),
    long: floor.aLong + u * (floor.bLong - floor.aLong) + v * (floor.dLong - floor.aLong),
  };
}

async function run(adminUrl: string | undefined) {
  const { database, db, siteId, floorRows, dispose } = await openDemoSite(adminUrl);
  try {
    await db.execute(sql`
      with w as (
        insert into workers (site_id, name)
        select ${siteId}, 'Bench worker ' || g from generate_series(1, ${helmetCount}::int) g
        returning id, name)
      insert into inventory_items (site_id, wnt_inventory_id, type, worker_id, assigned_at)
      select ${siteId}, 'ROLLUP-' || lpad(substr(w.name, 14), 5, '0'), 'helmet', w.id, now() from w`);
    const tags = Array.from({ length: helmetCount }, (_, i) => `ROLLUP-${String(i + 1).padStart(5, '0')}`);
    // Two hours ago, minute-aligned: inside the retention, in today's or yesterday's partition.
    const start = bucketStart(Date.now() - 2 * 3_600_000);
    const batchAt = (second: number): PositionMessage[] =>
      tags.map((tag, i) => {
        const floor = floorRows[i % floorRows.length];
        const u = 0.5 + 0.45 * Math.sin(i * 1.37 + second / (40 + (i % 53)));
        const v = 0.5 + 0.45 * Math.cos(i * 0.71 + second / (55 + (i % 37)));
        return {
          tag,
          ts: new Date(start + second * 1000).toISOString(),
          ...at(floor, u, v),
          floorId: floor.id,
          online: true,
          active: true,
        };
      });
    // Warm-up (caches, partitions, plans), not counted.
    for (let s = 0; s < 4; s++) await writePositions(db, siteId, batchAt(-10 + s), { rollups: s % 2 === 0 });

    const spent = { on: 0, off: 0 };
    let stored = { on: 0, off: 0 };
    for (let s = 0; s < seconds; s++) {
      // Second 2s with rollups, 2s+1 without; which goes first alternates.
      const order: ('on' | 'off')[] = s % 2 === 0 ? ['on', 'off'] : ['off', 'on'];
      for (const mode of order) {
        const batch = batchAt(2 * s + (mode === 'on' ? 0 : 1));
        const began = performance.now();
        const result = await writePositions(db, siteId, batch, { rollups: mode === 'on' });
        spent[mode] += performance.now() - began;
        stored = { ...stored, [mode]: stored[mode] + result.accepted };
      }
    }
    const result = (mode: 'on' | 'off'): ModeResult => ({
      positions: stored[mode],
      seconds: Number((spent[mode] / 1000).toFixed(2)),
      positionsPerSecond: Math.round(stored[mode] / (spent[mode] / 1000)),
    });
    const on = result('on');
    const off = result('off');
    const [rollupRows] = (
      (await db.execute(sql`
        select (select count(*)::int from presence_cell_minutes) as cells,
               (select count(*)::int from presence_minutes) as presence`)) as unknown as {
        rows: { cells: number; presence: number }[];
      }
    ).rows;
    return {
      database: database.driver,
      rollupsOn: on,
      rollupsOff: off,
      ratio: Number((on.positionsPerSecond / off.positionsPerSecond).toFixed(3)),
      rollupRows,
    };
  } finally {
    await dispose();
  }
}

const runs = [await run(undefined)];
if (pgUrl) runs.push(await run(pgUrl));
console.log(
  JSON.stringify(
    {
      benchmark: 'ingestRollups',
      what: 'writePositions, one transaction per batch of one position per helmet, rollups on vs off alternating',
      goal: 'rollups on ≥ 0.8× the throughput of rollups off',
      machine: machine(),
      helmets: helmetCount,
      batchesPerMode: seconds,
      runs,
    },
    null,
    2,
  ),
);

process.exit(0);
