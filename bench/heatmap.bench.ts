// Heatmap of one floor (issue 16 benchmark): 1 h × 1,000 workers × 1 Hz = 3.6 M positions. The
// heatmap from the minute rollups (what GET /api/floors/{id}/heatmap reads without a filter)
// beside the same answer computed from the raw positions (the code the route runs with a filter,
// here with none), in the same run; the two answers must be equal. Goal: rollups ≥ 20× faster.
// Usage: npx tsx bench/heatmap.bench.ts [--workers 1000] [--minutes 60] [--pg postgres://…/admin-db]
// Without --pg it runs on BENCH_DATABASE_URL or TEST_DATABASE_URL when set, else on PGlite.
import { performance } from 'node:perf_hooks';
import {
  type CellSeconds,
  heatmapCellsFromRaw,
  heatmapCellsFromRollups,
} from '../server/analytics/heatmapQueries';
import { buildApp } from '../server/app';
import { loadConfig } from '../server/config';
import { floorGrid } from '../src/domain/geo';
import { seedWalkers, writeRollups, writeWalks } from './analyticsDay';
import { cornersOf, openDemoSite, option } from './benchServer';
import { machine } from './measure';

const workerCount = Number(option('workers') ?? 1000);
const minutes = Number(option('minutes') ?? 60);
const adminUrl = option('pg') ?? process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;

const log = (text: string) => process.stderr.write(`${text}\n`);
const site = await openDemoSite(adminUrl);
const { db, siteId } = site;
const floor = { ...site.floorRows[0], siteId };
const grid = floorGrid(cornersOf(floor), floor.cellSizeMetres);
// Yesterday 08:00 UTC: inside the retention, in a day's partition of its own.
const startMs = Math.floor(Date.now() / 86_400_000) * 86_400_000 - 86_400_000 + 8 * 3_600_000;
const window = { from: new Date(startMs), to: new Date(startMs + minutes * 60_000) };

let t0 = performance.now();
const helmets = await seedWalkers(db, siteId, workerCount);
await writeWalks(db, {
  siteId,
  floor,
  helmets,
  startMs,
  seconds: minutes * 60,
  onSlice: (s) => log(`positions: ${s} s`),
});
const positionsMs = performance.now() - t0;
t0 = performance.now();
await writeRollups(db, { siteId, floor, startMs, seconds: minutes * 60 });
const rollupsMs = performance.now() - t0;
await site.database.db.execute('analyze');
log(`generated in ${Math.round(positionsMs / 1000)} s, rollups in ${Math.round(rollupsMs / 1000)} s`);

async function timed<T>(runs: number, task: () => Promise<T>): Promise<{ result: T; ms: number[] }> {
  await task(); // warm-up
  const ms: number[] = [];
  let result: T | undefined;
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    result = await task();
    ms.push(Number((performance.now() - started).toFixed(1)));
  }
  return { result: result as T, ms };
}
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const total = (cells: CellSeconds) => [...cells.values()].reduce((a, b) => a + b, 0);

const rollup = await timed(9, () => heatmapCellsFromRollups(db, floor, grid, window));
const raw = await timed(3, () => heatmapCellsFromRaw(db, floor, grid, window, {}));
const sameCells =
  rollup.result.size === raw.result.size &&
  [...rollup.result].every(([key, seconds]) => raw.result.get(key) === seconds);
if (!sameCells) throw new Error('the heatmap from rollups differs from the one from raw positions');

// The route itself once more (session, floor check, serialization), rollup path.
const app = await buildApp({ db, config: loadConfig({}) });
const login = await app.inject({
  method: 'POST',
  url: '/api/login',
  payload: { email: 'site-admin@demo.sitewatch.dev', password: 'sitewatch-demo' },
});
const token = login.json().data.access_token as string;
const route = await timed(9, async () => {
  const reply = await app.inject({
    method: 'GET',
    url: `/api/floors/${floor.id}/heatmap?from=${window.from.toISOString()}&to=${window.to.toISOString()}`,
    headers: { authorization: `Bearer ${token}` },
  });
  if (reply.statusCode !== 200) throw new Error(`heatmap answered ${reply.statusCode}`);
  return reply.body.length;
});
await app.close();

console.log(
  JSON.stringify(
    {
      bench: 'heatmap',
      database: site.database.driver,
      machine: machine(),
      workers: workerCount,
      minutes,
      positions: helmets.length * minutes * 60,
      generatedPositionsSeconds: Math.round(positionsMs / 1000),
      rollupWriteSeconds: Math.round(rollupsMs / 1000),
      cells: rollup.result.size,
      gridCells: grid.columns * grid.rows,
      workerSecondsInCells: total(rollup.result),
      answersEqual: sameCells,
      rollupMs: { median: median(rollup.ms), runs: rollup.ms },
      rawMs: { median: median(raw.ms), runs: raw.ms },
      routeRollupMs: { median: median(route.ms), replyBytes: route.result },
      rawOverRollup: Number((median(raw.ms) / median(rollup.ms)).toFixed(1)),
      goal: 'rollups ≥ 20× faster than raw, answers equal',
    },
    null,
    2,
  ),
);
await site.dispose();
