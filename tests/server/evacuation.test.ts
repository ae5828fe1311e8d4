import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  evacuationStatusEvents,
  evacuationWorkers,
  floors,
  inventoryItems,
  networks,
} from '../../server/db/schema';
import { type OfflineSweep, startOfflineSweep } from '../../server/ingest/offlineSweep';
import {
  EVACUATION_MESSAGES,
  EVACUATION_STATUSES,
  type Evacuation,
  type EvacuationCounts,
  type EvacuationStatus,
  type EvacuationWorker,
} from '../../src/domain/evacuation';
import type { TopicKind } from '../../src/domain/live';
import {
  type DemoFloorFixture,
  demoFloor,
  type HelmetFixture,
  POINTS,
  positionAt,
  seedWorkerWithHelmet,
} from './helpers/ingestFixture';
import type { SafetyClient } from './helpers/safetyClient';
import {
  ASSEMBLY_POINT,
  evacuationOf,
  groundFloorAssembly,
  type SafetyServer,
  startSafetyServer,
} from './helpers/safetyServer';
import { startTestApp, type TestApp } from './helpers/testApp';
import { startTestBroker, type TestBroker } from './helpers/testBroker';
import { type IngestWithSender, quietLogger, startIngestWithSender } from './helpers/testIngest';

const NETWORK_SILENCE_SECONDS = 2;
const OFFLINE_AFTER_SECONDS = 45;

describe('evacuation over the broker and the socket channel', () => {
  let t: TestApp;
  let broker: TestBroker;
  let safety: SafetyServer;
  let ingest: IngestWithSender;
  let sweep: OfflineSweep;
  let fixture: DemoFloorFixture;
  let groundFloorId: number;
  let level2Id: number;
  let assemblyZoneId: number;
  let adminToken: string;
  let clients: readonly SafetyClient[];
  const helmets: Record<string, HelmetFixture> = {};
  let evacuation: Evacuation;

  const connect = (floorId?: number) =>
    safety.connect({ token: adminToken, siteId: fixture.siteId, floorId });

  const send = (kind: TopicKind, payload: unknown) => ingest.send(fixture.siteId, kind, payload);

  const position = (
    helmet: HelmetFixture,
    floorId: number,
    point: readonly [number, number],
    secondsAgo = 0,
    online = true,
  ) => positionAt(fixture, helmet.tag, point, secondsAgo, { floorId, online });

  /** Waits for the next batch naming this worker, and returns the worker and the counts after it. */
  async function nextStatus(
    client: SafetyClient,
    helmet: HelmetFixture,
    status: EvacuationStatus,
  ): Promise<{ worker: EvacuationWorker; counts: EvacuationCounts }> {
    return client.until(`${helmet.tag} to turn ${status}`, () => {
      for (const batch of client.batches) {
        const worker = batch.workers.find((w) => w.id === helmet.workerId && w.status === status);
        if (worker) return { worker, counts: batch.counts };
      }
      return undefined;
    });
  }

  function expectCountsAddUp(counts: EvacuationCounts) {
    expect(EVACUATION_STATUSES.reduce((sum, status) => sum + counts[status], 0)).toBe(counts.included);
    expect(counts.stillInside).toBe(counts.included - counts.safe - counts.marked);
  }

  beforeAll(async () => {
    t = await startTestApp();
    broker = await startTestBroker();
    fixture = await demoFloor(t.db);
    ({ groundFloorId, assemblyZoneId } = await groundFloorAssembly(t.db, fixture));
    [{ id: level2Id }] = await t.db
      .select({ id: floors.id })
      .from(floors)
      .where(and(eq(floors.buildingId, fixture.floor.buildingId), eq(floors.name, 'Level 2')));
    for (const name of ['A', 'B', 'C', 'D', 'E', 'F', 'G'])
      helmets[name] = await seedWorkerWithHelmet(t.db, fixture.siteId, `EVAC-${name}`);
    adminToken = await t.loginAs('group-of-sites-admin');

    safety = await startSafetyServer(t, {
      networkSilenceSeconds: NETWORK_SILENCE_SECONDS,
      networkCheckIntervalMs: 200,
    });
    clients = safety.clients;
    ingest = await startIngestWithSender(t, broker, safety.live.publisher);
    // Swept only when a test asks: a helmet goes silent at the test's moment, not the timer's.
    sweep = startOfflineSweep({
      db: t.db,
      publisher: safety.live.publisher,
      logger: quietLogger,
      offlineAfterSeconds: OFFLINE_AFTER_SECONDS,
      intervalMs: 3_600_000,
    });
  });

  afterAll(async () => {
    await sweep?.close();
    await ingest?.close();
    await safety?.close();
    await broker?.close();
    await t?.close();
  });

  it('includes the workers of the evacuated area at the start and tells every client of the site', async () => {
    const { A, B, C, D, F } = helmets;
    await send('positions', [
      position(A, fixture.floor.id, POINTS.fitOut, 30),
      position(B, fixture.floor.id, POINTS.eastWing, 20),
      // Silent since: the sweep will find it.
      position(C, fixture.floor.id, POINTS.nowhere, OFFLINE_AFTER_SECONDS + 5),
      // Already standing in the assembly zone before the alarm: not safe for that.
      position(D, groundFloorId, ASSEMBLY_POINT, 10),
      position(F, level2Id, POINTS.fitOut, 10),
    ]);
    const onFloor = connect(fixture.floor.id);
    const siteWide = connect();
    await onFloor.firstSnapshot();
    await siteWide.firstSnapshot();
    expect(onFloor.inProgress).toEqual([]);

    const reply = await siteWide.start(
      evacuationOf(fixture.siteId, [fixture.floor.id, groundFloorId], [assemblyZoneId]),
    );
    expect(reply.status).toBe('success');
    evacuation = reply.data!;
    expect(evacuation).toMatchObject({
      siteId: fixture.siteId,
      started: true,
      floorIds: [fixture.floor.id, groundFloorId],
      assemblyZoneIds: [assemblyZoneId],
      evacuationFloorsIds: [fixture.floor.id, groundFloorId],
      startedBy: { name: 'Demo Site Admin' },
    });

    for (const client of [onFloor, siteWide]) {
      const snapshot = await client.until('evacuationInProgress', () => client.inProgress[0]);
      expect(snapshot.evacuation.evacuationSessionId).toBe(evacuation.evacuationSessionId);
      const byWorker = new Map(snapshot.workers.map((w) => [w.id, w]));
      expect([...byWorker.keys()].sort()).toEqual([A, B, C, D].map((h) => h.workerId).sort());
      expect(byWorker.get(A.workerId)).toMatchObject({
        status: 'autoAcknowledge',
        isIncludedEvacuation: true,
        isSafe: false,
        isWorkerAcknowledged: false,
        name: A.workerName,
        zone_name: 'Fit-out area',
      });
      expect(byWorker.get(D.workerId)).toMatchObject({ status: 'autoAcknowledge', isSafe: false });
      expect(snapshot.counts).toMatchObject({
        included: 4,
        safe: 0,
        manualAcknowledge: 0,
        autoAcknowledge: 4,
        offline: 0,
        stillInside: 4,
      });
      expectCountsAddUp(snapshot.counts);
    }
  });

  it('refuses a second start on the same site', async () => {
    const [client] = clients;
    const reply = await client.start(evacuationOf(fixture.siteId, [level2Id], [assemblyZoneId]));
    expect(reply).toEqual({ status: 'error', message: EVACUATION_MESSAGES.alreadyRunning });
  });

  it('turns a worker manualAcknowledge on the button, then safe in the assembly zone', async () => {
    const [client] = clients;
    const { A } = helmets;
    await send('events', { tag: A.tag, ts: new Date().toISOString(), type: 'acknowledge' });
    const acknowledged = await nextStatus(client, A, 'manualAcknowledge');
    expect(acknowledged.worker).toMatchObject({ isWorkerAcknowledged: true, isSafe: false });
    expect(acknowledged.counts).toMatchObject({ included: 4, manualAcknowledge: 1, autoAcknowledge: 3 });
    expectCountsAddUp(acknowledged.counts);

    await send('positions', position(A, groundFloorId, ASSEMBLY_POINT));
    const safe = await nextStatus(client, A, 'safe');
    expect(safe.worker).toMatchObject({
      isSafe: true,
      isWorkerAcknowledged: true,
      blueprint_id: groundFloorId,
    });
    expect(safe.worker.safeAt).not.toBeNull();
    expect(safe.counts).toMatchObject({ included: 4, safe: 1, manualAcknowledge: 0, stillInside: 3 });
    expectCountsAddUp(safe.counts);
  });

  it('counts a worker already in the assembly zone as safe only once a position after the start arrives', async () => {
    const [client] = clients;
    const { D } = helmets;
    expect(client.batches.flatMap((b) => b.workers).some((w) => w.id === D.workerId)).toBe(false);
    await send('positions', position(D, groundFloorId, ASSEMBLY_POINT));
    const safe = await nextStatus(client, D, 'safe');
    expect(safe.counts).toMatchObject({ safe: 2, stillInside: 2 });
    expectCountsAddUp(safe.counts);
  });

  it('turns a silent helmet offline, and it stays so even in the assembly zone while offline', async () => {
    const [client] = clients;
    const { C } = helmets;
    await sweep.sweep();
    const offline = await nextStatus(client, C, 'offline');
    expect(offline.counts).toMatchObject({ offline: 1, stillInside: 2 });
    expectCountsAddUp(offline.counts);
    // An offline report from the assembly zone: still offline, never safe.
    await send('positions', position(C, groundFloorId, ASSEMBLY_POINT, 0, false));
    await new Promise((resolve) => setTimeout(resolve, 300));
    const seen = client.batches.flatMap((b) => b.workers).filter((w) => w.id === C.workerId);
    expect(seen.every((w) => w.status === 'offline')).toBe(true);
  });

  it('includes a helmet that reports an online position in the area after the start, never one outside it', async () => {
    const [client] = clients;
    const { E, F } = helmets;
    await send('positions', position(F, level2Id, POINTS.eastWing));
    await send('positions', position(E, fixture.floor.id, POINTS.fitOut));
    const joined = await nextStatus(client, E, 'autoAcknowledge');
    expect(joined.counts).toMatchObject({ included: 5 });
    expectCountsAddUp(joined.counts);
    expect(client.batches.flatMap((b) => b.workers).some((w) => w.id === F.workerId)).toBe(false);
  });

  it('numbers every batch of the stream one after the other, after the start snapshot', () => {
    for (const client of clients) {
      const [snapshot] = client.inProgress;
      const seqs = client.batches.map((b) => b.seq);
      expect(client.batches.every((b) => b.stream === snapshot.stream)).toBe(true);
      expect(seqs).toEqual(seqs.map((_, i) => snapshot.seq + 1 + i));
      expect(client.batches.every((b) => b.evacuationSessionId === evacuation.evacuationSessionId)).toBe(
        true,
      );
    }
  });

  it('sends a joining client the running evacuation with the current statuses and cursor, and again on request', async () => {
    const [first] = clients;
    const last = first.batches[first.batches.length - 1];
    const late = connect();
    const snapshot = await late.until('evacuationInProgress', () => late.inProgress[0]);
    expect(snapshot).toMatchObject({ stream: last.stream, seq: last.seq });
    expect(snapshot.evacuation.evacuationSessionId).toBe(evacuation.evacuationSessionId);
    const statuses = Object.fromEntries(snapshot.workers.map((w) => [w.name, w.status]));
    expect(statuses).toEqual({
      [helmets.A.workerName]: 'safe',
      [helmets.B.workerName]: 'autoAcknowledge',
      [helmets.C.workerName]: 'offline',
      [helmets.D.workerName]: 'safe',
      [helmets.E.workerName]: 'autoAcknowledge',
    });
    expect(snapshot.counts).toEqual(last.counts);

    // After a gap the client asks again, and gets the same state.
    const requested = await first.requestEvacuation();
    expect(requested.status).toBe('success');
    expect(requested.data).toMatchObject({ stream: last.stream, seq: last.seq, counts: last.counts });
  });

  it('tells the site when a network goes silent, once, and when it is heard again', async () => {
    const [client] = clients;
    const { G } = helmets;
    const [mesh] = await t.db.select().from(networks).where(eq(networks.name, 'Tower A south mesh'));
    await t.db.update(inventoryItems).set({ networkId: mesh.id }).where(eq(inventoryItems.id, G.inventoryId));
    await send('positions', position(G, level2Id, POINTS.nowhere, NETWORK_SILENCE_SECONDS + 1));
    const failed = await client.until('networkFailure', () => client.networkFailures[0]);
    expect(failed).toMatchObject({
      siteId: fixture.siteId,
      networkId: mesh.id,
      networkName: 'Tower A south mesh',
      failed: true,
    });
    expect(failed.silentForSeconds).toBeGreaterThanOrEqual(NETWORK_SILENCE_SECONDS);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(client.networkFailures).toHaveLength(1);

    await send('positions', position(G, level2Id, POINTS.nowhere));
    const back = await client.until('network back', () => client.networkFailures[1]);
    expect(back).toMatchObject({ networkId: mesh.id, failed: false });
  });

  it('ends the evacuation for every client and keeps its history', async () => {
    const [client] = clients;
    const wrong = await client.end({ siteId: fixture.siteId, evacuationSessionId: 'not-this-one' });
    expect(wrong).toEqual({ status: 'error', message: EVACUATION_MESSAGES.wrongSession });

    const reply = await client.end({
      siteId: fixture.siteId,
      evacuationSessionId: evacuation.evacuationSessionId,
    });
    expect(reply.status).toBe('success');
    expect(reply.data).toMatchObject({ started: false, endedBy: { name: 'Demo Site Admin' } });
    for (const c of clients) {
      const ended = await c.until('evacuationEnded', () => c.ended[0]);
      expect(ended).toMatchObject({
        siteId: fixture.siteId,
        evacuationSessionId: evacuation.evacuationSessionId,
      });
    }
    const again = await client.end({
      siteId: fixture.siteId,
      evacuationSessionId: evacuation.evacuationSessionId,
    });
    expect(again).toEqual({ status: 'error', message: EVACUATION_MESSAGES.wrongSession });
    expect((await client.requestEvacuation()).data).toBeNull();

    const rows = await t.db
      .select()
      .from(evacuationWorkers)
      .where(eq(evacuationWorkers.sessionId, evacuation.evacuationSessionId));
    expect(rows).toHaveLength(5);
    const events = await t.db
      .select({
        workerId: evacuationStatusEvents.workerId,
        from: evacuationStatusEvents.fromStatus,
        to: evacuationStatusEvents.toStatus,
        cause: evacuationStatusEvents.cause,
      })
      .from(evacuationStatusEvents)
      .where(eq(evacuationStatusEvents.sessionId, evacuation.evacuationSessionId))
      .orderBy(asc(evacuationStatusEvents.id));
    expect(events.filter((e) => e.workerId === helmets.A.workerId)).toEqual([
      { workerId: helmets.A.workerId, from: null, to: 'autoAcknowledge', cause: 'start' },
      {
        workerId: helmets.A.workerId,
        from: 'autoAcknowledge',
        to: 'manualAcknowledge',
        cause: 'acknowledge',
      },
      { workerId: helmets.A.workerId, from: 'manualAcknowledge', to: 'safe', cause: 'position' },
    ]);
    expect(events.filter((e) => e.workerId === helmets.C.workerId).map((e) => e.cause)).toEqual([
      'start',
      'offline',
    ]);
    expect(events.filter((e) => e.workerId === helmets.E.workerId).map((e) => e.cause)).toEqual(['joined']);

    // Nothing more is evaluated once it has ended.
    const heard = client.batches.length;
    await send('positions', position(helmets.B, groundFloorId, ASSEMBLY_POINT));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(client.batches).toHaveLength(heard);
  });
});
