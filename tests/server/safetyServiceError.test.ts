import { and, asc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { evacuationStatusEvents, evacuationWorkers } from '../../server/db/schema';
import { SAFETY_SERVICE_ERROR_MESSAGE } from '../../server/safety/evacuationService';
import type { Evacuation } from '../../src/domain/evacuation';
import {
  type DemoFloorFixture,
  demoFloor,
  type HelmetFixture,
  POINTS,
  positionAt,
  seedWorkerWithHelmet,
} from './helpers/ingestFixture';
import {
  ASSEMBLY_POINT,
  evacuationOf,
  groundFloorAssembly,
  type SafetyServer,
  startSafetyServer,
} from './helpers/safetyServer';
import { startTestApp, type TestApp } from './helpers/testApp';
import { startTestBroker, type TestBroker } from './helpers/testBroker';
import { type IngestWithSender, startIngestWithSender } from './helpers/testIngest';

describe('safetyServiceError when the service cannot store a status change', () => {
  let t: TestApp;
  let broker: TestBroker;
  let safety: SafetyServer;
  let ingest: IngestWithSender;
  let fixture: DemoFloorFixture;
  let groundFloorId: number;
  let assemblyZoneId: number;
  let helmet: HelmetFixture;
  let token: string;
  let broken = false;

  const connect = (floorId?: number) => safety.connect({ token, siteId: fixture.siteId, floorId });

  const sendPosition = (floorId: number, point: readonly [number, number], secondsAgo: number) =>
    ingest.send(fixture.siteId, 'positions', positionAt(fixture, helmet.tag, point, secondsAgo, { floorId }));

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
    ({ groundFloorId, assemblyZoneId } = await groundFloorAssembly(t.db, fixture));
    helmet = await seedWorkerWithHelmet(t.db, fixture.siteId, 'ERR-1');
    token = await t.loginAs('group-of-sites-admin');

    safety = await startSafetyServer(t);
    ingest = await startIngestWithSender(t, broker, safety.live.publisher);
  });

  afterAll(async () => {
    if (broken) await repairStatusEvents();
    await ingest?.close();
    await safety?.close();
    await broker?.close();
    await t?.close();
  });

  it('tells every client of the site, leaves the stored status as it was, and carries on once it can write again', async () => {
    await sendPosition(fixture.floor.id, POINTS.fitOut, 5);
    const onFloor = connect(fixture.floor.id);
    const siteWide = connect();
    await onFloor.firstSnapshot();
    await siteWide.firstSnapshot();
    const reply = await siteWide.start(evacuationOf(fixture.siteId, [fixture.floor.id], [assemblyZoneId]));
    expect(reply.status).toBe('success');
    const evacuation = reply.data as Evacuation;
    const before = await workerRow(evacuation.evacuationSessionId);
    expect(before).toMatchObject({ status: 'autoAcknowledge', safeAt: null, accountedAt: null });
    // The start's own evaluation, left to run, would read the next position too and fail a second time.
    await safety.live.evacuation.idle();

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

    const errorsWhileBroken = [onFloor, siteWide].map((client) => client.serviceErrors.length);
    await repairStatusEvents();
    broken = false;
    // A newer position than the one whose evaluation failed: the ingest keeps only newer ones.
    await new Promise((resolve) => setTimeout(resolve, 20));
    await sendPosition(groundFloorId, ASSEMBLY_POINT, 0);
    for (const [index, client] of [onFloor, siteWide].entries()) {
      const batch = await client.until('the status change', () => client.batches[0]);
      expect(batch.workers).toMatchObject([{ id: helmet.workerId, status: 'safe' }]);
      expect(batch.counts).toMatchObject({ included: 1, safe: 1, stillInside: 0 });
      expect(client.serviceErrors).toHaveLength(errorsWhileBroken[index] as number);
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
