// Ingest throughput and live latency: N helmets publishing at H Hz through a real MQTT broker
// into the database, with a socket.io client of the live channel receiving what was committed.
// Beside it, in the same run, the same number of rows written by a bare multi-row INSERT.
// Usage: npx tsx bench/ingest.bench.ts [--helmets 10000] [--hz 1] [--seconds 30]
//          [--batch 1000] [--pg postgres://…/admin-db] [--mqtt mqtt://127.0.0.1:1883]
import { performance } from 'node:perf_hooks';
import { like, sql } from 'drizzle-orm';
import { ensurePositionPartitions } from '../server/analytics/positionPartitions';
import { inventoryItems } from '../server/db/schema';
import { startLoadGenerator } from '../server/simulator/loadGenerator';
import { LIVE_EVENTS, type LocationUpdate } from '../src/domain/live';
import { cornersOf, openDemoSite, option, startBenchServer } from './benchServer';
import { machine } from './measure';

const helmetCount = Number(option('helmets') ?? 10_000);
const hz = Number(option('hz') ?? 1);
const seconds = Number(option('seconds') ?? 30);
const adminUrl = option('pg');
const externalBroker = option('mqtt');
const batchSize = Number(option('batch') ?? 1000);

const { database, db, siteId, floorRows, dispose } = await openDemoSite(adminUrl);
const tags = Array.from({ length: helmetCount }, (_, i) => `BENCH-${String(i + 1).padStart(5, '0')}`);
for (let start = 0; start < tags.length; start += 2000) {
  const values = tags.slice(start, start + 2000).map((tag) => sql`(${siteId}, ${tag}, 'helmet')`);
  await db.execute(
    sql`insert into inventory_items (site_id, wnt_inventory_id, type) values ${sql.join(values, sql`, `)}`,
  );
}
const helmets = tags.map((tag, i) => {
  const floor = floorRows[i % floorRows.length];
  return { tag, floorId: floor.id, corners: cornersOf(floor) };
});

// One site-wide client of the live channel: publish → commit → fan-out → socket.
const server = await startBenchServer({
  db,
  siteId,
  externalBroker,
  email: 'super-admin@demo.sitewatch.dev',
  publishTo: (live) => live.hub,
});
const { topicRoot, liveData, socket, deviceLogin } = server;
const latencies: number[] = [];
let delivered = 0;
socket.on(LIVE_EVENTS.locationUpdate, (update: LocationUpdate) => {
  const now = Date.now();
  for (const worker of update.workers) {
    if (!worker.last_seen) continue;
    delivered++;
    latencies.push(now - Date.parse(worker.last_seen));
  }
});

const load = await startLoadGenerator({
  brokerUrl: liveData.brokerUrl,
  login: deviceLogin,
  topicRoot,
  siteId,
  helmets,
  hz,
  batchSize,
});
const startedAt = performance.now();
const acceptedAtStart = liveData.ingest.stats().accepted;
await new Promise((r) => setTimeout(r, seconds * 1000));
const published = load.stats();
await load.close();
const publishedSeconds = (performance.now() - startedAt) / 1000;
// Let the ingest drain what the broker still holds.
const drainStarted = performance.now();
while (
  liveData.ingest.stats().accepted - acceptedAtStart < published.published &&
  performance.now() - drainStarted < 60_000
)
  await new Promise((r) => setTimeout(r, 100));
const drainSeconds = (performance.now() - drainStarted) / 1000;
await new Promise((r) => setTimeout(r, 500));
const ingested = liveData.ingest.stats().accepted - acceptedAtStart;
const totalSeconds = (performance.now() - startedAt) / 1000;

// Baseline: the same rows by a bare multi-row INSERT, 1,000 rows a statement.
const [{ firstItem }] = await db
  .select({ firstItem: sql<number>`min(${inventoryItems.id})` })
  .from(inventoryItems)
  .where(like(inventoryItems.wntInventoryId, 'BENCH-%'));
const baselineRows = Math.min(published.published, 100_000);
const baseTs = Date.parse('2020-01-01T00:00:00Z');
// positions is partitioned by day: the baseline's day needs its partition (the ingest makes its own).
await ensurePositionPartitions(db, [baseTs]);
const baselineStarted = performance.now();
for (let start = 0; start < baselineRows; start += 1000) {
  const values = [];
  for (let i = start; i < Math.min(baselineRows, start + 1000); i++) {
    const item = firstItem + (i % helmetCount);
    const ts = new Date(baseTs + Math.floor(i / helmetCount) * 1000).toISOString();
    values.push(sql`(${siteId}, ${item}, ${floorRows[0].id}, 25.2, 55.3, true, true, ${ts})`);
  }
  await db.execute(
    sql`insert into positions (site_id, inventory_item_id, floor_id, lat, long, is_online, is_active, ts)
        values ${sql.join(values, sql`, `)} on conflict do nothing`,
  );
}
const baselineSeconds = (performance.now() - baselineStarted) / 1000;

latencies.sort((a, b) => a - b);
const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? null;
console.log(
  JSON.stringify(
    {
      benchmark: 'ingest',
      database: database.driver,
      broker: externalBroker ? 'external' : 'embedded (aedes)',
      machine: machine(),
      helmets: helmetCount,
      hz,
      positionsPerMessage: batchSize,
      offeredPerSecond: helmetCount * hz,
      seconds,
      published: published.published,
      skippedByGateways: published.skipped,
      ingested,
      rejected: liveData.ingest.stats().rejected,
      publishedPerSecond: Math.round(published.published / publishedSeconds),
      sustainedIngestPerSecond: Math.round(ingested / totalSeconds),
      drainSeconds: Number(drainSeconds.toFixed(2)),
      deliveredToSocket: delivered,
      publishToSocketMs: { p50: at(0.5), p95: at(0.95), p99: at(0.99) },
      baseline: {
        what: 'bare multi-row INSERT into positions, 1,000 rows a statement',
        rows: baselineRows,
        rowsPerSecond: Math.round(baselineRows / baselineSeconds),
      },
    },
    null,
    2,
  ),
);

await server.close();
await dispose();
process.exit(0);
