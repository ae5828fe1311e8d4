import { eq } from 'drizzle-orm';
import type { MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { positions } from '../../server/db/schema';
import type { MqttIngest } from '../../server/ingest/mqttIngest';
import { type PositionMessage, topicFor } from '../../src/domain/live';
import {
  type DemoFloorFixture,
  demoFloor,
  type HelmetFixture,
  POINTS,
  positionAt,
  seedWorkerWithHelmet,
} from './helpers/ingestFixture';
import { startTestApp, type TestApp } from './helpers/testApp';
import { startTestBroker, type TestBroker } from './helpers/testBroker';
import { connectGateway, startTestIngest, uniqueClientId } from './helpers/testIngest';

const PUBLISH_EVERY_MS = 25;
const CLOSE_WITHIN_MS = 5000;
// Gateway-sized messages (about 30 kB each): more waits on the socket than its buffers hold,
// which is what used to keep a graceful close from ever seeing the socket close.
const BURST = 20;
const POSITIONS_PER_BURST_MESSAGE = 200;

describe('closing the MQTT ingest while messages keep arriving', () => {
  let t: TestApp;
  let broker: TestBroker;
  let fixture: DemoFloorFixture;
  let helmet: HelmetFixture;
  let sender: MqttClient;
  const sessions: MqttIngest[] = [];
  // The same client id for both: the second ingest resumes the first one's persistent session.
  const clientId = uniqueClientId();

  const startIngest = async () => {
    const ingest = await startTestIngest(t, broker, { clientId });
    sessions.push(ingest);
    return ingest;
  };

  beforeAll(async () => {
    t = await startTestApp();
    broker = await startTestBroker(t.db);
    fixture = await demoFloor(t.db);
    helmet = await seedWorkerWithHelmet(t.db, fixture.siteId, 'CLOSE-1');
    sender = await connectGateway(broker, fixture.siteId);
  });

  afterAll(async () => {
    await sender?.endAsync();
    // A session left open by a failed test: close() may hang without the fix, so never wait long.
    await Promise.race([
      Promise.all(sessions.map((s) => s.close())),
      new Promise((resolve) => setTimeout(resolve, 3000)),
    ]);
    await broker?.close();
    await t?.close();
  });

  it('resolves within a few seconds, and the next session stores what arrived meanwhile, once', async () => {
    const first = await startIngest();
    const publishedTimes: string[] = [];
    let sent = 0;
    // Each position 10 ms after the previous one: every entry stores its own row.
    const nextPosition = () => positionAt(fixture, helmet.tag, POINTS.fitOut, 120 - sent++ * 0.01);
    const publish = async (entries: PositionMessage[]) => {
      await sender.publishAsync(
        topicFor(fixture.siteId, 'positions', broker.topicRoot),
        JSON.stringify(entries),
        {
          qos: 1,
        },
      );
      publishedTimes.push(...entries.map((entry) => entry.ts));
    };
    // A burst first, so messages are already on their way to the ingest when it starts closing…
    const burst = Promise.all(
      Array.from({ length: BURST }, () =>
        publish(Array.from({ length: POSITIONS_PER_BURST_MESSAGE }, nextPosition)),
      ),
    );
    let publishing = true;
    // …then one every PUBLISH_EVERY_MS for as long as the close takes.
    const steady = (async () => {
      while (publishing) {
        await publish([nextPosition()]);
        await new Promise((resolve) => setTimeout(resolve, PUBLISH_EVERY_MS));
      }
    })();
    await vi.waitFor(() => expect(first.stats().messages).toBeGreaterThanOrEqual(1), {
      timeout: 5000,
      interval: 1,
    });

    const closing = first.close().then(() => 'closed' as const);
    // Published once the close has begun: the first session never acknowledges it.
    const duringClose = nextPosition();
    await publish([duringClose]);
    const closed = await Promise.race([
      closing,
      new Promise<'hung'>((resolve) => setTimeout(() => resolve('hung'), CLOSE_WITHIN_MS)),
    ]);
    publishing = false;
    await Promise.all([burst, steady]);
    expect(closed).toBe('closed');
    sessions.splice(sessions.indexOf(first), 1);

    const second = await startIngest();
    const storedTimes = async () =>
      (
        await t.db
          .select({ ts: positions.ts })
          .from(positions)
          .where(eq(positions.inventoryItemId, helmet.inventoryId))
      ).map((row) => row.ts.toISOString());
    await vi.waitFor(async () => expect(await storedTimes()).toHaveLength(publishedTimes.length), {
      timeout: 10_000,
      interval: 100,
    });
    const stored = await storedTimes();
    expect(new Set(stored).size).toBe(stored.length);
    expect(new Set(stored)).toEqual(new Set(publishedTimes));
    expect(stored.filter((ts) => ts === duringClose.ts)).toHaveLength(1);
    // What the first session never acknowledged came to the second.
    expect(second.stats().messages).toBeGreaterThan(0);
  });
});
