import { and, eq, inArray } from 'drizzle-orm';
import type { MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findDemoSiteId } from '../../server/db/demoSeed';
import { buildings, floors, inventoryItems, zones } from '../../server/db/schema';
import type { MqttIngest } from '../../server/ingest/mqttIngest';
import { type OfflineSweep, startOfflineSweep } from '../../server/ingest/offlineSweep';
import { bindDrill } from '../../server/safety/safetyApp';
import { createEvacuationDrill, type RunningDrill } from '../../server/simulator/evacuationDrill';
import type { Simulator, SimulatorOptions } from '../../server/simulator/simulator';
import { EVACUATION_MESSAGES } from '../../src/domain/evacuation';
import type { LongLat } from '../../src/domain/floor';
import type { HelmetEventMessage, PositionMessage } from '../../src/domain/live';
import { containsPoint } from '../../src/domain/polygon';
import { SAFETY_DEMO_MESSAGES } from '../../src/domain/safetyDemo';
import { type OtherTenant, seedOtherTenant } from './helpers/otherTenant';
import { type SafetyServer, startSafetyServer } from './helpers/safetyServer';
import {
  demoWorkingDay,
  dubaiClock,
  type Heard,
  listenToBroker,
  sleep,
  startTestSimulator,
  until,
} from './helpers/simulatorFixture';
import { startTestApp, type TestApp } from './helpers/testApp';
import { startTestBroker, type TestBroker } from './helpers/testBroker';
import { quietLogger, startTestIngest } from './helpers/testIngest';

/** Ticks of 25 ms: a 30–60 s walk takes 0.75–1.5 s. */
const TICK_MS = 25;

describe('the scripted evacuation of the safety demo', () => {
  let t: TestApp;
  let broker: TestBroker;
  let listener: MqttClient;
  let siteId: number;
  let workingDay: string;
  const floorBuilding = new Map<number, number>();
  let assembly: { id: number; floorId: number; buildingId: number; ring: LongLat[] }[] = [];
  let heard: Heard[];

  beforeAll(async () => {
    t = await startTestApp();
    broker = await startTestBroker();
    siteId = (await findDemoSiteId(t.db))!;
    const floorRows = await t.db
      .select({ id: floors.id, buildingId: floors.buildingId })
      .from(floors)
      .innerJoin(buildings, eq(buildings.id, floors.buildingId))
      .where(eq(buildings.siteId, siteId));
    for (const f of floorRows) floorBuilding.set(f.id, f.buildingId);
    const zoneRows = await t.db
      .select()
      .from(zones)
      .where(and(inArray(zones.floorId, [...floorBuilding.keys()]), eq(zones.kind, 'assembly')));
    assembly = zoneRows.map((z) => ({
      id: z.id,
      floorId: z.floorId,
      buildingId: floorBuilding.get(z.floorId)!,
      ring: z.coordinates,
    }));
    workingDay = await demoWorkingDay(t, siteId);
    ({ heard, listener } = await listenToBroker(broker));
  });
  afterAll(async () => {
    await listener?.endAsync();
    await broker?.close();
    await t?.close();
  });

  const positionsSince = (from: number) =>
    heard
      .filter((h) => h.at >= from && h.topic === `${broker.topicRoot}/${siteId}/positions`)
      .flatMap((h) => h.body as PositionMessage[]);
  const eventsSince = (from: number) =>
    heard
      .filter((h) => h.at >= from && h.topic === `${broker.topicRoot}/${siteId}/events`)
      .map((h) => h.body as HelmetEventMessage);
  const assemblyZoneOf = (p: PositionMessage) =>
    assembly.find((z) => z.floorId === p.floorId && containsPoint(z.ring, [p.long, p.lat]));
  /** 10:30 in Dubai on a working day: the day shift and the control room are at work. */
  const startAtWork = (options: Pick<SimulatorOptions, 'seed' | 'chances'>) =>
    startTestSimulator(t, broker, siteId, {
      clock: dubaiClock(workingDay, '10:30'),
      tickMs: TICK_MS,
      ...options,
    });
  /**
   * Each helmet's last position since `since`, once every one of `tags` was last heard in an
   * assembly zone or after `timeoutMs`: the test then says which did not make it.
   */
  const lastPositionsOnceInAssembly = async (tags: string[], since: number, timeoutMs: number) => {
    const lastPositions = () => new Map(positionsSince(since).map((p) => [p.tag, p]));
    const allInAssembly = () => {
      const positions = lastPositions();
      return tags.every((tag) => positions.has(tag) && assemblyZoneOf(positions.get(tag)!))
        ? true
        : undefined;
    };
    await until(allInAssembly, timeoutMs).catch(() => undefined);
    return lastPositions();
  };
  const evacuateEveryFloor = (simulator: Simulator) =>
    simulator.evacuate({
      floorIds: [...floorBuilding.keys()],
      assemblyZoneIds: assembly.map((z) => z.id),
    });

  it('walks every worker to the nearest assembly zone, some acknowledging, one helmet going silent until the all-clear', async () => {
    const started = Date.now();
    const simulator = await startAtWork({ seed: 21, chances: { silence: 0, acknowledge: 0 } });
    try {
      await until(() => (positionsSince(started).length > 0 ? true : undefined));
      const before = new Map(positionsSince(started).map((p) => [p.tag, p]));
      const alarm = Date.now();
      const script = evacuateEveryFloor(simulator);
      expect(script.evacuees.length).toBeGreaterThan(150);
      expect(new Set(script.evacuees)).toEqual(new Set(before.keys()));
      const share = script.acknowledging.length / script.evacuees.length;
      expect(share).toBeGreaterThan(0.2);
      expect(share).toBeLessThan(0.47);
      expect(script.silenced).not.toBeNull();
      const silenced = script.silenced!;

      // 60 ticks at most; a busy machine's timers slip, so wait on the walk, not the clock.
      const arrived = script.evacuees.filter((tag) => tag !== silenced);
      const last = await lastPositionsOnceInAssembly(arrived, alarm, 60 * TICK_MS + 30_000);
      for (const tag of arrived) {
        const zone = assemblyZoneOf(last.get(tag)!);
        expect(zone, `${tag} in an assembly zone`).toBeDefined();
        // The assembly zone of the worker's own building.
        expect(zone!.buildingId).toBe(floorBuilding.get(before.get(tag)!.floorId));
        expect(last.get(tag)!.active).toBe(true);
      }
      // The silent helmet stopped before reaching safety and has said nothing since.
      const silencedLast = last.get(silenced);
      expect(silencedLast === undefined || assemblyZoneOf(silencedLast) === undefined).toBe(true);
      const quietFrom = Date.now() - 20 * TICK_MS;
      expect(positionsSince(quietFrom).some((p) => p.tag === silenced)).toBe(false);
      expect(positionsSince(quietFrom).length).toBeGreaterThan(0);

      const presses = eventsSince(alarm);
      expect(presses.every((e) => e.type === 'acknowledge')).toBe(true);
      expect(new Set(presses.map((e) => e.tag))).toEqual(
        new Set(script.acknowledging.filter((tag) => tag !== silenced || presses.some((e) => e.tag === tag))),
      );

      // The all-clear: the silent helmet is heard again.
      const allClear = Date.now();
      simulator.endEvacuation();
      await until(() => (positionsSince(allClear).some((p) => p.tag === silenced) ? true : undefined), 3000);
    } finally {
      await simulator.close();
    }
  }, 90_000);

  it('walks out the helmets that were out of range when the alarm sounded, once they are heard again', async () => {
    const started = Date.now();
    // Many silences before the alarm (60–180 ticks each).
    const simulator = await startAtWork({ seed: 5, chances: { silence: 0.01, acknowledge: 0 } });
    try {
      await sleep(80 * TICK_MS);
      const everHeard = new Set(positionsSince(started).map((p) => p.tag));
      const recently = new Set(positionsSince(Date.now() - 5 * TICK_MS).map((p) => p.tag));
      const alarm = Date.now();
      const script = evacuateEveryFloor(simulator);
      const outOfRange = script.evacuees.filter((tag) => everHeard.has(tag) && !recently.has(tag));
      expect(outOfRange.length).toBeGreaterThan(0);
      expect(outOfRange).not.toContain(script.silenced);

      // Their silence ends within 180 ticks; by then their walk is over (on a busy machine, later).
      const last = await lastPositionsOnceInAssembly(outOfRange, alarm, 200 * TICK_MS + 30_000);
      for (const tag of outOfRange) {
        const position = last.get(tag);
        expect(position, `${tag} heard again`).toBeDefined();
        expect(assemblyZoneOf(position!), `${tag} in an assembly zone`).toBeDefined();
      }
    } finally {
      simulator.endEvacuation();
      await simulator.close();
    }
  }, 90_000);
});

/** A drill over the real ingest: 100 ms ticks keep PGlite's share of the machine modest. */
const DRILL_TICK_MS = 100;
const OFFLINE_AFTER_SECONDS = 5;

describe('POST /api/safety/demo/:siteId/drill', () => {
  let t: TestApp;
  let broker: TestBroker;
  let safety: SafetyServer;
  let ingest: MqttIngest;
  let sweep: OfflineSweep;
  let listener: MqttClient;
  let siteId: number;
  let other: OtherTenant;
  let simulator: Simulator | null = null;
  let drill: RunningDrill | null = null;
  let heard: Heard[];

  const call = (token: string, method: 'GET' | 'POST', path: string) =>
    safety.app.inject({ method, url: path, headers: { authorization: `Bearer ${token}` } });

  beforeAll(async () => {
    t = await startTestApp();
    broker = await startTestBroker();
    siteId = (await findDemoSiteId(t.db))!;
    other = await seedOtherTenant(t.db);
    safety = await startSafetyServer(t);
    ingest = await startTestIngest(t, broker, { publisher: safety.live.publisher });
    sweep = startOfflineSweep({
      db: t.db,
      publisher: safety.live.publisher,
      logger: quietLogger,
      offlineAfterSeconds: OFFLINE_AFTER_SECONDS,
      intervalMs: 500,
    });
    ({ heard, listener } = await listenToBroker(broker));
  });
  afterAll(async () => {
    drill?.close();
    await simulator?.close();
    await listener?.endAsync();
    await sweep?.close();
    // The ingest closes once it has taken in what the simulator sent: a message arriving while it
    // closes is left unacknowledged, and its graceful disconnect waits on it.
    let taken = -1;
    await until(async () => {
      const now = ingest?.stats().messages ?? 0;
      const idle = now === taken;
      taken = now;
      await sleep(300);
      return idle ? true : undefined;
    }, 30_000);
    await ingest?.close();
    await safety?.close();
    await broker?.close();
    await t?.close();
  });

  it('refuses roles without the safety demo, sites the caller cannot see, other sites, and a server without the simulator', async () => {
    const drillPath = `/api/safety/demo/${siteId}/drill`;
    for (const role of [
      'group-of-sites-viewer',
      'group-of-sites-admin',
      'client-admin',
      'crew-manager',
    ] as const) {
      const reply = await call(await t.loginAs(role), 'POST', drillPath);
      expect(reply.statusCode, role).toBe(403);
    }
    const demoUser = await t.loginAs('safety-demo');
    // Another client's site does not exist for the demo user; a super-admin sees it but it is not the demo site.
    expect((await call(demoUser, 'POST', `/api/safety/demo/${other.siteId}/drill`)).statusCode).toBe(404);
    const notDemo = await call(
      await t.loginAs('super-admin'),
      'POST',
      `/api/safety/demo/${other.siteId}/drill`,
    );
    expect(notDemo.statusCode).toBe(403);
    expect(notDemo.json().message).toBe(SAFETY_DEMO_MESSAGES.notDemoSite);
    expect((await call(demoUser, 'POST', '/api/safety/demo/abc/drill')).statusCode).toBe(422);

    const off = await call(demoUser, 'POST', drillPath);
    expect(off.statusCode).toBe(409);
    expect(off.json().message).toBe(SAFETY_DEMO_MESSAGES.simulatorOff);
    const status = await call(demoUser, 'GET', `/api/safety/demo/${siteId}`);
    expect(status.json().data).toEqual({ siteId, isDemoSite: true, simulatorOn: false, running: null });
    expect(
      (await call(await t.loginAs('group-of-sites-viewer'), 'GET', `/api/safety/demo/${siteId}`)).statusCode,
    ).toBe(403);
    expect((await call(demoUser, 'GET', `/api/safety/demo/${other.siteId}`)).statusCode).toBe(404);
  });

  it('runs a real evacuation of the demo site: workers reach safety, some acknowledge, one helmet goes offline, and the end puts the simulator back', async () => {
    simulator = await startTestSimulator(t, broker, siteId, {
      seed: 5,
      tickMs: DRILL_TICK_MS,
      chances: { silence: 0, acknowledge: 0 },
    });
    drill = createEvacuationDrill({
      db: t.db,
      simulator,
      evacuation: safety.live.evacuation,
      siteId,
      logger: t.app.log,
      watchMs: 100,
    });
    bindDrill(safety.app, drill);
    // Whoever is on shift right now (the control room at least) is online before the alarm.
    const onShift = await until(async () => {
      const online = await t.db
        .select({ id: inventoryItems.id })
        .from(inventoryItems)
        .where(and(eq(inventoryItems.siteId, siteId), eq(inventoryItems.isOnline, true)));
      return online.length >= 10 ? online.length : undefined;
    });
    expect(onShift).toBeGreaterThanOrEqual(10);

    const demoUser = await t.loginAs('safety-demo');
    const wall = safety.connect({ token: await t.loginAs('group-of-sites-viewer'), siteId });
    await wall.firstSnapshot();
    const alarm = Date.now();
    const reply = await call(demoUser, 'POST', `/api/safety/demo/${siteId}/drill`);
    expect(reply.statusCode, reply.body).toBe(200);
    const evacuation = reply.json().data;
    expect(evacuation).toMatchObject({ siteId, started: true, zoneIds: [], safeZone: null });
    expect(evacuation.assemblyZoneIds).toHaveLength(2);
    expect(evacuation.floorIds).toHaveLength(6);
    const again = await call(demoUser, 'POST', `/api/safety/demo/${siteId}/drill`);
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(EVACUATION_MESSAGES.alreadyRunning);

    const started = await wall.until('the evacuation snapshot', () =>
      wall.inProgress.find((s) => s.evacuation.evacuationSessionId === evacuation.evacuationSessionId),
    );
    const included = started.counts.included;
    expect(included).toBeGreaterThanOrEqual(10);
    // Everyone safe but the silent helmet, which the sweep turns offline: 60 ticks and some slack.
    let settledBatches = 0;
    const settled = await wall.until(
      'everyone safe but one offline',
      () => {
        const counts = wall.batches.at(-1)?.counts;
        settledBatches = wall.batches.length;
        return counts && counts.safe === included - 1 && counts.offline === 1 ? counts : undefined;
      },
      30_000,
    );
    expect(settled).toMatchObject({ included, manualAcknowledge: 0, autoAcknowledge: 0, stillInside: 1 });
    const acknowledged = wall.batches
      .flatMap((b) => b.workers)
      .filter((w) => w.status === 'manualAcknowledge');
    expect(acknowledged.length).toBeGreaterThan(0);
    const presses = heard.filter((h) => h.at >= alarm && h.topic === `${broker.topicRoot}/${siteId}/events`);
    expect(presses.length).toBeGreaterThan(0);
    // The silenced helmet is the one offline once everyone else is safe: on a loaded machine another
    // helmet may go offline for a moment when its positions reach the ingest late, then come back.
    const latest = new Map(
      wall.batches
        .slice(0, settledBatches)
        .flatMap((b) => b.workers)
        .map((w) => [w.id, w]),
    );
    const stillOffline = [...latest.values()].filter((w) => w.status === 'offline');
    expect(stillOffline).toHaveLength(1);
    const offline = stillOffline[0];
    const history = wall.batches
      .flatMap((b) => b.workers)
      .filter((w) => w.id === offline.id)
      .map((w) => `${w.status}@${w.statusChangedAt}`);
    expect(offline.isSafe).toBe(false);
    expect(offline.safeAt, history.join(' ')).toBeNull();

    // Nothing of the drill reaches another site.
    expect(heard.some((h) => h.topic.startsWith(`${broker.topicRoot}/${other.siteId}/`))).toBe(false);
    expect(await safety.live.evacuation.running(other.siteId)).toBeNull();

    // The wall screen ends it; the simulator goes back to normal and the silent helmet is heard again.
    const ended = Date.now();
    const admin = safety.connect({ token: await t.loginAs('group-of-sites-admin'), siteId });
    await admin.firstSnapshot();
    const endReply = await admin.end({ siteId, evacuationSessionId: evacuation.evacuationSessionId });
    expect(endReply.status).toBe('success');
    const silentTag = offline.wnt_inventory_id;
    await until(async () =>
      heard.some(
        (h) =>
          h.at >= ended &&
          h.topic === `${broker.topicRoot}/${siteId}/positions` &&
          (h.body as PositionMessage[]).some((p) => p.tag === silentTag),
      )
        ? true
        : undefined,
    );
    // A whole drill: the walk out, the silent helmet's sweep to offline and the walk back.
  }, 90_000);
});
