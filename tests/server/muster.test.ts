import { and, eq } from 'drizzle-orm';
import { connectAsync, type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { floors, incidents, inventoryItems, siteSafetySettings, zones } from '../../server/db/schema';
import { commandTopic } from '../../server/mqtt/topicAccess';
import {
  EVACUATION_MESSAGES,
  EVACUATION_STATUSES,
  type Evacuation,
  type EvacuationCounts,
  type EvacuationStatus,
  type EvacuationWorker,
} from '../../src/domain/evacuation';
import type { HelmetCommand } from '../../src/domain/helmetCommands';
import type { TopicKind } from '../../src/domain/live';
import {
  type DemoFloorFixture,
  demoFloor,
  type HelmetFixture,
  POINTS,
  positionAt,
  seedWorkerWithHelmet,
} from './helpers/ingestFixture';
import { type OtherTenant, seedOtherTenant } from './helpers/otherTenant';
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
import { type IngestWithSender, startIngestWithSender, uniqueClientId } from './helpers/testIngest';

/**
 * The muster through the real broker, the real socket channel and the safety listener's REST
 * calls: alarms to helmets and their confirmations, helmets silent before the alarm, a marshal's
 * marks and their undoing, a person without a helmet, a re-entry and its one incident, floors
 * cleared, a redirect and a phased evacuation.
 */
describe('the muster', () => {
  let t: TestApp;
  let broker: TestBroker;
  let safety: SafetyServer;
  let ingest: IngestWithSender;
  let fixture: DemoFloorFixture;
  let other: OtherTenant;
  let groundFloorId: number;
  let level2Id: number;
  let assemblyZoneId: number;
  let level2FitOutId: number;
  let adminToken: string;
  let client: SafetyClient;
  let helmetListener: MqttClient;
  const heard: HelmetCommand[] = [];
  const h: Record<string, HelmetFixture> = {};
  let evacuation: Evacuation;

  const send = (kind: TopicKind, payload: unknown) => ingest.send(fixture.siteId, kind, payload);
  const position = (
    helmet: HelmetFixture,
    floorId: number,
    point: readonly [number, number],
    secondsAgo = 0,
    online = true,
  ) => positionAt(fixture, helmet.tag, point, secondsAgo, { floorId, online });

  async function call(url: string, body: object, token = adminToken) {
    const response = await safety.app.inject({
      method: 'POST',
      url,
      headers: { authorization: `Bearer ${token}` },
      payload: { siteId: fixture.siteId, evacuationSessionId: evacuation.evacuationSessionId, ...body },
    });
    return {
      status: response.statusCode,
      body: response.json() as { status: string; message?: string; data?: unknown },
    };
  }

  /** The latest state of a worker the socket has been told, with the counts after it. */
  function latest(helmet: HelmetFixture): { worker: EvacuationWorker; counts: EvacuationCounts } | undefined {
    for (let i = client.batches.length - 1; i >= 0; i--) {
      const worker = client.batches[i].workers.find((w) => w.id === helmet.workerId);
      if (worker) return { worker, counts: client.batches[i].counts };
    }
    const snapshot = client.inProgress.at(-1);
    const worker = snapshot?.workers.find((w) => w.id === helmet.workerId);
    return worker && snapshot ? { worker, counts: snapshot.counts } : undefined;
  }

  const until = (helmet: HelmetFixture, status: EvacuationStatus) =>
    client.until(`${helmet.tag} to turn ${status}`, () => {
      const state = latest(helmet);
      return state?.worker.status === status ? state : undefined;
    });

  const lastCounts = () =>
    client.batches.at(-1)?.counts ?? (client.inProgress.at(-1)?.counts as EvacuationCounts);

  function expectCountsAddUp(counts: EvacuationCounts) {
    expect(EVACUATION_STATUSES.reduce((sum, status) => sum + counts[status], 0)).toBe(counts.included);
    expect(counts.stillInside).toBe(counts.included - counts.safe - counts.marked);
  }

  const reEntries = () =>
    t.db
      .select()
      .from(incidents)
      .where(and(eq(incidents.siteId, fixture.siteId), eq(incidents.type, 'reEntry')));

  beforeAll(async () => {
    t = await startTestApp();
    broker = await startTestBroker(t.db);
    fixture = await demoFloor(t.db);
    // The "possibly inside" window set, not read off the shift running at the wall clock's hour.
    await t.db
      .insert(siteSafetySettings)
      .values({ siteId: fixture.siteId, possiblyInsideHours: 12 })
      .onConflictDoUpdate({ target: siteSafetySettings.siteId, set: { possiblyInsideHours: 12 } });
    other = await seedOtherTenant(t.db);
    ({ groundFloorId, assemblyZoneId } = await groundFloorAssembly(t.db, fixture));
    [{ id: level2Id }] = await t.db
      .select({ id: floors.id })
      .from(floors)
      .where(and(eq(floors.buildingId, fixture.floor.buildingId), eq(floors.name, 'Level 2')));
    [{ id: level2FitOutId }] = await t.db
      .select({ id: zones.id })
      .from(zones)
      .where(and(eq(zones.floorId, level2Id), eq(zones.name, 'Fit-out area')));
    for (const name of ['A', 'B', 'C', 'D', 'E'])
      h[name] = await seedWorkerWithHelmet(t.db, fixture.siteId, `MUSTER-${name}`);
    adminToken = await t.loginAs('group-of-sites-admin');
    safety = await startSafetyServer(t);
    ingest = await startIngestWithSender(t, broker, safety.live.publisher);
    safety.live.evacuation.bindCommands((siteId, command) =>
      ingest.ingest.publish(commandTopic(siteId, broker.topicRoot), JSON.stringify(command)),
    );
    helmetListener = await connectAsync(broker.url, {
      clientId: uniqueClientId(),
      ...(await broker.deviceLogin(fixture.siteId)),
    });
    helmetListener.on('message', (_topic, payload) =>
      heard.push(JSON.parse(payload.toString()) as HelmetCommand),
    );
    await helmetListener.subscribeAsync(commandTopic(fixture.siteId, broker.topicRoot), { qos: 1 });
    client = safety.connect({ token: adminToken, siteId: fixture.siteId });
    await client.firstSnapshot();
  });

  afterAll(async () => {
    await helmetListener?.endAsync();
    await ingest?.close();
    await safety?.close();
    await broker?.close();
    await t?.close();
  });

  it('puts helmets silent for 3 h on the roll apart, leaves one silent for 13 h off it, and alarms the rest', async () => {
    await send('positions', [
      position(h.A, fixture.floor.id, POINTS.fitOut, 20),
      position(h.B, fixture.floor.id, POINTS.eastWing, 20),
      position(h.C, fixture.floor.id, POINTS.nowhere, 3 * 3600, false),
      position(h.D, fixture.floor.id, POINTS.nowhere, 13 * 3600, false),
      position(h.E, level2Id, POINTS.eastWing, 20),
    ]);
    // The offline sweep is not running here: C and D are silent by their helmets' own last reports.
    await t.db.update(inventoryItems).set({ isOnline: false }).where(eq(inventoryItems.id, h.C.inventoryId));
    await t.db.update(inventoryItems).set({ isOnline: false }).where(eq(inventoryItems.id, h.D.inventoryId));

    const reply = await client.start(
      evacuationOf(fixture.siteId, [fixture.floor.id, groundFloorId], [assemblyZoneId]),
    );
    expect(reply.status).toBe('success');
    evacuation = reply.data!;
    const snapshot = await client.until('the start snapshot', () => client.inProgress[0]);
    const statuses = Object.fromEntries(snapshot.workers.map((w) => [w.name, w.status]));
    expect(statuses).toEqual({
      [h.A.workerName]: 'autoAcknowledge',
      [h.B.workerName]: 'autoAcknowledge',
      [h.C.workerName]: 'offlineBeforeAlarm',
    });
    expect(snapshot.counts).toMatchObject({
      included: 3,
      offlineBeforeAlarm: 1,
      stillInside: 3,
      alarmUndelivered: 3,
    });
    expectCountsAddUp(snapshot.counts);
    expect(snapshot.floorClearances).toEqual(
      expect.arrayContaining([{ floorId: fixture.floor.id, clearedAt: null, remaining: 3 }]),
    );

    // Through the broker, one QoS 1 alarm per included helmet, none for the helmet left off the roll.
    await client.until('the alarms', () => (heard.length >= 3 ? heard : undefined));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(heard.map((c) => c.tag).sort()).toEqual([h.A.tag, h.B.tag, h.C.tag]);
    expect(
      heard.every(
        (c) => c.type === 'evacuationAlarm' && c.evacuationSessionId === evacuation.evacuationSessionId,
      ),
    ).toBe(true);
  });

  it('counts a confirmed alarm as delivered on the wall', async () => {
    await send('events', { tag: h.A.tag, ts: new Date().toISOString(), type: 'alarmReceived' });
    const delivered = await client.until('A delivered', () => {
      const state = latest(h.A);
      return state?.worker.alarmDeliveredAt ? state : undefined;
    });
    expect(delivered.counts.alarmUndelivered).toBe(2);
  });

  it('marks a worker accounted for by hand, apart from helmet evidence, with who and why', async () => {
    const reply = await call('/api/safety/evacuation/mark', {
      workerId: h.B.workerId,
      reason: 'Seen at muster point B',
    });
    expect(reply.status).toBe(200);
    const marked = await until(h.B, 'marked');
    expect(marked.worker.mark).toMatchObject({
      reason: 'Seen at muster point B',
      markedBy: { name: 'Demo Site Admin' },
    });
    expect(marked.worker.isSafe).toBe(false);
    expect(marked.counts).toMatchObject({ marked: 1, safe: 0, stillInside: 2 });
    expectCountsAddUp(marked.counts);
  });

  it('turns a marked worker seen inside again re-entered, raises one incident, and safe once out', async () => {
    await send('positions', position(h.B, fixture.floor.id, POINTS.fitOut));
    const reEntered = await until(h.B, 'reEntered');
    expect(reEntered.counts).toMatchObject({ reEntered: 1, marked: 0 });
    expectCountsAddUp(reEntered.counts);
    await send('positions', position(h.B, fixture.floor.id, POINTS.eastWing));
    await safety.live.evacuation.idle();
    expect(await reEntries()).toHaveLength(1);
    expect((await reEntries())[0]).toMatchObject({ workerId: h.B.workerId, floorId: fixture.floor.id });

    await send('positions', position(h.B, groundFloorId, ASSEMBLY_POINT));
    const safe = await until(h.B, 'safe');
    expect(safe.counts).toMatchObject({ safe: 1, reEntered: 0 });
    // Safe, then back inside: re-entered again (a second incident), then out to a place outside the area: safe.
    await send('positions', position(h.B, fixture.floor.id, POINTS.fitOut));
    await until(h.B, 'reEntered');
    await send('positions', position(h.B, level2Id, POINTS.nowhere));
    await until(h.B, 'safe');
    await safety.live.evacuation.idle();
    expect(await reEntries()).toHaveLength(2);
  });

  it('undoes a mark, once, and refuses bad marks in the form words', async () => {
    const mark = await call('/api/safety/evacuation/mark', {
      workerId: h.C.workerId,
      reason: 'Left site before the alarm',
    });
    expect(mark.status).toBe(200);
    const marked = await until(h.C, 'marked');
    const markId = marked.worker.mark?.id;
    const undo = await call('/api/safety/evacuation/unmark', { markId });
    expect(undo.status).toBe(200);
    const back = await until(h.C, 'offlineBeforeAlarm');
    expect(back.worker.mark).toBeNull();
    expect((await call('/api/safety/evacuation/unmark', { markId })).body).toEqual({
      status: 'error',
      message: EVACUATION_MESSAGES.markAlreadyUndone,
    });
    expect(
      (await call('/api/safety/evacuation/mark', { workerId: h.C.workerId, reason: '  ' })).body.message,
    ).toBe(EVACUATION_MESSAGES.reasonRequired);
    expect(
      (await call('/api/safety/evacuation/mark', { workerId: h.D.workerId, reason: 'seen' })).body.message,
    ).toBe(EVACUATION_MESSAGES.notIncluded);
    const wrongSession = await call('/api/safety/evacuation/mark', {
      workerId: h.C.workerId,
      reason: 'seen',
      evacuationSessionId: 'not-this-one',
    });
    expect(wrongSession).toMatchObject({ status: 409, body: { message: EVACUATION_MESSAGES.wrongSession } });
    const otherAdmin = await t.login(other.email('client-admin'));
    const foreign = await call(
      '/api/safety/evacuation/mark',
      { workerId: h.C.workerId, reason: 'seen' },
      otherAdmin,
    );
    expect(foreign.status).toBe(404);
    const viewer = await t.loginAs('group-of-sites-viewer');
    expect(
      (await call('/api/safety/evacuation/mark', { workerId: h.C.workerId, reason: 'seen' }, viewer)).status,
    ).toBe(403);
    expect(latest(h.C)?.worker.status).toBe('offlineBeforeAlarm');
  });

  it('adds a person without a helmet to the roll, counted until marked', async () => {
    const before = lastCounts();
    const added = await call('/api/safety/evacuation/roll', { name: 'Sam Visitor', company: 'Acme Surveys' });
    expect(added.status).toBe(200);
    const id = (added.body.data as { id: number }).id;
    const person = await client.until('the person on the roll', () =>
      client.batches.flatMap((b) => b.rollPeople).find((p) => p.id === id),
    );
    expect(person).toMatchObject({
      name: 'Sam Visitor',
      company: 'Acme Surveys',
      status: 'noHelmet',
      mark: null,
    });
    expect(lastCounts()).toMatchObject({ included: before.included + 1, noHelmet: 1 });
    expectCountsAddUp(lastCounts());
    await call('/api/safety/evacuation/mark', { rollPersonId: id, reason: 'Visitor' });
    await client.until('the person marked', () =>
      client.batches.flatMap((b) => b.rollPeople).find((p) => p.id === id && p.status === 'marked'),
    );
    expect(lastCounts()).toMatchObject({ noHelmet: 0 });
    expect((await call('/api/safety/evacuation/roll', { name: '' })).body.message).toBe(
      EVACUATION_MESSAGES.nameRequired,
    );
  });

  it('tells when Level 1 was cleared: its last worker left or was accounted for', async () => {
    await send('positions', position(h.A, groundFloorId, ASSEMBLY_POINT));
    await until(h.A, 'safe');
    expect(client.batches.at(-1)?.floorClearances.find((f) => f.floorId === fixture.floor.id)).toMatchObject({
      clearedAt: null,
      remaining: 1,
    });
    await call('/api/safety/evacuation/mark', {
      workerId: h.C.workerId,
      reason: 'Left site before the alarm',
    });
    await until(h.C, 'marked');
    const level1 = client.batches.at(-1)?.floorClearances.find((f) => f.floorId === fixture.floor.id);
    expect(level1?.remaining).toBe(0);
    expect(Date.parse(level1?.clearedAt as string)).toBeGreaterThan(Date.parse(evacuation.evacuationStartAt));
  });

  it('redirects the people of an unsafe assembly zone, who are safe again only in the new one', async () => {
    heard.length = 0;
    const reply = await call('/api/safety/evacuation/redirect', {
      unsafeZoneId: assemblyZoneId,
      redirectZoneId: level2FitOutId,
    });
    expect(reply.status).toBe(200);
    expect(reply.body.data).toMatchObject({
      assemblyZoneIds: [level2FitOutId],
      unsafeAssemblyZoneIds: [assemblyZoneId],
    });
    const moved = await until(h.A, 'autoAcknowledge');
    expect(moved.worker.redirectZoneId).toBe(level2FitOutId);
    await client.until('the redirect command', () =>
      heard.find((c) => c.tag === h.A.tag && c.type === 'redirect'),
    );
    expect(heard.find((c) => c.tag === h.A.tag)).toMatchObject({ type: 'redirect', zoneId: level2FitOutId });
    // B left the assembly zone earlier (safe outside the area): not redirected.
    expect(heard.some((c) => c.tag === h.B.tag)).toBe(false);
    await send('positions', position(h.A, level2Id, POINTS.fitOut));
    await until(h.A, 'safe');
    expect(
      (
        await call('/api/safety/evacuation/redirect', {
          unsafeZoneId: assemblyZoneId,
          redirectZoneId: level2FitOutId,
        })
      ).body.message,
    ).toBe(EVACUATION_MESSAGES.notAssembly);
  });

  it('adds Level 2 to the running evacuation: its helmets join the roll and hear the alarm', async () => {
    heard.length = 0;
    const reply = await call('/api/safety/evacuation/area', { floorIds: [level2Id] });
    expect(reply.status).toBe(200);
    expect((reply.body.data as Evacuation).evacuationFloorsIds).toContain(level2Id);
    const joined = await until(h.E, 'autoAcknowledge');
    expect(joined.counts.included).toBe(5);
    expectCountsAddUp(joined.counts);
    await client.until('the alarm to E', () =>
      heard.find((c) => c.tag === h.E.tag && c.type === 'evacuationAlarm'),
    );
    // A stands in the redirect zone on Level 2: still safe.
    expect(latest(h.A)?.worker.status).toBe('safe');
    expect((await call('/api/safety/evacuation/area', { floorIds: [level2Id] })).body.message).toBe(
      EVACUATION_MESSAGES.nothingToAdd,
    );
  });
});
