// What Mosquitto's logins and ACL cost the ingest: QoS 1 positions from device gateways through a
// real Mosquitto into the real ingest and database, once with the generated configuration
// (password file + ACL, `npm run mosquitto:config`) and once with the same configuration opened
// up (allow_anonymous true, no password file, no ACL). Rounds alternate so drift hits both.
// Beside each, the same messages to a bare MQTT.js subscriber: the broker's own throughput.
// Usage: npx tsx bench/mosquittoAuth.bench.ts [--messages 400] [--batch 100] [--helmets 2000]
//          [--gateways 4] [--window 16] [--rounds 3] [--pg postgres://…/admin-db]
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import { connectAsync, type IClientOptions, type MqttClient } from 'mqtt';
import { writeMosquittoConfig } from '../scripts/mosquitto-config';
import { hashToken } from '../server/auth/tokens';
import type { Db } from '../server/db/database';
import { deviceTokens } from '../server/db/schema';
import { startMqttIngest } from '../server/ingest/mqttIngest';
import { mosquittoPasswordHash } from '../server/mqtt/mosquittoPassword';
import type { PositionMessage } from '../src/domain/live';
import { handOverToMosquittoUser, startMosquitto } from '../tests/server/helpers/mosquittoProcess';
import { freePort } from '../tests/server/helpers/serverProcess';
import { cornersOf, type FloorRow, openDemoSite, option } from './benchServer';
import { machine } from './measure';

const messageCount = Number(option('messages') ?? 400);
const batchSize = Number(option('batch') ?? 100);
const helmetCount = Number(option('helmets') ?? 2000);
const gatewayCount = Number(option('gateways') ?? 4);
const inFlightPerGateway = Number(option('window') ?? 16);
const rounds = Number(option('rounds') ?? 3);
const adminUrl = option('pg');

type Mode = 'authenticated' | 'open';
const INGEST = { username: 'sitewatch-ingest', password: randomBytes(18).toString('base64url') };
const quietLogger = { info() {}, warn() {}, error() {} };

const { database, db, siteId, floorRows, dispose } = await openDemoSite(adminUrl);
const tags = Array.from({ length: helmetCount }, (_, i) => `MOSQ-${String(i + 1).padStart(5, '0')}`);
for (let start = 0; start < tags.length; start += 2000) {
  const values = tags.slice(start, start + 2000).map((tag) => sql`(${siteId}, ${tag}, 'helmet')`);
  await db.execute(
    sql`insert into inventory_items (site_id, wnt_inventory_id, type) values ${sql.join(values, sql`, `)}`,
  );
}
const device = await issueDeviceToken(db, siteId);

async function issueDeviceToken(database: Db, site: number) {
  const token = randomBytes(32).toString('base64url');
  const [row] = await database
    .insert(deviceTokens)
    .values({
      siteId: site,
      tokenHash: hashToken(token),
      brokerPasswordHash: mosquittoPasswordHash(token),
      label: 'bench gateway',
    })
    .returning();
  return { username: String(row.id), password: token };
}

/** Every message a different slice of helmets and its own millisecond, so none is a duplicate. */
function payloads(floors: FloorRow[]): string[] {
  const base = Date.now() - messageCount - 60_000;
  return Array.from({ length: messageCount }, (_, index) => {
    const ts = new Date(base + index).toISOString();
    const entries: PositionMessage[] = [];
    for (let k = 0; k < batchSize; k++) {
      const helmet = (index * batchSize + k) % helmetCount;
      const floor = floors[helmet % floors.length];
      const { a, c } = cornersOf(floor);
      const u = ((helmet * 7919) % 997) / 997;
      entries.push({
        tag: tags[helmet],
        ts,
        lat: a.lat + (c.lat - a.lat) * (0.05 + 0.9 * u),
        long: a.long + (c.long - a.long) * (0.05 + 0.9 * (1 - u)),
        floorId: floor.id,
        online: true,
        active: true,
      });
    }
    return JSON.stringify(entries);
  });
}

/** Publishes every message with QoS 1 over `gatewayCount` connections, `--window` in flight each. */
async function publishAll(url: string, topic: string, login: IClientOptions, messages: string[]) {
  const gateways: MqttClient[] = await Promise.all(
    Array.from({ length: gatewayCount }, () => connectAsync(url, { ...login, reconnectPeriod: 0 })),
  );
  let next = 0;
  await Promise.all(
    gateways.flatMap((gateway) =>
      Array.from({ length: inFlightPerGateway }, async () => {
        while (next < messages.length) {
          const payload = messages[next++];
          await gateway.publishAsync(topic, payload, { qos: 1 });
        }
      }),
    ),
  );
  await Promise.all(gateways.map((gateway) => gateway.endAsync()));
}

async function startBroker(mode: Mode, topicRoot: string) {
  const dir = mkdtempSync(join(tmpdir(), `sw-bench-mosquitto-${mode}-`));
  const port = await freePort();
  const result = await writeMosquittoConfig(db, {
    outDir: dir,
    topicRoot,
    ingest: INGEST,
    listener: { host: '127.0.0.1', port },
  });
  if (mode === 'open') {
    const conf = readFileSync(result.confPath, 'utf8')
      .replace(/^allow_anonymous false$/m, 'allow_anonymous true')
      .replace(/^(password_file|acl_file) .*$/gm, '');
    writeFileSync(result.confPath, conf);
  }
  handOverToMosquittoUser(dir);
  const broker = await startMosquitto(result.confPath);
  return {
    url: `mqtt://127.0.0.1:${port}`,
    async stop() {
      await broker.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Positions per second from the first publish to the last one committed by the ingest. */
async function intoIngest(mode: Mode, messages: string[]): Promise<number> {
  const topicRoot = `sw-bench-${randomBytes(3).toString('hex')}`;
  const broker = await startBroker(mode, topicRoot);
  const ingest = await startMqttIngest({
    db,
    config: {
      mqttTopicRoot: topicRoot,
      mqttClientId: `${topicRoot}-ingest`,
      mqttUsername: INGEST.username,
      mqttPassword: INGEST.password,
    },
    brokerUrl: broker.url,
    logger: quietLogger,
    sharedSubscription: true,
  });
  try {
    const expected = messages.length * batchSize;
    const before = ingest.stats().accepted;
    const started = performance.now();
    await publishAll(broker.url, `${topicRoot}/${siteId}/positions`, device, messages);
    const deadline = Date.now() + 300_000;
    while (ingest.stats().accepted - before < expected) {
      if (Date.now() > deadline)
        throw new Error(`${mode}: the ingest took ${ingest.stats().accepted - before}`);
      await new Promise((r) => setTimeout(r, 5));
    }
    return expected / ((performance.now() - started) / 1000);
  } finally {
    await ingest.close();
    await broker.stop();
  }
}

/** The same messages to a bare subscriber with the ingest's login: the broker alone. */
async function brokerOnly(mode: Mode, messages: string[]): Promise<number> {
  const topicRoot = `sw-bench-${randomBytes(3).toString('hex')}`;
  const broker = await startBroker(mode, topicRoot);
  const subscriber = await connectAsync(broker.url, { ...INGEST, reconnectPeriod: 0 });
  try {
    let received = 0;
    subscriber.on('message', () => {
      received++;
    });
    await subscriber.subscribeAsync(`$share/sitewatch/${topicRoot}/+/positions`, { qos: 1 });
    const started = performance.now();
    await publishAll(broker.url, `${topicRoot}/${siteId}/positions`, device, messages);
    while (received < messages.length) await new Promise((r) => setTimeout(r, 2));
    return (messages.length * batchSize) / ((performance.now() - started) / 1000);
  } finally {
    await subscriber.endAsync();
    await broker.stop();
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const messages = payloads(floorRows);
/** The broker alone is fast: enough messages that a run lasts long enough to time. */
const brokerMessages = Array.from(
  { length: Math.max(5000, messageCount) },
  (_, i) => messages[i % messages.length],
);
// Warm-up: JIT, prepared statements, the helmets' first positions.
await intoIngest('open', messages.slice(0, Math.min(50, messages.length)));

const figures: Record<Mode, { ingest: number[]; broker: number[] }> = {
  authenticated: { ingest: [], broker: [] },
  open: { ingest: [], broker: [] },
};
for (let round = 0; round < rounds; round++) {
  const order: Mode[] = round % 2 === 0 ? ['authenticated', 'open'] : ['open', 'authenticated'];
  for (const mode of order) {
    // Fresh timestamps each round, so no position repeats one already stored.
    figures[mode].ingest.push(await intoIngest(mode, payloads(floorRows)));
    figures[mode].broker.push(await brokerOnly(mode, brokerMessages));
  }
}

const summary = (mode: Mode) => ({
  positionsPerSecond: Math.round(median(figures[mode].ingest)),
  messagesPerSecond: Math.round(median(figures[mode].ingest) / batchSize),
  rounds: figures[mode].ingest.map(Math.round),
  brokerOnlyPositionsPerSecond: Math.round(median(figures[mode].broker)),
});
const authenticated = summary('authenticated');
const open = summary('open');
const ratio = authenticated.positionsPerSecond / open.positionsPerSecond;
console.log(
  JSON.stringify(
    {
      benchmark: 'mosquittoAuth',
      database: database.driver,
      broker: 'Mosquitto (/usr/sbin/mosquitto), generated mosquitto.conf',
      machine: machine(),
      messages: messageCount,
      brokerOnlyMessages: brokerMessages.length,
      positionsPerMessage: batchSize,
      gateways: gatewayCount,
      inFlightPerGateway,
      qos: 1,
      authenticated,
      open,
      ratio: Number(ratio.toFixed(3)),
      brokerOnlyRatio: Number(
        (authenticated.brokerOnlyPositionsPerSecond / open.brokerOnlyPositionsPerSecond).toFixed(3),
      ),
      goal: 'ratio >= 0.9',
      met: ratio >= 0.9,
    },
    null,
    2,
  ),
);

await dispose();
process.exit(0);
