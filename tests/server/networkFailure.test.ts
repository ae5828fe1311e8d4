import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { connectAsync, type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { inventoryItems, networks } from '../../server/db/schema';
import type { IngestLogger } from '../../server/ingest/ingestLogger';
import { type MqttIngest, startMqttIngest } from '../../server/ingest/mqttIngest';
import { buildSafetyApp, type SafetyLive, startLive } from '../../server/safety/safetyApp';
import { topicFor } from '../../src/domain/live';
import {
  type DemoFloorFixture,
  demoFloor,
  type HelmetFixture,
  POINTS,
  positionAt,
  seedWorkerWithHelmet,
} from './helpers/ingestFixture';
import { connectSafety, type SafetyClient } from './helpers/safetyClient';
import { startTestApp, type TestApp } from './helpers/testApp';
import { startTestBroker, type TestBroker } from './helpers/testBroker';

const quietLogger: IngestLogger = { info() {}, warn() {}, error() {} };
const uniqueClientId = () => `sitewatch-test-${randomBytes(6).toString('hex')}`;
// Long enough that the network heard again stays healthy for the rest of the test.
const NETWORK_SILENCE_SECONDS = 5;

describe('networkFailure for a client that connects while a network is down', () => {
  let t: TestApp;
  let broker: TestBroker;
  let sender: MqttClient;
  let ingest: MqttIngest;
  let safetyApp: FastifyInstance;
  let live: SafetyLive;
  let url: string;
  let fixture: DemoFloorFixture;
  let helmet: HelmetFixture;
  let mesh: typeof networks.$inferSelect;
  let token: string;
  const clients: SafetyClient[] = [];

  const connect = () => {
    const client = connectSafety(url, { token, siteId: fixture.siteId });
    clients.push(client);
    return client;
  };

  async function sendPosition(secondsAgo: number): Promise<void> {
    const before = ingest.stats().messages;
    const message = positionAt(fixture, helmet.tag, POINTS.nowhere, secondsAgo);
    await sender.publishAsync(
      topicFor(fixture.siteId, 'positions', broker.topicRoot),
      JSON.stringify(message),
      {
        qos: 1,
      },
    );
    await vi.waitFor(() => expect(ingest.stats().messages).toBeGreaterThan(before), { timeout: 5000 });
  }

  beforeAll(async () => {
    t = await startTestApp();
    broker = await startTestBroker();
    fixture = await demoFloor(t.db);
    helmet = await seedWorkerWithHelmet(t.db, fixture.siteId, 'NET-1');
    [mesh] = await t.db.select().from(networks).where(eq(networks.name, 'Tower A south mesh'));
    await t.db
      .update(inventoryItems)
      .set({ networkId: mesh.id })
      .where(eq(inventoryItems.id, helmet.inventoryId));
    token = await t.loginAs('group-of-sites-admin');

    safetyApp = await buildSafetyApp({ db: t.db, config: t.config });
    live = await startLive({
      app: safetyApp,
      db: t.db,
      config: { redisUrl: undefined, networkSilenceSeconds: NETWORK_SILENCE_SECONDS },
      networkCheckIntervalMs: 200,
    });
    await safetyApp.listen({ port: 0, host: '127.0.0.1' });
    url = `http://127.0.0.1:${(safetyApp.server.address() as AddressInfo).port}`;
    ingest = await startMqttIngest({
      db: t.db,
      config: { ...t.config, mqttTopicRoot: broker.topicRoot, mqttClientId: uniqueClientId() },
      brokerUrl: broker.url,
      publisher: live.publisher,
      logger: quietLogger,
      sharedSubscription: false,
    });
    sender = await connectAsync(broker.url, { clientId: uniqueClientId() });
  });

  afterAll(async () => {
    for (const client of clients) client.close();
    await sender?.endAsync();
    await ingest?.close();
    await live?.close();
    await safetyApp?.close();
    await broker?.close();
    await t?.close();
  });

  it('tells a client joining after the failure that the network is down, and says nothing once it is back', async () => {
    const early = connect();
    await early.firstSnapshot();
    // Last heard twice the silence ago: the watch declares the network failed on its next check.
    await sendPosition(NETWORK_SILENCE_SECONDS * 2);
    await early.until('networkFailure', () => early.networkFailures[0]);

    const late = connect();
    await late.firstSnapshot();
    const told = await late.until('networkFailure on joining', () => late.networkFailures[0]);
    expect(told).toMatchObject({
      siteId: fixture.siteId,
      networkId: mesh.id,
      networkName: 'Tower A south mesh',
      failed: true,
    });
    expect(told.silentForSeconds).toBeGreaterThanOrEqual(NETWORK_SILENCE_SECONDS * 2);
    expect(late.networkFailures).toHaveLength(1);

    await sendPosition(0);
    const back = await late.until('network back', () => late.networkFailures[1]);
    expect(back).toMatchObject({ networkId: mesh.id, failed: false });

    const afterRecovery = connect();
    await afterRecovery.firstSnapshot();
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(afterRecovery.networkFailures).toEqual([]);
  });
});
