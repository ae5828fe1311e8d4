// Embedded-broker ingest throughput with device authentication and topic ACL on, against the same
// broker with them off (a baseline only this benchmark can start: no configuration reaches it).
// Several gateway clients publish arrays of positions with QoS 1; a PUBACK comes only once the
// array is committed, so positions acknowledged per second are positions into the database.
// Usage: npx tsx bench/ingestAuth.bench.ts [--helmets 2000] [--gateways 4] [--batch 250]
//          [--messages 40] [--rounds 4] [--pg postgres://…/admin-db]
import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import { connectAsync, type MqttClient } from 'mqtt';
import { createMessagePipeline } from '../server/ingest/messagePipeline';
import { authenticateDevice, createDeviceToken } from '../server/mqtt/deviceCredentials';
import { createDeviceSessions } from '../server/mqtt/deviceSessions';
import { startEmbeddedBroker } from '../server/mqtt/embeddedBroker';
import { type PositionMessage, topicFor } from '../src/domain/live';
import { cornersOf, openDemoSite, option } from './benchServer';
import { machine } from './measure';

const helmetCount = Number(option('helmets') ?? 2000);
const gatewayCount = Number(option('gateways') ?? 4);
const batchSize = Number(option('batch') ?? 250);
/** Messages per gateway per round. */
const messagesPerGateway = Number(option('messages') ?? 40);
const rounds = Number(option('rounds') ?? 4);
/** QoS 1 messages a gateway keeps unacknowledged at most, as a real gateway's window. */
const WINDOW = 4;
const CONNECTS = 50;

const { database, db, siteId, floorRows, dispose } = await openDemoSite(option('pg'));
const tags = Array.from({ length: helmetCount }, (_, i) => `AUTHB-${String(i + 1).padStart(5, '0')}`);
for (let start = 0; start < tags.length; start += 2000) {
  const values = tags.slice(start, start + 2000).map((tag) => sql`(${siteId}, ${tag}, 'helmet')`);
  await db.execute(
    sql`insert into inventory_items (site_id, wnt_inventory_id, type) values ${sql.join(values, sql`, `)}`,
  );
}
const places = tags.map((tag, i) => {
  const corners = cornersOf(floorRows[i % floorRows.length]);
  return {
    tag,
    floorId: floorRows[i % floorRows.length].id,
    lat: (corners.a.lat + corners.c.lat) / 2,
    long: (corners.a.long + corners.c.long) / 2,
  };
});
const device = await createDeviceToken(db, { siteId, label: 'Benchmark gateway', createdBy: null });
const login = { username: String(device.row.id), password: device.token };

// Every round's positions are later than the last round's, so none is a duplicate.
let clockSeconds = Date.parse('2024-01-01T00:00:00Z') / 1000;

async function runRound(authentication: boolean) {
  const topicRoot = `sw-authbench-${authentication ? 'on' : 'off'}`;
  const pipeline = createMessagePipeline({ db, topicRoot, logger: { info() {}, warn() {}, error() {} } });
  const broker = await startEmbeddedBroker({
    port: 0,
    topicRoot,
    sessions: createDeviceSessions(),
    authenticateDevice: (username, password) => authenticateDevice(db, username, password),
    ingest: (topic, payload) => pipeline.handle(topic, payload),
    unauthenticatedForBenchmark: !authentication,
  });
  const credentials = authentication ? login : {};
  const connectStarted = performance.now();
  for (let i = 0; i < CONNECTS; i++)
    await (await connectAsync(broker.url, { ...credentials, reconnectPeriod: 0 })).endAsync();
  const connectMs = (performance.now() - connectStarted) / CONNECTS;

  const gateways: MqttClient[] = await Promise.all(
    Array.from({ length: gatewayCount }, () =>
      connectAsync(broker.url, { ...credentials, reconnectPeriod: 0 }),
    ),
  );
  const topic = topicFor(siteId, 'positions', topicRoot);
  const messageOf = (gateway: number, index: number): string => {
    const seconds = clockSeconds + index;
    const ts = new Date(seconds * 1000).toISOString();
    const entries: PositionMessage[] = [];
    for (let k = 0; k < batchSize; k++) {
      const place = places[(gateway * batchSize + k) % places.length];
      entries.push({ ...place, ts, online: true, active: true });
    }
    return JSON.stringify(entries);
  };
  const payloads = gateways.map((_, g) =>
    Array.from({ length: messagesPerGateway }, (_, i) => messageOf(g, i)),
  );
  clockSeconds += messagesPerGateway + 1;

  const acceptedBefore = pipeline.stats().accepted;
  const started = performance.now();
  await Promise.all(
    gateways.map(async (gateway, g) => {
      let next = 0;
      const lane = async () => {
        while (next < messagesPerGateway) {
          const payload = payloads[g][next++];
          await gateway.publishAsync(topic, payload, { qos: 1 });
        }
      };
      await Promise.all(Array.from({ length: WINDOW }, lane));
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const stored = pipeline.stats().accepted - acceptedBefore;
  await Promise.all(gateways.map((gateway) => gateway.endAsync()));
  await pipeline.drain();
  await broker.close();
  return { positionsPerSecond: Math.round(stored / seconds), stored, seconds, connectMs };
}

const results: Record<'on' | 'off', Awaited<ReturnType<typeof runRound>>[]> = { on: [], off: [] };
// Warm-up (JIT, database caches), then rounds in ABBA order: the positions table grows with
// every round, and this order spreads that drift over both modes alike.
await runRound(true);
for (let round = 0; round < rounds; round++) {
  const order = round % 2 === 0 ? [false, true] : [true, false];
  for (const authentication of order)
    results[authentication ? 'on' : 'off'].push(await runRound(authentication));
}
const mean = (values: number[]) => values.reduce((sum, v) => sum + v, 0) / values.length;
// The median: one round disturbed by another process on the machine must not decide the ratio.
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};
const summary = (mode: 'on' | 'off') => ({
  medianPositionsPerSecond: Math.round(median(results[mode].map((r) => r.positionsPerSecond))),
  rounds: results[mode].map((r) => r.positionsPerSecond),
  storedPerRound: results[mode][0]?.stored,
  connectMs: Number(mean(results[mode].map((r) => r.connectMs)).toFixed(2)),
});
const on = summary('on');
const off = summary('off');
console.log(
  JSON.stringify(
    {
      benchmark: 'ingestAuth',
      database: database.driver,
      machine: machine(),
      gateways: gatewayCount,
      positionsPerMessage: batchSize,
      messagesPerGatewayPerRound: messagesPerGateway,
      qos1Window: WINDOW,
      authenticationOn: on,
      baseline: { what: 'the same embedded broker and ingest without authentication or ACL', ...off },
      ratio: Number((on.medianPositionsPerSecond / off.medianPositionsPerSecond).toFixed(3)),
      goal: '>= 0.9',
    },
    null,
    2,
  ),
);
await dispose();
process.exit(0);
