import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { and, asc, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { connectAsync, type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { evacuationStatusEvents, evacuationWorkers, floors, zones } from '../../server/db/schema';
import type { IngestLogger } from '../../server/ingest/ingestLogger';
import { type MqttIngest, startMqttIngest } from '../../server/ingest/mqttIngest';
import { SAFETY_SERVICE_ERROR_MESSAGE } from '../../server/safety/evacuationService';
import { buildSafetyApp, type SafetyLive, startLive } from '../../server/safety/safetyApp';
import type { Evacuation } from '../../src/domain/evacuation';
import { topicFor } from '../../src/domain/live';
import {
  type DemoFloorFixture,
  demoFloor,
  type HelmetFixture,
  POINTS,
  seedWorkerWithHelmet,
} from './helpers/ingestFixture';
import { connectSafety, type SafetyClient } from './helpers/safetyClient';
import { startTestApp, type TestApp } from './helpers/testApp';
import { startTestBroker, type TestBroker } from './helpers/testBroker';

const quietLogger: IngestLogger = { info() {}, warn() {}, error() {} };
const uniqueClientId = () => `sitewatch-test-${randomBytes(6).toString('hex')}`;
const ASSEMBLY_POINT: readonly [number, number] = [0.5, 0.75];

describe('safetyServiceError when the service cannot store a status change', () => {
  let t: TestApp;
  let broker: TestBroker;
  let sender: MqttClient;
  let ingest: MqttIngest;
  let safetyApp: FastifyInstance;
  let live: SafetyLive;
  let url: string;
  let fixture: DemoFloorFixture;
  let groundFloorId: number;
  let assemblyZoneId: number;
  let helmet: HelmetFixture;
  let token: string;
  let broken = false;
  const clients: SafetyClient[] = [];

  const connect = (floorId?: number) => {
    const client = connectSafety(url, { token, siteId: fixture.siteId, floorId });
    clients.push(client);
    return client;
  };

  async function sendPosition(floorId: number, point: readonly [number, number], secondsAgo: number) {
    const before = ingest.stats().messages;
    const message = {
      tag: helmet.tag,
      ts: new Date(Date.now() - secondsAgo * 1000).toISOString(),
      ...fixture.at(point[0], point[1]),
      floorId,
      online: true,
      active: true,
    };
    await sender.publishAsync(
      topicFor(fixture.siteId, 'positions', broker.topicRoot),
      JSON.stringify(message),
      {
        qos: 1,
      },
    );
    await vi.waitFor(() => expect(ingest.stats().messages).toBeGreaterThan(before), { timeout: 5000 });
  }

  const workerRow = async (sessionId: string) => {
    const [row] = await t.db
      .select()
      .from(evacuationWorkers)
      .where(
        and(eq(evacuationWorkers.sessionId, sessionId), eq(evacuationWorkers.workerId, helmet.workerId)),
      );
    return row;
  };

  const breakStatusEvents = () =>
    t.db.execute(sql`ALTER TABLE evacuation_status_events RENAME TO evacuation_status_events_broken`);
  const repairStatusEvents = () =>
    t.db.execute(sql`ALTER TABLE evacuation_status_events_broken RENAME TO evacuation_status_events`);

  beforeAll(async () => {
    t = await startTestApp();
    broker = await startTestBroker();
    fixture = await demoFloor(t.db);
    [{ id: groundFloorId }] = await t.db
      .select({ id: floors.id })
      .from(floors)
      .where(and(eq(floors.buildingId, fixture.floor.buildingId), eq(floors.name, 'Ground Floor')));
    [{ id: assemblyZoneId }] = await t.db
      .select({ id: zones.id })
      .from(zones)
      .where(and(eq(zones.floorId, groundFloorId), eq(zones.kind, 'assembly')));
    helmet = await seedWorkerWithHelmet(t.db, fixture.siteId, 'ERR-1');
    token = await t.loginAs('group-of-sites-admin');

    safetyApp = await buildSafetyApp({ db: t.db, config: t.config });
    live = await startLive({ app: safetyApp, db: t.db, config: { redisUrl: undefined } });
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
    if (broken) await repairStatusEvents();
    for (const client of clients) client.close();
    await sender?.endAsync();
    await ingest?.close();
    await live?.close();
    await safetyApp?.close();
    await broker?.close();
    await t?.close();
  });

  it('tells every client of the site, leaves the stored status as it was, and carries on once it can write again', async () => {
    await sendPosition(fixture.floor.id, POINTS.fitOut, 5);
    const onFloor = connect(fixture.floor.id);
    const siteWide = connect();
    await onFloor.firstSnapshot();
    await siteWide.firstSnapshot();
    const reply = await siteWide.start({
      siteId: fixture.siteId,
      floorIds: [fixture.floor.id],
      zoneIds: [],
      assemblyZoneIds: [assemblyZoneId],
      safeZone: null,
      gateWayId: null,
    });
    expect(reply.status).toBe('success');
    const evacuation = reply.data as Evacuation;
    const before = await workerRow(evacuation.evacuationSessionId);
    expect(before).toMatchObject({ status: 'autoAcknowledge', safeAt: null, accountedAt: null });

    await breakStatusEvents();
    broken = true;
    await sendPosition(groundFloorId, ASSEMBLY_POINT, 0);
    for (const client of [onFloor, siteWide]) {
      const error = await client.until('safetyServiceError', () => client.serviceErrors[0]);
      expect(error).toEqual({ siteId: fixture.siteId, message: SAFETY_SERVICE_ERROR_MESSAGE });
      expect(client.batches).toEqual([]);
    }
    // The status and its event are written together or not at all.
    expect(await workerRow(evacuation.evacuationSessionId)).toEqual(before);

    await repairStatusEvents();
    broken = false;
    // A newer position than the one whose evaluation failed: the ingest keeps only newer ones.
    await new Promise((resolve) => setTimeout(resolve, 20));
    await sendPosition(groundFloorId, ASSEMBLY_POINT, 0);
    for (const client of [onFloor, siteWide]) {
      const batch = await client.until('the status change', () => client.batches[0]);
      expect(batch.workers).toMatchObject([{ id: helmet.workerId, status: 'safe' }]);
      expect(batch.counts).toMatchObject({ included: 1, safe: 1, stillInside: 0 });
      expect(client.serviceErrors).toHaveLength(1);
    }
    expect(await workerRow(evacuation.evacuationSessionId)).toMatchObject({ status: 'safe' });
    const events = await t.db
      .select({ from: evacuationStatusEvents.fromStatus, to: evacuationStatusEvents.toStatus })
      .from(evacuationStatusEvents)
      .where(
        and(
          eq(evacuationStatusEvents.sessionId, evacuation.evacuationSessionId),
          eq(evacuationStatusEvents.workerId, helmet.workerId),
        ),
      )
      .orderBy(asc(evacuationStatusEvents.id));
    expect(events).toEqual([
      { from: null, to: 'autoAcknowledge' },
      { from: 'autoAcknowledge', to: 'safe' },
    ]);
  });
});
