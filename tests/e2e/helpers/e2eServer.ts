import type { AddressInfo } from 'node:net';
import { buildApp } from '../../../server/app';
import { loadConfig } from '../../../server/config';
import type { Db } from '../../../server/db/database';
import { findDemoSiteId, seedDemo } from '../../../server/db/demoSeed';
import { type LiveData, startLiveData } from '../../../server/liveData';
import { createDeviceToken } from '../../../server/mqtt/deviceCredentials';
import { createDeviceSessions } from '../../../server/mqtt/deviceSessions';
import { bindDrill, buildSafetyApp, startLive } from '../../../server/safety/safetyApp';
import type { EvacuationService } from '../../../server/safety/safetyServices';
import { createEvacuationDrill } from '../../../server/simulator/evacuationDrill';
import { startSimulator } from '../../../server/simulator/simulator';
import { mintSimulatorLogin } from '../../../server/simulator/simulatorToken';
import { createTestDatabase } from '../../server/helpers/testDatabase';
import { CONSOLE_DIR } from './outputDir';

export interface E2eServer {
  baseUrl: string;
  db: Db;
  /** With `live`: where devices publish (the embedded broker) and under which topic root. */
  brokerUrl: string | null;
  topicRoot: string;
  /** The demo site. */
  siteId: number;
  /** A new device token of the demo site, as a gateway's MQTT login. */
  deviceLogin(): Promise<{ username: string; password: string }>;
  /** With `live`: the evacuation service, for what a test does behind the console's back. */
  evacuation: EvacuationService | null;
  close(): Promise<void>;
}

export interface E2eServerOptions {
  live?: boolean;
  /**
   * With `live`: the demo site's simulator at this tick (no silences, no random presses) and the
   * safety demo's drill bound to it, as `npm start` runs them.
   */
  simulator?: { tickMs: number };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The built console and the API from one server on a fresh demo database, for one test file.
 * With `live`, also the safety listener with its socket channel, an embedded MQTT broker and the
 * ingest, as `npm start` runs them (the simulator only with `simulator`: tests publish what they need).
 */
export async function startE2eServer(options: E2eServerOptions = {}): Promise<E2eServer> {
  const database = await createTestDatabase();
  await seedDemo(database.db);
  const siteId = (await findDemoSiteId(database.db)) as number;
  const config = { ...loadConfig({}), loginMaxFailures: 1000, mqttPort: 0, mqttPortExplicit: true };
  let liveData: LiveData | null = null;
  // Revoking a device token in the console disconnects its devices from the embedded broker.
  const deviceSessions = createDeviceSessions();
  let closeLive = async () => {};
  let publisher: Awaited<ReturnType<typeof startLive>>['publisher'] | undefined;
  let evacuation: EvacuationService | null = null;
  if (options.live) {
    const safety = await buildSafetyApp({ db: database.db, config }, { logger: { level: 'warn' } });
    const live = await startLive({ app: safety, db: database.db, config });
    await safety.listen({ port: 0, host: '127.0.0.1' });
    // The console asks /api/live-settings for this port.
    config.safetyPort = (safety.server.address() as AddressInfo).port;
    publisher = live.publisher;
    evacuation = live.evacuation;
    liveData = await startLiveData({
      db: database.db,
      config,
      publisher,
      logger: safety.log,
      deviceSessions,
    });
    live.evacuation.bindCommands(liveData.publishCommand);
    const simulator = options.simulator
      ? await startSimulator({
          db: database.db,
          brokerUrl: liveData.brokerUrl,
          login: await mintSimulatorLogin(database.db, siteId),
          topicRoot: config.mqttTopicRoot,
          siteId,
          logger: safety.log,
          tickMs: options.simulator.tickMs,
          chances: { silence: 0, acknowledge: 0 },
        })
      : null;
    const drill = simulator
      ? createEvacuationDrill({
          db: database.db,
          simulator,
          evacuation: live.evacuation,
          siteId,
          logger: safety.log,
          watchMs: 500,
        })
      : null;
    bindDrill(safety, drill);
    closeLive = async () => {
      drill?.close();
      if (simulator) {
        await simulator.close();
        // Let the ingest take in the simulator's last messages before it disconnects.
        await sleep(1500);
      }
      await liveData?.close();
      await live.close();
      await safety.close();
    };
  }
  const app = await buildApp({
    db: database.db,
    config,
    consoleDir: CONSOLE_DIR,
    publisher,
    deviceSessions,
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;
  const baseUrl = `http://127.0.0.1:${port}`;
  // Links in e-mails must point at this server.
  config.publicUrl = baseUrl;
  return {
    baseUrl,
    db: database.db,
    brokerUrl: liveData?.brokerUrl ?? null,
    topicRoot: config.mqttTopicRoot,
    siteId,
    async deviceLogin() {
      const { row, token } = await createDeviceToken(database.db, {
        siteId,
        label: 'Test gateway',
        createdBy: null,
      });
      return { username: String(row.id), password: token };
    },
    evacuation,
    async close() {
      await closeLive();
      await app.close();
      await database.dispose();
    },
  };
}
