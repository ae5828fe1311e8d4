import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { connectAsync } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { positions } from '../../server/db/schema';
import { type LiveData, startLiveData } from '../../server/liveData';
import { createDeviceToken } from '../../server/mqtt/deviceCredentials';
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
import { uniqueClientId } from './helpers/testIngest';

/**
 * "Acknowledged" means stored (DESIGN §1): when the database fails, the embedded broker retries
 * the write, then drops the device's connection without a PUBACK, and the device's resend is
 * stored once the database is back.
 */
describe('the embedded broker when the database fails', () => {
  let t: TestApp;
  let fixture: DemoFloorFixture;
  let liveData: LiveData;
  // Three tries on the first delivery fail, so does the first of the resend; then it commits.
  let db: ReturnType<typeof failingFirst>;
  const topicRoot = `sw-retry-${randomBytes(4).toString('hex')}`;

  beforeAll(async () => {
    t = await startTestApp();
    fixture = await demoFloor(t.db);
    db = failingFirst(t.db, 4);
    liveData = await startLiveData({
      db,
      config: { ...t.config, mqttPort: 0, mqttPortExplicit: true, mqttTopicRoot: topicRoot },
      publisher: { publish: async () => {} },
      logger: t.app.log,
    });
  });
  afterAll(async () => {
    await liveData?.close();
    await t?.close();
  });

  it('does not acknowledge a position it could not store, and stores the resend once', async () => {
    const helmet = await seedWorkerWithHelmet(t.db, fixture.siteId, 'RETRY-H1');
    const { row, token } = await createDeviceToken(t.db, {
      siteId: fixture.siteId,
      label: 'Gateway',
      createdBy: null,
    });
    const gateway = await connectAsync(liveData.brokerUrl, {
      clientId: uniqueClientId(),
      username: String(row.id),
      password: token,
      reconnectPeriod: 100,
    });
    let drops = 0;
    gateway.on('close', () => {
      drops += 1;
    });
    try {
      await gateway.publishAsync(
        topicFor(fixture.siteId, 'positions', topicRoot),
        JSON.stringify(positionAt(fixture, helmet.tag, POINTS.fitOut, 5)),
        { qos: 1 },
      );
      // The PUBACK came from the resend, after the connection carrying the first one was dropped.
      expect(drops).toBeGreaterThanOrEqual(1);
      expect(db.failed()).toBe(4);
      const stored = await t.db
        .select()
        .from(positions)
        .where(eq(positions.inventoryItemId, helmet.inventoryId));
      expect(stored).toHaveLength(1);
      expect(liveData.ingest.stats()).toMatchObject({
        writeFailures: 4,
        redeliveriesRequested: 1,
        accepted: 1,
      });
    } finally {
      await gateway.endAsync();
    }
  });
});
