import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { io, type Socket } from 'socket.io-client';
import { buildApp } from '../server/app';
import { loadConfig } from '../server/config';
import type { Database, Db } from '../server/db/database';
import { DEMO_SITE, seedDemo } from '../server/db/demoSeed';
import { ensureReferenceData } from '../server/db/referenceData';
import { buildings, floors, sites } from '../server/db/schema';
import type { LivePublisher } from '../server/live/liveChanges';
import { type LiveData, startLiveData } from '../server/liveData';
import { createDeviceToken } from '../server/mqtt/deviceCredentials';
import { buildSafetyApp, type SafetyLive, startLive } from '../server/safety/safetyApp';
import type { DeviceLogin } from '../server/simulator/simulatorToken';
import type { FloorCorners } from '../src/domain/floor';
import { LIVE_EVENTS } from '../src/domain/live';
import { openScratchDatabase } from './scratchDatabase';

/** The value after `--name` on the command line. */
export function option(name: string): string | undefined {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? process.argv[at + 1] : undefined;
}

export type FloorRow = typeof floors.$inferSelect;

export interface DemoSiteBench {
  database: Database;
  db: Db;
  siteId: number;
  /** The demo site's floors, in id order. */
  floorRows: FloorRow[];
  dispose(): Promise<void>;
}

/** A scratch database (PGlite, or a throwaway one on the `--pg` server) with the demo site seeded. */
export async function openDemoSite(adminUrl: string | undefined): Promise<DemoSiteBench> {
  const { database, dispose } = await openScratchDatabase(adminUrl);
  const db = database.db;
  await database.migrate();
  await ensureReferenceData(db);
  await seedDemo(db);
  const [{ siteId }] = await db.select({ siteId: sites.id }).from(sites).where(eq(sites.name, DEMO_SITE));
  const floorRows = await db
    .select({ floor: floors })
    .from(floors)
    .innerJoin(buildings, eq(buildings.id, floors.buildingId))
    .where(eq(buildings.siteId, siteId))
    .orderBy(floors.id)
    .then((rows) => rows.map((r) => r.floor));
  return { database, db, siteId, floorRows, dispose };
}

export function cornersOf(f: FloorRow): FloorCorners {
  return {
    a: { lat: f.aLat, long: f.aLong },
    b: { lat: f.bLat, long: f.bLong },
    c: { lat: f.cLat, long: f.cLong },
    d: { lat: f.dLat, long: f.dLong },
  };
}

export interface BenchServer {
  topicRoot: string;
  live: SafetyLive;
  liveData: LiveData;
  /** A site-wide client of the live channel, signed in as `email`, its first snapshot received. */
  socket: Socket;
  /** A device token of the site, as the gateways' MQTT login. */
  deviceLogin: DeviceLogin;
  close(): Promise<void>;
}

/**
 * The safety app with its live channel, the ingest (embedded broker unless `externalBroker`)
 * publishing to `publishTo(live)`, and one socket client of the site.
 */
export async function startBenchServer(options: {
  db: Db;
  siteId: number;
  externalBroker: string | undefined;
  email: string;
  publishTo(live: SafetyLive): LivePublisher;
}): Promise<BenchServer> {
  const { db } = options;
  const topicRoot = `sw-bench-${randomBytes(3).toString('hex')}`;
  const config = {
    ...loadConfig({}),
    mqttUrl: options.externalBroker,
    mqttPort: 0,
    mqttPortExplicit: true,
    mqttTopicRoot: topicRoot,
    mqttClientId: topicRoot,
  };
  const safety = await buildSafetyApp({ db, config }, { logger: { level: 'warn' } });
  const live = await startLive({ app: safety, db, config });
  await safety.listen({ port: 0, host: '127.0.0.1' });
  const liveData = await startLiveData({
    db,
    config,
    publisher: options.publishTo(live),
    logger: safety.log,
  });
  live.evacuation.bindCommands(liveData.publishCommand);
  const app = await buildApp({ db, config });
  const login = await app.inject({
    method: 'POST',
    url: '/api/login',
    payload: { email: options.email, password: 'sitewatch-demo' },
  });
  const token = login.json().data.access_token as string;
  const socket = io(`http://127.0.0.1:${(safety.server.address() as AddressInfo).port}`, {
    auth: { token },
    query: { siteId: String(options.siteId) },
    transports: ['websocket'],
  });
  await new Promise<void>((resolve) => socket.once(LIVE_EVENTS.snapshot, () => resolve()));
  const device = await createDeviceToken(db, {
    siteId: options.siteId,
    label: 'Benchmark gateway',
    createdBy: null,
  });
  return {
    topicRoot,
    live,
    liveData,
    socket,
    deviceLogin: { username: String(device.row.id), password: device.token },
    async close() {
      socket.close();
      await liveData.close();
      await live.close();
      await app.close();
    },
  };
}
