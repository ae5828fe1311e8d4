// node-information at a past time (issue "Maintenance kit and nodes" benchmark): 2,000 anchors and
// sinks on one floor, each reporting every 15 min for 30 days (5.76 M reports in 30 daily
// partitions, each with three neighbours), written by SQL (generate_series). Times the floor's
// nodes as they were 15 days ago beside the same query for "now" (the baseline), the query alone
// and through the route (GET /api/floors/{id}/node-information), prints both plans' partition
// use, and the site list (GET /api/sites/{id}/nodes: health and 3-day battery forecasts) once.
// Goal: the past no slower than about 1.5× now.
// Usage: npx tsx bench/nodeInformation.bench.ts [--nodes 2000] [--days 30] [--every-minutes 15]
//          [--runs 15] [--pg postgres://…/admin-db]
// Without --pg it runs on BENCH_DATABASE_URL or TEST_DATABASE_URL when set, else on PGlite
// (there, pass fewer nodes or days: PGlite writes ~10× slower).
import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import { DAY_MS, ensurePositionPartitions, partitionName } from '../server/analytics/positionPartitions';
import { buildApp } from '../server/app';
import { loadConfig } from '../server/config';
import { nodesAt, nodesAtStatement } from '../server/nodes/nodeQueries';
import { openDemoSite, option } from './benchServer';
import { machine } from './measure';

const nodeCount = Number(option('nodes') ?? 2000);
const days = Number(option('days') ?? 30);
const everyMinutes = Number(option('every-minutes') ?? 15);
const runs = Number(option('runs') ?? 15);
const adminUrl = option('pg') ?? process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;

const log = (text: string) => process.stderr.write(`${text}\n`);
const site = await openDemoSite(adminUrl);

/** Seeds, measures and prints; the scratch database is dropped whatever happens. */
async function run(): Promise<void> {
  const { db, siteId } = site;
  const floor = site.floorRows[0];
  const nowMs = Date.now();
  const pastMs = nowMs - 15 * DAY_MS;
  const firstDayMs = Math.floor(nowMs / DAY_MS) * DAY_MS - (days - 1) * DAY_MS;

  let t0 = performance.now();
  await db.execute(sql`
    insert into inventory_items (site_id, wnt_inventory_id, type, floor_id, lat, long, is_approved)
    select ${siteId}, 'BN-' || lpad(k::text, 5, '0'), case when k % 20 = 0 then 'sink' else 'anchor' end,
      ${floor.id}, ${floor.aLat} + (k % 50) * 0.00001, ${floor.aLong} + (k / 50) * 0.00001, true
    from generate_series(1, ${nodeCount}::int) k`);
  // Each node's constants once: its key ordinal, the second of each period it reports at, and three
  // neighbours (the next node, the one 49 on, and one 50 back).
  await db.execute(sql`
    create table bench_nodes as
    select i.id, i.floor_id, i.wnt_inventory_id as node_id, i.type, i.lat, i.long, k.k,
      (k.k * 7) % ${everyMinutes * 60} as phase_s,
      jsonb_build_array(
        jsonb_build_object('nodeId', 'BN-' || lpad((k.k % ${nodeCount} + 1)::text, 5, '0'), 'linkQuality', 40 + k.k % 60),
        jsonb_build_object('nodeId', 'BN-' || lpad(((k.k + 49) % ${nodeCount} + 1)::text, 5, '0'), 'linkQuality', 30 + k.k % 70),
        jsonb_build_object('nodeId', 'BN-' || lpad(((k.k + ${nodeCount - 51}) % ${nodeCount} + 1)::text, 5, '0'), 'linkQuality', 20 + k.k % 80, 'rssi', -70)
      ) as neighbors
    from inventory_items i cross join lateral (select substr(i.wnt_inventory_id, 4)::int as k) k
    where i.site_id = ${siteId} and i.wnt_inventory_id like 'BN-%'`);

  /**
   * One day's reports, loaded into a table of their own and then attached as the day's partition
   * (named as the server names it): the indexes are built once, sorted, not row by row. A check
   * constraint of the day's bounds spares the attach its scan.
   */
  async function seedDay(dayMs: number): Promise<number> {
    const name = partitionName(dayMs, 'node_diagnostics');
    const from = new Date(dayMs).toISOString();
    const to = new Date(dayMs + DAY_MS).toISOString();
    const endMs = Math.min(dayMs + DAY_MS, nowMs);
    const periods = Math.ceil(DAY_MS / (everyMinutes * 60_000));
    await db.execute(sql.raw(`create table "${name}" (like node_diagnostics including defaults)`));
    await db.execute(
      sql.raw(`alter table "${name}" add constraint "${name}_day" check (ts >= '${from}' and ts < '${to}')`),
    );
    const result = await db.execute(sql`
      insert into ${sql.raw(`"${name}"`)} (site_id, inventory_item_id, floor_id, node_id, type, buffer_usage,
        link_quality, battery_voltage, displacement_error, lat, long, neighbors, ts)
      select ${siteId}, n.id, n.floor_id, n.node_id, n.type, (n.k * 7 + p) % 50, 40 + (n.k * 13 + p) % 60,
        case when n.type = 'sink' then 5.0 else 3.6 end - (${(dayMs - firstDayMs) / DAY_MS}::float8 + p::float8 / ${periods}) * 0.004,
        case when n.type = 'sink' then null else ((n.k * 31 + p) % 20) / 100.0 end,
        n.lat, n.long, n.neighbors, r.ts
      from bench_nodes n
      cross join generate_series(0, ${periods - 1}::int) p
      cross join lateral (select ${from}::timestamptz + p * ${`${everyMinutes} minutes`}::interval
        + n.phase_s * interval '1 second' as ts) r
      where r.ts < ${new Date(endMs).toISOString()}::timestamptz`);
    await db.execute(
      sql.raw(
        `alter table node_diagnostics attach partition "${name}" for values from ('${from}') to ('${to}')`,
      ),
    );
    return (result as unknown as { rowCount?: number; affectedRows?: number }).rowCount ?? 0;
  }

  // Two days at a time on a server (one per core); PGlite has one connection anyway.
  let reports = 0;
  const seedDays = Array.from({ length: days }, (_, d) => firstDayMs + d * DAY_MS);
  for (let d = 0; d < seedDays.length; d += 2) {
    const counts = await Promise.all(seedDays.slice(d, d + 2).map(seedDay));
    reports += counts.reduce((a, b) => a + b, 0);
    log(`${d + counts.length} days: ${reports} reports (${Math.round((performance.now() - t0) / 1000)} s)`);
  }
  await ensurePositionPartitions(db, [nowMs, nowMs + DAY_MS], 'node_diagnostics');
  await db.execute(sql`drop table bench_nodes`);
  const seedMs = performance.now() - t0;
  t0 = performance.now();
  await db.execute(sql`analyze inventory_items`);
  await db.execute(sql`analyze node_diagnostics`);
  log(`analyzed in ${Math.round(performance.now() - t0)} ms`);

  const scope = { siteId, floorId: floor.id };

  /** Partitions of node_diagnostics in the plan, and those its probes entered. */
  async function planOf(atMs: number) {
    const result = (await db.execute(
      sql`explain (analyze, costs off, timing off, summary off) ${nodesAtStatement(db, scope, atMs)}`,
    )) as unknown as { rows: Record<string, string>[] };
    const lines = result.rows.map((row) => Object.values(row)[0]);
    const scans = lines.filter((line) => / on node_diagnostics_p\d{8}/.test(line));
    log(lines.join('\n'));
    const figures = scans.map((line) => {
      const match = /actual rows=([\d.]+) loops=(\d+)/.exec(line);
      return { rows: match ? Number(match[1]) : 0, loops: match ? Number(match[2]) : 0 };
    });
    return {
      partitionsInPlan: scans.length,
      /** Index probes over all partitions: one per node where the latest report is in the first. */
      probes: figures.reduce((sum, f) => sum + f.loops, 0),
      partitionsWithRows: figures.filter((f) => f.rows > 0).length,
    };
  }

  async function once(task: () => Promise<unknown>): Promise<number> {
    const started = performance.now();
    await task();
    return Number((performance.now() - started).toFixed(1));
  }
  /**
   * The baseline and the case in turns (after a warm-up of each), so that load from elsewhere on
   * the machine falls on both alike.
   */
  async function timedPair(
    baseline: () => Promise<unknown>,
    subject: () => Promise<unknown>,
  ): Promise<[number[], number[]]> {
    for (let i = 0; i < 2; i++) {
      await baseline();
      await subject();
    }
    const a: number[] = [];
    const b: number[] = [];
    for (let i = 0; i < runs; i++) {
      a.push(await once(baseline));
      b.push(await once(subject));
    }
    return [a, b];
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
  const summary = (ms: number[]) => ({ median: median(ms), min: Math.min(...ms), max: Math.max(...ms) });

  const nowRows = await nodesAt(db, scope, nowMs);
  const pastRows = await nodesAt(db, scope, pastMs);
  const withReading = (rows: { s: unknown }[]) => rows.filter((row) => row.s !== null).length;
  if (withReading(nowRows) !== nodeCount || withReading(pastRows) !== nodeCount)
    throw new Error(
      `expected ${nodeCount} nodes with a report, got ${withReading(nowRows)} / ${withReading(pastRows)}`,
    );

  const [queryNow, queryPast] = await timedPair(
    () => nodesAt(db, scope, nowMs),
    () => nodesAt(db, scope, pastMs),
  );

  const app = await buildApp({ db, config: loadConfig({}) });
  const login = await app.inject({
    method: 'POST',
    url: '/api/login',
    payload: { email: 'site-admin@demo.sitewatch.dev', password: 'sitewatch-demo' },
  });
  const token = login.json().data.access_token as string;
  const call = async (url: string) => {
    const reply = await app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });
    if (reply.statusCode !== 200) throw new Error(`${url} answered ${reply.statusCode}`);
    return reply.body.length;
  };
  const routeUrl = `/api/floors/${floor.id}/node-information`;
  const [routeNow, routePast] = await timedPair(
    () => call(routeUrl),
    () => call(`${routeUrl}?timestamp=${new Date(pastMs).toISOString()}`),
  );
  const replyBytes = await call(routeUrl);
  // The site list: the first call reads three days of every node's reports, later ones the hours
  // since (server/nodes/batteryTrends.ts).
  const siteListFirst = await once(() => call(`/api/sites/${siteId}/nodes`));
  const siteListAgain: number[] = [];
  for (let i = 0; i < runs; i++) siteListAgain.push(await once(() => call(`/api/sites/${siteId}/nodes`)));
  await app.close();

  const planNow = await planOf(nowMs);
  const planPast = await planOf(pastMs);

  console.log(
    JSON.stringify(
      {
        bench: 'nodeInformation',
        database: site.database.driver,
        machine: machine(),
        nodes: nodeCount,
        days,
        everyMinutes,
        reports,
        seedSeconds: Math.round(seedMs / 1000),
        queryNowMs: summary(queryNow),
        queryPastMs: summary(queryPast),
        routeNowMs: summary(routeNow),
        routePastMs: summary(routePast),
        replyBytes,
        pastOverNow: {
          query: Number((median(queryPast) / median(queryNow)).toFixed(2)),
          route: Number((median(routePast) / median(routeNow)).toFixed(2)),
        },
        planNow,
        planPast,
        siteListMs: { first: siteListFirst, later: summary(siteListAgain) },
        goal: 'node-information 15 days ago ≤ 1.5× the same for now',
      },
      null,
      2,
    ),
  );
}

try {
  await run();
} finally {
  await site.dispose();
}
