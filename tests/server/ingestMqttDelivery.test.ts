import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { positions } from '../../server/db/schema';
import { startMqttIngest } from '../../server/ingest/mqttIngest';
import { topicFor } from '../../src/domain/live';
import { failingFirst } from './helpers/failingDb';
import {
  type DemoFloorFixture,
  demoFloor,
  POINTS,
  positionAt,
  seedWorkerWithHelmet,
} from './helpers/ingestFixture';
import { startTestApp, type TestApp } from './helpers/testApp';
import { startTestBroker, type TestBroker } from './helpers/testBroker';
import { connectGateway, quietLogger, uniqueClientId } from './helpers/testIngest';

describe('MQTT ingest acknowledges only what is committed', () => {
  let t: TestApp;
  let broker: TestBroker;
  let fixture: DemoFloorFixture;

  beforeAll(async () => {
    t = await startTestApp();
    broker = await startTestBroker(t.db);
    fixture = await demoFloor(t.db);
  });
  afterAll(async () => {
    await broker?.close();
    await t?.close();
  });

  it('retries a failed write, then drops the connection so the broker redelivers, and stores the message once', async () => {
    const helmet = await seedWorkerWithHelmet(t.db, fixture.siteId, 'ACK-H1');
    // Two tries per delivery: the first delivery fails twice, the redelivery fails once, then commits.
    const db = failingFirst(t.db, 3);
    const ingest = await startMqttIngest({
      db,
      config: {
        ...t.config,
        mqttTopicRoot: broker.topicRoot,
        mqttClientId: uniqueClientId(),
        mqttUsername: broker.internalLogin.username,
        mqttPassword: broker.internalLogin.password,
      },
      brokerUrl: broker.url,
      logger: quietLogger,
      sharedSubscription: false,
      retry: { attempts: 2, delayMs: 20 },
    });
    const sender = await connectGateway(broker, fixture.siteId);
    try {
      const message = positionAt(fixture, helmet.tag, POINTS.fitOut, 5);
      await sender.publishAsync(
        topicFor(fixture.siteId, 'positions', broker.topicRoot),
        JSON.stringify(message),
        {
          qos: 1,
        },
      );
      await vi.waitFor(
        async () => {
          const rows = await t.db
            .select()
            .from(positions)
            .where(eq(positions.inventoryItemId, helmet.inventoryId));
          expect(rows).toHaveLength(1);
        },
        { timeout: 15_000, interval: 100 },
      );
      expect(db.failed()).toBe(3);
      expect(ingest.stats()).toMatchObject({ writeFailures: 3, redeliveriesRequested: 1, accepted: 1 });
      expect(ingest.stats().messages).toBe(2);
    } finally {
      await sender.endAsync();
      await ingest.close();
    }
  });
});

describe('MQTT ingest on a shared subscription', () => {
  // aedes (the embedded broker) has no shared subscriptions; Mosquitto and EMQX do.
  it.runIf(process.env.TEST_MQTT_URL)(
    'splits the messages between two server processes and stores each once',
    async () => {
      const t = await startTestApp();
      const broker = await startTestBroker(t.db);
      const fixture = await demoFloor(t.db);
      const helmet = await seedWorkerWithHelmet(t.db, fixture.siteId, 'SHARE-H1');
      const start = () =>
        startMqttIngest({
          db: t.db,
          config: {
            ...t.config,
            mqttTopicRoot: broker.topicRoot,
            mqttClientId: uniqueClientId(),
            mqttUsername: broker.internalLogin.username,
            mqttPassword: broker.internalLogin.password,
          },
          brokerUrl: broker.url,
          logger: quietLogger,
          sharedSubscription: true,
        });
      const nodes = [await start(), await start()];
      const sender = await connectGateway(broker, fixture.siteId);
      try {
        const count = 20;
        for (let i = 0; i < count; i++) {
          const message = positionAt(fixture, helmet.tag, POINTS.fitOut, count - i);
          await sender.publishAsync(
            topicFor(fixture.siteId, 'positions', broker.topicRoot),
            JSON.stringify(message),
            {
              qos: 1,
            },
          );
        }
        await vi.waitFor(() => expect(nodes[0].stats().messages + nodes[1].stats().messages).toBe(count), {
          timeout: 10_000,
        });
        expect(nodes.every((node) => node.stats().messages > 0)).toBe(true);
        const rows = await t.db
          .select()
          .from(positions)
          .where(eq(positions.inventoryItemId, helmet.inventoryId));
        expect(rows).toHaveLength(count);
      } finally {
        await sender.endAsync();
        for (const node of nodes) await node.close();
        await broker.close();
        await t.close();
      }
    },
  );
});
