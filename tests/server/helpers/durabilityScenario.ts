import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import mqtt from 'mqtt';
import { topicFor } from '../../../src/domain/live';
import { startDevicePublishers } from './devicePublishers';
import {
  demoSiteForDevices,
  helmetLastSeen,
  killLoop,
  pause,
  type RestartableServer,
  restartableServer,
} from './killLoop';
import { startScratchMosquitto } from './scratchMosquitto';
import { type ScratchPostgres, startScratchPostgres } from './scratchPostgres';
import { freePort } from './serverProcess';
import {
  countDurability,
  type DurabilityCount,
  positionsInDataDir,
  positionsOnServer,
} from './storedPositions';

export interface DurabilityScenario {
  /** Where devices publish: the server's embedded broker, or a Mosquitto the server subscribes to. */
  broker: 'embedded' | 'mosquitto';
  /** The server's database: embedded in DATA_DIR, on a given PostgreSQL server, or on one this run starts and kills. */
  database: 'embedded' | 'scratch-postgres' | { url: string };
  /** kill -9 of the server process. */
  serverKills: number;
  /** Immediate shutdowns of the scratch PostgreSQL while the server runs on. */
  databaseKills?: number;
  /** How long the server (or PostgreSQL) runs after a start before it is killed, in ms. */
  up?: readonly [number, number];
  devices?: { clients: number; entriesPerMessage: number; window: number; pauseMs: number };
  log?: (line: string) => void;
}

export interface DurabilityResult extends DurabilityCount {
  broker: DurabilityScenario['broker'];
  cycles: number;
  /** Positions handed to device clients, acknowledged or not. */
  published: number;
  /** Acknowledgements still missing when the devices stopped. */
  unacknowledged: number;
  seconds: number;
  /** The server's output, for the assertion messages. */
  serverOutput: string;
}

const DEFAULT_DEVICES = { clients: 4, entriesPerMessage: 5, window: 4, pauseMs: 25 };
/**
 * Mosquitto acknowledges on receipt, also while the server is dead, so the devices are slower
 * there: what piles up during a restart must drain in the time the test has.
 */
const MOSQUITTO_DEVICES = { ...DEFAULT_DEVICES, pauseMs: 250 };
/** Positions of the run lie in the past, each a millisecond after the previous one. */
const RUN_STARTS_BEFORE_NOW_MS = 6 * 3600_000;

async function waitUntil(condition: () => boolean | Promise<boolean>, timeoutMs: number, what: string) {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await pause(200);
  }
}

/**
 * Devices publish positions with QoS 1 while the server (and/or its PostgreSQL) is killed at
 * random instants and started again; then every acknowledged position is looked up in the
 * database. DESIGN §1: acknowledged means stored, once.
 */
export async function runDurabilityScenario(scenario: DurabilityScenario): Promise<DurabilityResult> {
  const startedAt = Date.now();
  const log = scenario.log ?? (() => {});
  const mosquitto = scenario.broker === 'mosquitto' ? await startScratchMosquitto() : null;
  const dataDir = mkdtempSync(join(tmpdir(), 'sitewatch-ack-'));
  let postgres: ScratchPostgres | null = null;
  let server: RestartableServer | null = null;
  let failed = false;
  const cleanups: (() => Promise<unknown>)[] = [];
  try {
    if (scenario.database === 'scratch-postgres') {
      postgres = await startScratchPostgres();
      const started = postgres;
      cleanups.push(() => started.dispose());
    }
    const databaseUrl =
      scenario.database === 'embedded'
        ? undefined
        : (postgres?.url ?? (scenario.database as { url: string }).url);
    const port = await freePort();
    const mqttPort = await freePort();
    server = restartableServer({
      DATA_DIR: dataDir,
      PORT: String(port),
      SAFETY_PORT: String(await freePort()),
      MQTT_PORT: String(mqttPort),
      MQTT_CLIENT_ID: `sitewatch-ack-${process.pid}-${port}`,
      SIMULATOR: 'off',
      ...(mosquitto ? { MQTT_URL: mosquitto.url } : {}),
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    });
    const running = server;
    cleanups.unshift(() => running.kill());
    await running.start();
    const baseUrl = `http://127.0.0.1:${port}`;
    const site = await demoSiteForDevices(baseUrl);
    const brokerUrl = mosquitto?.url ?? `mqtt://127.0.0.1:${mqttPort}`;
    const topic = topicFor(site.siteId, 'positions');
    const firstTsMs = Date.now() - RUN_STARTS_BEFORE_NOW_MS;
    const devices = await startDevicePublishers({
      brokerUrl,
      topic,
      credentials: mosquitto ? undefined : site.credentials,
      ...(scenario.devices ?? (mosquitto ? MOSQUITTO_DEVICES : DEFAULT_DEVICES)),
      tags: site.tags,
      floorId: site.floorId,
      at: site.at,
      firstTsMs,
    });
    cleanups.unshift(() => devices.close());
    const up = scenario.up ?? [300, 2000];

    let acknowledgedAtLastRestart = 0;
    await killLoop({
      cycles: scenario.serverKills,
      up,
      kill: () => running.kill(),
      start: () => running.start(),
      check: (cycle) => {
        acknowledgedAtLastRestart = devices.acknowledged.size;
        log(`server kill ${cycle}: ${devices.acknowledged.size} acknowledged of ${devices.published()}`);
      },
    });
    if (postgres) {
      const database = postgres;
      await killLoop({
        cycles: scenario.databaseKills ?? 0,
        up,
        down: [300, 1500],
        kill: () => database.kill(),
        start: () => database.start(),
        check: (cycle) => {
          acknowledgedAtLastRestart = devices.acknowledged.size;
          log(
            `PostgreSQL kill ${cycle}: ${devices.acknowledged.size} acknowledged of ${devices.published()}`,
          );
          if (running.exitCode() !== null)
            throw new Error(`the server died when PostgreSQL was killed:\n${running.output().slice(-4000)}`);
        },
      });
    }
    // Acknowledgements go on after the last restart: the path recovered, not merely stopped.
    await waitUntil(
      () => devices.acknowledged.size > acknowledgedAtLastRestart,
      60_000,
      'acknowledgements after the last restart',
    );
    await devices.settle(30_000);
    const unacknowledged = devices.inFlight();
    await devices.close();

    // One more position, sent after every other was acknowledged: once the helmet shows it,
    // the ingest has taken everything the broker held before it (Mosquitto delivers in order).
    const markerTs = new Date().toISOString();
    const marker = await mqtt.connectAsync(brokerUrl, { ...(mosquitto ? {} : site.credentials) });
    await marker.publishAsync(
      topic,
      JSON.stringify([
        { tag: site.tags[0], ts: markerTs, ...site.at, floorId: site.floorId, online: true, active: true },
      ]),
      { qos: 1 },
    );
    await marker.endAsync();
    await waitUntil(
      async () => (await helmetLastSeen(baseUrl, site, site.tags[0])) === markerTs,
      180_000,
      'the ingest to take the last position',
    );

    await running.stop();
    const range = { fromMs: firstTsMs, toMs: firstTsMs + devices.published() };
    const rows = databaseUrl
      ? await positionsOnServer(databaseUrl, site.siteId, range)
      : await positionsInDataDir(dataDir, site.siteId, range);
    return {
      broker: scenario.broker,
      cycles: scenario.serverKills + (scenario.databaseKills ?? 0),
      published: devices.published(),
      unacknowledged,
      ...countDurability(devices.acknowledged, rows),
      seconds: Math.round((Date.now() - startedAt) / 1000),
      serverOutput: running.output(),
    };
  } catch (error) {
    failed = true;
    const tail = (text: string | undefined) => (text ?? '').slice(-6000);
    throw new Error(
      `${String(error)}\n--- data directory kept for inspection: ${dataDir}` +
        `\n--- server output:\n${tail(server?.output())}\n--- mosquitto:\n${tail(mosquitto?.process.output())}`,
      { cause: error },
    );
  } finally {
    for (const cleanup of cleanups) await cleanup().catch(() => {});
    await mosquitto?.dispose();
    if (!failed) rmSync(dataDir, { recursive: true, force: true });
  }
}
