// Daily attendance report over a month (issue: daily attendance): N workers × D days, each on
// site M minutes a day, the report computed from the minute rollups (what the route reads) beside
// the same report from the raw positions reduced to the same minute buckets, in the same run; the
// two answers must be equal. Positions are written every P seconds (not 1 Hz) so the baseline
// fits a scratch PGlite: the raw path's cost grows with positions, so the ratio is a lower bound.
// Usage: npx tsx bench/attendance.bench.ts [--workers 2000] [--days 30] [--minutes 60] [--every 20] [--pg URL]
import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import { ensurePositionPartitions } from '../server/analytics/positionPartitions';
import { buildAttendanceReport } from '../server/attendance/attendanceReport';
import { workshiftAssignments, workshifts } from '../server/db/schema';
import { addDays } from '../src/domain/attendance';
import { calendarDateIn } from '../src/domain/calendarDate';
import { siteInstant } from '../src/domain/siteClock';
import { seedWalkers } from './analyticsDay';
import { openDemoSite, option } from './benchServer';
import { machine } from './measure';

const workerCount = Number(option('workers') ?? 2000);
const days = Number(option('days') ?? 30);
const minutesPerDay = Number(option('minutes') ?? 60);
const every = Number(option('every') ?? 20);
const adminUrl = option('pg') ?? process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
const log = (text: string) => process.stderr.write(`${text}\n`);

const site = await openDemoSite(adminUrl);
const { db, siteId } = site;
const floorId = site.floorRows[0]?.id ?? 0;
const timeZone = 'Asia/Dubai';
const to = addDays(calendarDateIn(timeZone), -1);
const from = addDays(to, 1 - days);

const helmets = await seedWalkers(db, siteId, workerCount);
const [shift] = await db
  .insert(workshifts)
  .values({
    siteId,
    name: 'Bench day',
    startTime: '08:00',
    endTime: '17:00',
    breaks: [{ start: '12:00', end: '12:30' }],
  })
  .returning();
for (let i = 0; i < helmets.length; i += 1000) {
  await db
    .insert(workshiftAssignments)
    .values(
      helmets
        .slice(i, i + 1000)
        .map((h) => ({ workshiftId: shift.id, workerId: h.workerId, assignedAt: from })),
    );
}
const workerIds = sql.join(
  helmets.map((h) => sql`${h.workerId}`),
  sql`, `,
);

let t0 = performance.now();
let positions = 0;
for (let d = 0; d < days; d++) {
  const day = addDays(from, d);
  // Each worker arrives at 07:50 plus its id mod 30 minutes (some late), with a gap each hour.
  const startMs = siteInstant(day, 7 * 3600 + 50 * 60, timeZone);
  const start = sql`${new Date(startMs).toISOString()}::timestamptz`;
  await ensurePositionPartitions(db, [startMs, startMs + 12 * 3_600_000]);
  await db.execute(sql`
    insert into presence_minutes (site_id, worker_id, floor_id, zone_id, bucket, seconds)
    select ${siteId}, w, ${floorId}, null, ${start} + ((w % 30) + m) * interval '1 minute', 60
    from unnest(array[${workerIds}]::int[]) w, generate_series(0, ${minutesPerDay - 1}) m
    where m % 60 <> 59`);
  const result = (await db.execute(sql`
    insert into positions (site_id, inventory_item_id, worker_id, floor_id, lat, long, is_online, is_active, ts)
    select ${siteId}, i.id, i.worker_id, ${floorId}, 25.2, 55.3, true, true,
      ${start} + ((i.worker_id % 30) + m) * interval '1 minute' + s * interval '1 second'
    from inventory_items i, generate_series(0, ${minutesPerDay - 1}) m, generate_series(0, 59, ${every}) s
    where i.site_id = ${siteId} and i.worker_id in (${workerIds}) and m % 60 <> 59`)) as unknown as {
    affectedRows?: number;
    rowCount?: number;
  };
  positions += Number(result.affectedRows ?? result.rowCount ?? 0);
  log(`day ${d + 1}/${days} written`);
}
const writeMs = performance.now() - t0;
await db.execute(sql`analyze`);
const [{ rollups }] = (
  (await db.execute(
    sql`select count(*)::int as rollups from presence_minutes where site_id = ${siteId}`,
  )) as unknown as {
    rows: { rollups: number }[];
  }
).rows;
log(`written in ${Math.round(writeMs / 1000)} s: ${rollups} rollup rows, ${positions} positions`);

const request = (source: 'rollups' | 'positions') =>
  buildAttendanceReport(db, {
    site: { id: siteId, timezone: timeZone },
    from,
    to,
    filters: {},
    scope: null,
    offlineAfterSeconds: 60,
    nowMs: Date.now(),
    source,
  });

async function timed(source: 'rollups' | 'positions', runs: number) {
  const ms: number[] = [];
  let report = await request(source); // warm-up
  for (let run = 0; run < runs; run++) {
    t0 = performance.now();
    report = await request(source);
    ms.push(performance.now() - t0);
  }
  ms.sort((a, b) => a - b);
  return { report, medianMs: ms[Math.floor(ms.length / 2)] ?? 0, ms };
}

const fromRollups = await timed('rollups', 3);
const fromPositions = await timed('positions', 3);
const same = JSON.stringify(fromRollups.report.rows) === JSON.stringify(fromPositions.report.rows);
const benchWorkers = new Set(helmets.map((h) => h.workerId));
const benchRows = fromRollups.report.rows.filter((r) => benchWorkers.has(r.worker_id));
console.log(
  JSON.stringify(
    {
      bench: 'attendance',
      machine: machine(),
      workers: workerCount,
      days,
      minutesPerDay,
      positionEverySeconds: every,
      rollupRows: rollups,
      positions,
      reportRows: fromRollups.report.rows.length,
      presentWorkerDays: benchRows.filter((r) => r.status === 'present').length,
      lateWorkerDays: benchRows.filter((r) => r.late).length,
      sameAnswer: same,
      fromRollupsMs: Math.round(fromRollups.medianMs),
      fromPositionsMs: Math.round(fromPositions.medianMs),
      ratio: Math.round((fromPositions.medianMs / fromRollups.medianMs) * 100) / 100,
      runsMs: { rollups: fromRollups.ms.map(Math.round), positions: fromPositions.ms.map(Math.round) },
    },
    null,
    2,
  ),
);
await site.dispose();
process.exit(same ? 0 : 1);
