import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inventoryItems, networks } from '../../server/db/schema';
import {
  type DemoFloorFixture,
  demoFloor,
  type HelmetFixture,
  POINTS,
  positionAt,
  seedWorkerWithHelmet,
} from './helpers/ingestFixture';
import { type SafetyServer, startSafetyServer } from './helpers/safetyServer';
import { startTestApp, type TestApp } from './helpers/testApp';
import { startTestBroker, type TestBroker } from './helpers/testBroker';
import { type IngestWithSender, startIngestWithSender } from './helpers/testIngest';

// Long enough that the network heard again stays healthy for the rest of the test.
const NETWORK_SILENCE_SECONDS = 5;

describe('networkFailure for a client that connects while a network is down', () => {
  let t: TestApp;
  let broker: TestBroker;
  let safety: SafetyServer;
  let ingest: IngestWithSender;
  let fixture: DemoFloorFixture;
  let helmet: HelmetFixture;
  let mesh: typeof networks.$inferSelect;
  let token: string;

  const connect = () => safety.connect({ token, siteId: fixture.siteId });

  const sendPosition = (secondsAgo: number) =>
    ingest.send(fixture.siteId, 'positions', positionAt(fixture, helmet.tag, POINTS.nowhere, secondsAgo));

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

    safety = await startSafetyServer(t, {
      networkSilenceSeconds: NETWORK_SILENCE_SECONDS,
      networkCheckIntervalMs: 200,
    });
    ingest = await startIngestWithSender(t, broker, safety.live.publisher);
  });

  afterAll(async () => {
    await ingest?.close();
    await safety?.close();
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
