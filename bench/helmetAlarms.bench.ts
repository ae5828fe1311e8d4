// Alarm commands to 10,000 helmets: sendEvacuationAlarms (one INSERT of the 10,000 evacuation_alarms
// rows, then one QoS 1 command per helmet on the ingest's own MQTT connection, all in flight) timed
// until every command is acknowledged by the broker and until a device of the site, logged in with
// its device token and subscribed to the site's commands, has received all of them. Baseline in the
// same run: a bare MQTT.js client publishing the same 10,000 messages with QoS 1, all in flight,
// without the database. Rounds alternate.
// The broker is a scratch Mosquitto with the generated configuration (`npm run mosquitto:config`:
// logins, ACL, max_queued_messages raised; the stock default of 1,000 queued messages per client
// would drop most of a 10,000-command burst to one gateway), or the embedded broker as `npm start`.
// Usage: npx tsx bench/helmetAlarms.bench.ts [--helmets 10000] [--rounds 5] [--pg postgres://…/admin-db]
//          [--broker mosquitto|embedded]
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { and, eq, sql } from 'drizzle-orm';
import { connectAsync, type MqttClient } from 'mqtt';
import { writeMosquittoConfig } from '../scripts/mosquitto-config';
import { hashToken } from '../server/auth/tokens';
import { deviceTokens, evacuationSessions, inventoryItems } from '../server/db/schema';
import { type MqttIngest, startMqttIngest } from '../server/ingest/mqttIngest';
import { authenticateDevice } from '../server/mqtt/deviceCredentials';
import { createDeviceSessions } from '../server/mqtt/deviceSessions';
import { type EmbeddedBroker, startEmbeddedBroker } from '../server/mqtt/embeddedBroker';
import { mosquittoPasswordHash } from '../server/mqtt/mosquittoPassword';
import { commandTopic } from '../server/mqtt/topicAccess';
import { type AlarmedHelmet, sendEvacuationAlarms } from '../server/safety/helmetAlarms';
import { alarmCommands } from '../src/domain/helmetCommands';
import {
  handOverToMosquittoUser,
  type MosquittoProcess,
  startMosquitto,
} from '../tests/server/helpers/mosquittoProcess';
import { freePort } from '../tests/server/helpers/serverProcess';
import { openDemoSite, option } from './benchServer';
import { machine } from './measure';
import { addBenchWorkers } from './onlineHelmets';

const helmetCount = Number(option('helmets') ?? 10_000);
const rounds = Number(option('rounds') ?? 5);
const adminUrl = option('pg');
const brokerKind = option('broker') ?? 'mosquitto';
const BUDGET_MS = 1000;
/** A round that has not received everything by then has lost messages: stop instead of hanging. */
const ROUND_TIMEOUT_MS = 30_000;
const quietLogger = { info() {}, warn() {}, error() {} };
const INGEST = { username: 'sitewatch-ingest', password: randomBytes(18).toString('base64url') };

const { database, db, siteId, floorRows, dispose } = await openDemoSite(adminUrl);

// Workers wearing helmets, up to `helmetCount` beside the demo's.
await addBenchWorkers(db, siteId, helmetCount, 'ALARM-');
const helmets: AlarmedHelmet[] = (
  await db
    .select({
      inventoryItemId: inventoryItems.id,
      workerId: inventoryItems.workerId,
      tag: inventoryItems.wntInventoryId,
    })
    .from(inventoryItems)
    .where(and(eq(inventoryItems.siteId, siteId), sql`${inventoryItems.wntInventoryId} like 'ALARM-%'`))
).slice(0, helmetCount);
const sessionId = randomUUID();
await db.insert(evacuationSessions).values({
  id: sessionId,
  siteId,
  startedAt: new Date(),
  floorIds: floorRows.map((f) => f.id),
  zoneIds: [],
  assemblyZoneIds: [],
  evacuationFloorIds: floorRows.map((f) => f.id),
});

// The site's gateway: a device token, known to Mosquitto through the generated password file.
const gatewayToken = randomBytes(32).toString('base64url');
const [gatewayRow] = await db
  .insert(deviceTokens)
  .values({
    siteId,
    tokenHash: hashToken(gatewayToken),
    brokerPasswordHash: mosquittoPasswordHash(gatewayToken),
    label: 'bench gateway',
  })
  .returning();
const gatewayLogin = { username: String(gatewayRow.id), password: gatewayToken };

const topicRoot = `sw-bench-${randomBytes(3).toString('hex')}`;
const topic = commandTopic(siteId, topicRoot);
let embedded: EmbeddedBroker | null = null;
let mosquitto: { process: MosquittoProcess; dir: string } | null = null;
let ingest: MqttIngest | null = null;
let publishCommand: (siteId: number, command: unknown) => Promise<void>;
let brokerUrl: string;
let internalLogin: { username: string; password: string };
if (brokerKind === 'mosquitto') {
  const dir = mkdtempSync(join(tmpdir(), 'sw-bench-alarms-'));
  const port = await freePort();
  const config = await writeMosquittoConfig(db, {
    outDir: dir,
    topicRoot,
    ingest: INGEST,
    listener: { host: '127.0.0.1', port },
  });
  handOverToMosquittoUser(dir);
  mosquitto = { process: await startMosquitto(config.confPath), dir };
  brokerUrl = `mqtt://127.0.0.1:${port}`;
  internalLogin = INGEST;
  // The server's path with MQTT_URL: commands go out on the ingest's own connection.
  ingest = await startMqttIngest({
    db,
    config: {
      mqttTopicRoot: topicRoot,
      mqttClientId: `${topicRoot}-ingest`,
      mqttUsername: INGEST.username,
      mqttPassword: INGEST.password,
    },
    brokerUrl,
    logger: quietLogger,
    sharedSubscription: true,
  });
  const connection = ingest;
  publishCommand = (site, command) =>
    connection.publish(commandTopic(site, topicRoot), JSON.stringify(command));
} else {
  // The server's path without MQTT_URL: the embedded broker publishes in-process.
  internalLogin = { username: 'sitewatch-internal-bench', password: randomBytes(16).toString('hex') };
  embedded = await startEmbeddedBroker({
    port: 0,
    topicRoot,
    sessions: createDeviceSessions(),
    authenticateDevice: (username, password) => authenticateDevice(db, username, password),
    internal: internalLogin,
  });
  const broker = embedded;
  brokerUrl = broker.url;
  publishCommand = (site, command) => broker.publish(commandTopic(site, topicRoot), JSON.stringify(command));
}

// The gateway hearing every command of its site (QoS 1), as it would to pass them to the helmets.
const device: MqttClient = await connectAsync(brokerUrl, {
  clientId: `${topicRoot}-device`,
  clean: true,
  ...gatewayLogin,
});
let received = 0;
let allReceived: (() => void) | null = null;
device.on('message', () => {
  received += 1;
  if (received === helmets.length) allReceived?.();
});
const granted = await device.subscribeAsync(topic, { qos: 1 });
if (granted[0].qos !== 1) throw new Error(`the broker refused the gateway's subscription to ${topic}`);
const bare: MqttClient = await connectAsync(brokerUrl, { clientId: `${topicRoot}-bare`, ...internalLogin });

interface Round {
  /** Until the call resolved: every command acknowledged by the broker (and, full path, rows stored). */
  sentMs: number;
  /** Until the device had received all of them. */
  receivedMs: number;
}

async function timed(send: () => Promise<void>): Promise<Round> {
  received = 0;
  let timer: NodeJS.Timeout | undefined;
  const arrived = new Promise<void>((resolve, reject) => {
    allReceived = resolve;
    timer = setTimeout(
      () => reject(new Error(`only ${received} of ${helmets.length} commands arrived`)),
      ROUND_TIMEOUT_MS,
    );
  }).finally(() => clearTimeout(timer));
  const started = performance.now();
  await send();
  const sentMs = performance.now() - started;
  await arrived;
  return { sentMs, receivedMs: performance.now() - started };
}

/** The same 10,000 messages from a bare MQTT.js client, all in flight: the broker's own pace. */
const baselineRound = () =>
  timed(async () => {
    const commands = alarmCommands({
      kind: 'evacuate',
      evacuationSessionId: sessionId,
      sentAt: new Date(),
      tags: helmets.map((h) => h.tag),
    });
    await Promise.all(commands.map((c) => bare.publishAsync(topic, JSON.stringify(c), { qos: 1 })));
  });

const fullRound = () =>
  timed(() => sendEvacuationAlarms({ db, publishCommand }, { siteId, sessionId, kind: 'evacuate', helmets }));

/** The database half alone: the rows, with a publish that does nothing. */
async function recordsOnlyRound(): Promise<number> {
  const started = performance.now();
  await sendEvacuationAlarms(
    { db, publishCommand: async () => {} },
    { siteId, sessionId, kind: 'evacuate', helmets },
  );
  return performance.now() - started;
}

await baselineRound(); // warm-up
await fullRound();
const baseline: Round[] = [];
const full: Round[] = [];
const recordsOnly: number[] = [];
for (let round = 0; round < rounds; round++) {
  if (round % 2 === 0) {
    baseline.push(await baselineRound());
    full.push(await fullRound());
  } else {
    full.push(await fullRound());
    baseline.push(await baselineRound());
  }
  recordsOnly.push(await recordsOnlyRound());
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};
const ms = (value: number) => Number(value.toFixed(1));
const summary = (figures: Round[]) => ({
  sentMsMedian: ms(median(figures.map((r) => r.sentMs))),
  receivedMsMedian: ms(median(figures.map((r) => r.receivedMs))),
  receivedMsWorst: ms(Math.max(...figures.map((r) => r.receivedMs))),
  rounds: figures.map((r) => ({ sentMs: ms(r.sentMs), receivedMs: ms(r.receivedMs) })),
});
const fullSummary = summary(full);
console.log(
  JSON.stringify(
    {
      benchmark: 'helmetAlarms',
      database: database.driver,
      broker:
        brokerKind === 'mosquitto'
          ? 'Mosquitto (/usr/sbin/mosquitto), generated mosquitto.conf'
          : 'embedded aedes, in-process publish',
      machine: machine(),
      helmets: helmets.length,
      qos: 1,
      rounds,
      baselineBareMqttJs: summary(baseline),
      sendEvacuationAlarms: fullSummary,
      recordsOnlyMsMedian: ms(median(recordsOnly)),
      goal: `all ${helmets.length} commands received in <= ${BUDGET_MS} ms`,
      met: fullSummary.receivedMsWorst <= BUDGET_MS,
    },
    null,
    2,
  ),
);

await bare.endAsync();
await device.endAsync();
await ingest?.close();
await embedded?.close();
if (mosquitto) {
  await mosquitto.process.stop();
  rmSync(mosquitto.dir, { recursive: true, force: true });
}
await dispose();
