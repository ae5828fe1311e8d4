import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { connectAsync, type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { evacuationAlarms, evacuationSessions } from '../../server/db/schema';
import type { CommittedChanges, CommittedHelmetEvent, LivePublisher } from '../../server/live/liveChanges';
import { commandTopic } from '../../server/mqtt/topicAccess';
import {
  alarmDeliveries,
  type HelmetAlarmDeps,
  recordAlarmDeliveries,
  sendAlarmCleared,
  sendEvacuationAlarms,
} from '../../server/safety/helmetAlarms';
import type { HelmetCommand } from '../../src/domain/helmetCommands';
import {
  type DemoFloorFixture,
  demoFloor,
  type HelmetFixture,
  seedWorkerWithHelmet,
} from './helpers/ingestFixture';
import { type OtherTenant, seedOtherTenant } from './helpers/otherTenant';
import { startTestApp, type TestApp } from './helpers/testApp';
import { startTestBroker, type TestBroker } from './helpers/testBroker';
import { type IngestWithSender, startIngestWithSender, uniqueClientId } from './helpers/testIngest';

/** A helmet of a site listening to its site's commands, as a device does. */
interface HelmetListener {
  heard: HelmetCommand[];
  client: MqttClient;
}

async function listenAsDevice(broker: TestBroker, siteId: number): Promise<HelmetListener> {
  const client = await connectAsync(broker.url, {
    clientId: uniqueClientId(),
    ...(await broker.deviceLogin(siteId)),
  });
  const heard: HelmetCommand[] = [];
  client.on('message', (_topic, payload) => heard.push(JSON.parse(payload.toString()) as HelmetCommand));
  const granted = await client.subscribeAsync(commandTopic(siteId, broker.topicRoot), { qos: 1 });
  expect(granted[0].qos).toBe(1);
  return { heard, client };
}

/** Records what the ingest hands the fan-out, and what the deliveries read when it did. */
function recordingPublisher(readDeliveries: (events: readonly CommittedHelmetEvent[]) => Promise<unknown>) {
  const events: { event: CommittedHelmetEvent; deliveriesThen: unknown }[] = [];
  const publisher: LivePublisher = {
    async publish(_batch: CommittedChanges) {},
    async publishHelmetEvents(_siteId, committed) {
      const deliveriesThen = await readDeliveries(committed);
      for (const event of committed) events.push({ event, deliveriesThen });
    },
  };
  return { publisher, events };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const at = (iso: string, offsetMs: number) => new Date(Date.parse(iso) + offsetMs).toISOString();

describe('helmet alarm commands through the broker', () => {
  let t: TestApp;
  let broker: TestBroker;
  let rig: IngestWithSender;
  let fixture: DemoFloorFixture;
  let other: OtherTenant;
  let deps: HelmetAlarmDeps;
  let site: HelmetListener;
  let otherSite: HelmetListener;
  let sessionId: string;
  const helmets: HelmetFixture[] = [];
  let watching: string | null = null;
  const fanOut = recordingPublisher(async () => (watching ? alarmDeliveries(t.db, watching) : null));

  beforeAll(async () => {
    t = await startTestApp();
    broker = await startTestBroker(t.db);
    fixture = await demoFloor(t.db);
    other = await seedOtherTenant(t.db);
    rig = await startIngestWithSender(t, broker, fanOut.publisher);
    // The same publish as LiveData.publishCommand: QoS 1 on the ingest's own connection.
    deps = {
      db: t.db,
      publishCommand: (siteId, command) =>
        rig.ingest.publish(commandTopic(siteId, broker.topicRoot), JSON.stringify(command)),
    };
    for (const tag of ['ALARM-A', 'ALARM-B', 'ALARM-C'])
      helmets.push(await seedWorkerWithHelmet(t.db, fixture.siteId, tag));
    sessionId = await startSession(fixture.siteId);
    site = await listenAsDevice(broker, fixture.siteId);
    otherSite = await listenAsDevice(broker, other.siteId);
  });
  afterAll(async () => {
    await site?.client.endAsync();
    await otherSite?.client.endAsync();
    await rig?.close();
    await broker?.close();
    await t?.close();
  });

  async function startSession(siteId: number): Promise<string> {
    const id = randomUUID();
    await t.db.insert(evacuationSessions).values({
      id,
      siteId,
      startedAt: new Date(),
      floorIds: [fixture.floor.id],
      zoneIds: [],
      assemblyZoneIds: [],
      evacuationFloorIds: [fixture.floor.id],
    });
    return id;
  }

  const included = () =>
    helmets.map((h) => ({ inventoryItemId: h.inventoryId, workerId: h.workerId, tag: h.tag }));
  const confirm = (helmet: HelmetFixture, ts: string) =>
    rig.send(fixture.siteId, 'events', { tag: helmet.tag, ts, type: 'alarmReceived' });
  const [A, B, C] = [0, 1, 2].map((i) => () => helmets[i]);

  it('sends one evacuation alarm to every included helmet, and none to another site', async () => {
    await sendEvacuationAlarms(deps, {
      siteId: fixture.siteId,
      sessionId,
      kind: 'evacuate',
      helmets: included(),
    });

    await vi.waitFor(() => expect(site.heard).toHaveLength(3), { timeout: 5000 });
    await sleep(300); // nothing more arrives: no duplicate, no broadcast
    expect(site.heard).toHaveLength(3);
    expect(otherSite.heard).toEqual([]);
    const sentAt = site.heard[0].ts;
    expect(site.heard.map((c) => c.tag).sort()).toEqual(['ALARM-A', 'ALARM-B', 'ALARM-C']);
    for (const command of site.heard)
      expect(command).toEqual({
        tag: command.tag,
        ts: sentAt,
        type: 'evacuationAlarm',
        evacuationSessionId: sessionId,
      });

    const deliveries = await alarmDeliveries(t.db, sessionId);
    expect([...deliveries.keys()].sort()).toEqual(helmets.map((h) => h.inventoryId).sort());
    for (const delivery of deliveries.values()) expect(delivery).toEqual({ sentAt, deliveredAt: null });
  });

  it('marks a helmet delivered by its first alarmReceived at or after the command, never by an earlier one', async () => {
    watching = sessionId;
    const sentAt = site.heard[0].ts;
    // Pressed before the alarm went out: not an answer to it.
    await confirm(A(), at(sentAt, -5000));
    expect(
      (await alarmDeliveries(t.db, sessionId, [A().inventoryId])).get(A().inventoryId)?.deliveredAt,
    ).toBeNull();

    await confirm(A(), at(sentAt, 1500));
    await confirm(B(), at(sentAt, 2200));
    const deliveries = await alarmDeliveries(t.db, sessionId);
    expect(deliveries.get(A().inventoryId)).toEqual({ sentAt, deliveredAt: at(sentAt, 1500) });
    expect(deliveries.get(B().inventoryId)).toEqual({ sentAt, deliveredAt: at(sentAt, 2200) });
    expect(deliveries.get(C().inventoryId)).toEqual({ sentAt, deliveredAt: null });
    const unconfirmed = [...deliveries.values()].filter((d) => d.deliveredAt === null);
    expect(unconfirmed).toHaveLength(1);

    // The evacuation hears the confirmations after they are stored, so it reads them delivered.
    await vi.waitFor(() => {
      const heardA = fanOut.events.find(
        (e) => e.event.inventoryItemId === A().inventoryId && e.event.ts === at(sentAt, 1500),
      );
      if (!heardA) throw new Error('the confirmation has not reached the fan-out yet');
      expect(heardA.event).toMatchObject({ type: 'alarmReceived', workerId: A().workerId });
      expect((heardA.deliveriesThen as Map<number, unknown>).get(A().inventoryId)).toEqual({
        sentAt,
        deliveredAt: at(sentAt, 1500),
      });
    });
  });

  it('changes nothing for a redelivered or a later confirmation', async () => {
    const sentAt = site.heard[0].ts;
    const before = await alarmDeliveries(t.db, sessionId);
    await confirm(A(), at(sentAt, 1500));
    await confirm(A(), at(sentAt, 4000));
    expect(await alarmDeliveries(t.db, sessionId)).toEqual(before);
    expect(
      await recordAlarmDeliveries(t.db, fixture.siteId, [
        { inventoryItemId: A().inventoryId, ts: at(sentAt, 1500) },
      ]),
    ).toEqual([]);
    // An earlier confirmation arriving late is the first one: it moves the delivery back.
    expect(
      await recordAlarmDeliveries(t.db, fixture.siteId, [
        { inventoryItemId: B().inventoryId, ts: at(sentAt, 900) },
      ]),
    ).toEqual([B().inventoryId]);
    expect((await alarmDeliveries(t.db, sessionId)).get(B().inventoryId)?.deliveredAt).toBe(at(sentAt, 900));
    // Another site's deliveries are not this site's to record.
    expect(
      await recordAlarmDeliveries(t.db, other.siteId, [
        { inventoryItemId: C().inventoryId, ts: at(sentAt, 1000) },
      ]),
    ).toEqual([]);
  });

  it('redirects a helmet with the zone, waiting for a new confirmation, and clears the alarm without bookkeeping', async () => {
    const zoneId = fixture.zoneId('East wing');
    site.heard.length = 0;
    await sendEvacuationAlarms(deps, {
      siteId: fixture.siteId,
      sessionId,
      kind: 'redirect',
      zoneId,
      helmets: [{ inventoryItemId: A().inventoryId, workerId: A().workerId, tag: A().tag }],
    });
    await vi.waitFor(() => expect(site.heard).toHaveLength(1), { timeout: 5000 });
    const [redirect] = site.heard;
    expect(redirect).toMatchObject({
      tag: A().tag,
      type: 'redirect',
      zoneId,
      evacuationSessionId: sessionId,
    });
    expect((await alarmDeliveries(t.db, sessionId)).get(A().inventoryId)).toEqual({
      sentAt: redirect.ts,
      deliveredAt: null,
    });
    await confirm(A(), at(redirect.ts, 700));
    expect((await alarmDeliveries(t.db, sessionId)).get(A().inventoryId)?.deliveredAt).toBe(
      at(redirect.ts, 700),
    );

    const rows = await t.db.$count(evacuationAlarms, eq(evacuationAlarms.sessionId, sessionId));
    site.heard.length = 0;
    await sendAlarmCleared(deps, { siteId: fixture.siteId, sessionId, tags: helmets.map((h) => h.tag) });
    await vi.waitFor(() => expect(site.heard).toHaveLength(3), { timeout: 5000 });
    expect(site.heard.every((c) => c.type === 'alarmCleared' && c.evacuationSessionId === sessionId)).toBe(
      true,
    );
    expect(await t.db.$count(evacuationAlarms, eq(evacuationAlarms.sessionId, sessionId))).toBe(rows);
    expect(otherSite.heard).toEqual([]);
  });

  it('does not count a confirmation stamped after its evacuation ended', async () => {
    // One running evacuation per site: the first one ends before this one starts.
    await t.db
      .update(evacuationSessions)
      .set({ endedAt: new Date() })
      .where(eq(evacuationSessions.id, sessionId));
    const ended = await startSession(fixture.siteId);
    site.heard.length = 0;
    await sendEvacuationAlarms(deps, {
      siteId: fixture.siteId,
      sessionId: ended,
      kind: 'evacuate',
      helmets: [{ inventoryItemId: C().inventoryId, workerId: C().workerId, tag: C().tag }],
    });
    await vi.waitFor(() => expect(site.heard).toHaveLength(1), { timeout: 5000 });
    const endedAt = new Date(Date.parse(site.heard[0].ts) + 1000);
    await t.db.update(evacuationSessions).set({ endedAt }).where(eq(evacuationSessions.id, ended));
    await confirm(C(), at(site.heard[0].ts, 2000));
    expect((await alarmDeliveries(t.db, ended)).get(C().inventoryId)?.deliveredAt).toBeNull();
    await confirm(C(), at(site.heard[0].ts, 800));
    expect((await alarmDeliveries(t.db, ended)).get(C().inventoryId)?.deliveredAt).toBe(
      at(site.heard[0].ts, 800),
    );
  });
});
