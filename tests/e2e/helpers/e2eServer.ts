import type { AddressInfo } from 'node:net';
import { buildApp } from '../../../server/app';
import { loadConfig } from '../../../server/config';
import type { Db } from '../../../server/db/database';
import { seedDemo } from '../../../server/db/demoSeed';
import { type LiveData, startLiveData } from '../../../server/liveData';
import { buildSafetyApp, startLive } from '../../../server/safety/safetyApp';
import { createTestDatabase } from '../../server/helpers/testDatabase';

export interface E2eServer {
  baseUrl: string;
  db: Db;
  /** With `live`: where devices publish (the embedded broker) and under which topic root. */
  brokerUrl: string | null;
  topicRoot: string;
  close(): Promise<void>;
}

/**
 * The built console and the API from one server on a fresh demo database, for one test file.
 * With `live`, also the safety listener with its socket channel, an embedded MQTT broker and the
 * ingest, as `npm start` runs them (the simulator stays off: tests publish what they need).
 */
export async function startE2eServer(options: { live?: boolean } = {}): Promise<E2eServer> {
  const database = await createTestDatabase();
  await seedDemo(database.db);
  const config = { ...loadConfig({}), loginMaxFailures: 1000, mqttPort: 0, mqttPortExplicit: true };
  let liveData: LiveData | null = null;
  let closeLive = async () => {};
  let publisher: Awaited<ReturnType<typeof startLive>>['publisher'] | undefined;
  if (options.live) {
    const safety = await buildSafetyApp({ db: database.db, config }, { logger: { level: 'warn' } });
    const live = await startLive({ app: safety, db: database.db, config });
    await safety.listen({ port: 0, host: '127.0.0.1' });
    // The console asks /api/live-settings for this port.
    config.safetyPort = (safety.server.address() as AddressInfo).port;
    publisher = live.publisher;
    liveData = await startLiveData({ db: database.db, config, publisher, logger: safety.log });
    closeLive = async () => {
      await liveData?.close();
      await live.close();
      await safety.close();
    };
  }
  const app = await buildApp({ db: database.db, config, consoleDir: 'test-output/console', publisher });
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
    async close() {
      await closeLive();
      await app.close();
      await database.dispose();
    },
  };
}
