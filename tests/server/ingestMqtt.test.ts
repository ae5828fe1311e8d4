import { and, asc, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { helmetEvents, inventoryItems, nodeDiagnostics, positions, zoneEvents } from '../../server/db/schema';
import { startOfflineSweep } from '../../server/ingest/offlineSweep';
import type { CommittedChanges, LivePublisher } from '../../server/live/liveChanges';
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
import { startTestApp, type TestApp } from './helpers/testApp';
import { startTestBroker, type TestBroker } from './helpers/testBroker';
import { type IngestWithSender, quietLogger, startIngestWithSender } from './helpers/testIngest';

function recordingPublisher(): LivePublisher & { batches: CommittedChanges[] } {
  const batches: CommittedChanges[] = [];
  return {
    batches,
    async publish(batch) {
      batches.push(batch);
    },
  };
}

describe('MQTT ingest', () => {
  let t: TestApp;
  let broker: TestBroker;
  let rig: IngestWithSender;
  let fixture: DemoFloorFixture;
  let other: OtherTenant;
  const publisher = recordingPublisher();

  beforeAll(async () => {
    t = await startTestApp();
    broker = await startTestBroker(t.db);
    fixture = await demoFloor(t.db);
    other = await seedOtherTenant(t.db);
    rig = await startIngestWithSender(t, broker, publisher);
  });
  afterAll(async () => {
    await rig?.close();
    await broker?.close();
    await t?.close();
  });

  const send = (kind: TopicKind, payload: unknown, siteId = fixture.siteId) =>
    rig.send(siteId, kind, payload);

  const helmetRow = async (helmet: HelmetFixture) =>
    (await t.db.select().from(inventoryItems).where(eq(inventoryItems.id, helmet.inventoryId)))[0];
  const positionRows = (helmet: HelmetFixture) =>
    t.db
      .select()
      .from(positions)
      .where(eq(positions.inventoryItemId, helmet.inventoryId))
      .orderBy(asc(positions.ts));
  const zoneEventRows = (helmet: HelmetFixture) =>
    t.db
      .select({ zoneId: zoneEvents.zoneId, kind: zoneEvents.kind, workerId: zoneEvents.workerId })
      .from(zoneEvents)
      .where(eq(zoneEvents.inventoryItemId, helmet.inventoryId))
      .orderBy(asc(zoneEvents.ts), desc(zoneEvents.kind));

  it('stores a position, moves the helmet, records zone entries and exits and publishes the worker', async () => {
    const helmet = await seedWorkerWithHelmet(t.db, fixture.siteId, 'MQTT-H1');
    const first = positionAt(fixture, helmet.tag, POINTS.fitOut, 20);
    await send('positions', first);

    const [row] = await positionRows(helmet);
    expect(row).toMatchObject({
      workerId: helmet.workerId,
      floorId: fixture.floor.id,
      zoneId: fixture.zoneId('Fit-out area'),
      lat: first.lat,
      long: first.long,
      isOnline: true,
      isActive: true,
    });
    expect(row.ts.toISOString()).toBe(first.ts);
    expect(await helmetRow(helmet)).toMatchObject({
      isOnline: true,
      isActive: true,
      lat: first.lat,
      long: first.long,
      floorId: fixture.floor.id,
      zoneId: fixture.zoneId('Fit-out area'),
      lastSeen: new Date(first.ts),
      lastActiveAt: new Date(first.ts),
    });

    await send('positions', positionAt(fixture, helmet.tag, POINTS.eastWing, 10, { active: false }));
    expect(await zoneEventRows(helmet)).toEqual([
      { zoneId: fixture.zoneId('Fit-out area'), kind: 'enter', workerId: helmet.workerId },
      { zoneId: fixture.zoneId('Fit-out area'), kind: 'exit', workerId: helmet.workerId },
      { zoneId: fixture.zoneId('East wing'), kind: 'enter', workerId: helmet.workerId },
    ]);
    const moved = await helmetRow(helmet);
    expect(moved).toMatchObject({ zoneId: fixture.zoneId('East wing'), isActive: false });
    // Inactive now: the last active moment stays the first message's.
    expect(moved.lastActiveAt).toEqual(new Date(first.ts));

    await vi.waitFor(() => {
      const seen = publisher.batches
        .flatMap((b) => b.changes)
        .filter((c) => c.worker.inventory_id === helmet.inventoryId);
      expect(seen).toHaveLength(2);
      expect(seen[0]).toMatchObject({
        previousFloorId: null,
        worker: {
          name: helmet.workerName,
          zone_name: 'Fit-out area',
          blueprint_id: fixture.floor.id,
          is_active: true,
        },
      });
      expect(seen[1].worker).toMatchObject({
        id: helmet.workerId,
        name: helmet.workerName,
        role_name: `Rigger ${helmet.tag}`,
        subcontractor_name: `Steel Co ${helmet.tag}`,
        zone_name: 'East wing',
        blueprint_name: 'Level 1',
        is_online: true,
        is_active: false,
      });
      expect(seen[1].previousFloorId).toBe(fixture.floor.id);
    });
    expect(publisher.batches.every((b) => b.siteId === fixture.siteId)).toBe(true);
  });

  it('stores a message delivered twice once, with no second zone entry', async () => {
    const helmet = await seedWorkerWithHelmet(t.db, fixture.siteId, 'MQTT-H2');
    const message = positionAt(fixture, helmet.tag, POINTS.fitOut, 30);
    await send('positions', message);
    await send('positions', message);
    expect(await positionRows(helmet)).toHaveLength(1);
    expect(await zoneEventRows(helmet)).toHaveLength(1);
  });

  it('keeps the good entries of a batch, drops the bad ones and counts them per reason', async () => {
    const helmet = await seedWorkerWithHelmet(t.db, fixture.siteId, 'MQTT-H3');
    const before = rig.ingest.stats().rejected;
    const good = (secondsAgo: number) => positionAt(fixture, helmet.tag, POINTS.nowhere, secondsAgo);
    const [first, second, third] = [good(50), good(44), good(40)];
    await send('positions', [
      first,
      { ...good(49), floorId: 'three' },
      { ...good(48), tag: 'NO-SUCH-HELMET' },
      { ...good(47), floorId: other.floorId },
      { ...good(46), lat: 95 },
      { ...good(45), ts: new Date(Date.now() + 3_600_000).toISOString() },
      second,
    ]);
    await send('positions', '{"tag": "MQTT-H3", "ts": ');
    await send('positions', third);

    const stored = await positionRows(helmet);
    expect(stored.map((r) => r.ts.toISOString())).toEqual([first.ts, second.ts, third.ts]);
    expect(stored.every((r) => r.zoneId === null)).toBe(true);
    const after = rig.ingest.stats().rejected;
    expect({
      badShape: after.badShape - before.badShape,
      unknownTag: after.unknownTag - before.unknownTag,
      unknownFloor: after.unknownFloor - before.unknownFloor,
      outOfRange: after.outOfRange - before.outOfRange,
      futureTimestamp: after.futureTimestamp - before.futureTimestamp,
      badJson: after.badJson - before.badJson,
    }).toEqual({
      badShape: 1,
      unknownTag: 1,
      unknownFloor: 1,
      outOfRange: 1,
      futureTimestamp: 1,
      badJson: 1,
    });
  });

  it('keeps a late message in the history without moving the helmet back', async () => {
    const helmet = await seedWorkerWithHelmet(t.db, fixture.siteId, 'MQTT-H4');
    const newer = positionAt(fixture, helmet.tag, POINTS.eastWing, 10);
    const older = positionAt(fixture, helmet.tag, POINTS.fitOut, 60, { active: false });
    await send('positions', newer);
    await send('positions', older);
    expect(await positionRows(helmet)).toHaveLength(2);
    expect(await helmetRow(helmet)).toMatchObject({
      zoneId: fixture.zoneId('East wing'),
      isActive: true,
      lastSeen: new Date(newer.ts),
      lat: newer.lat,
    });
    expect(await zoneEventRows(helmet)).toEqual([
      { zoneId: fixture.zoneId('East wing'), kind: 'enter', workerId: helmet.workerId },
    ]);
  });

  it('applies the entries of one batch in time order, whatever order they arrive in', async () => {
    const helmet = await seedWorkerWithHelmet(t.db, fixture.siteId, 'MQTT-H5');
    const last = positionAt(fixture, helmet.tag, POINTS.nowhere, 5);
    await send('positions', [
      last,
      positionAt(fixture, helmet.tag, POINTS.fitOut, 15),
      positionAt(fixture, helmet.tag, POINTS.eastWing, 10),
    ]);
    expect(await helmetRow(helmet)).toMatchObject({ zoneId: null, lastSeen: new Date(last.ts) });
    expect((await zoneEventRows(helmet)).map((e) => e.kind)).toEqual(['enter', 'exit', 'enter', 'exit']);
  });

  it('stores node diagnostics and helmet button events, each once', async () => {
    const [anchor] = await t.db
      .insert(inventoryItems)
      .values({ siteId: fixture.siteId, wntInventoryId: 'MQTT-A1', type: 'anchor' })
      .returning();
    const helmet = await seedWorkerWithHelmet(t.db, fixture.siteId, 'MQTT-H6');
    const ts = new Date(Date.now() - 5000).toISOString();
    const report = {
      networkId: 1,
      nodeId: 'MQTT-A1',
      type: 'anchor',
      bufferUsage: 0.1,
      linkQuality: 90,
      batteryVoltage: 3.7,
      displacementError: 0.2,
      ts,
      ...fixture.at(0.5, 0.5),
    };
    await send('nodes', [report, { ...report, nodeId: 'NO-SUCH-ANCHOR' }]);
    await send('nodes', report);
    const diagnostics = await t.db
      .select()
      .from(nodeDiagnostics)
      .where(eq(nodeDiagnostics.nodeId, 'MQTT-A1'));
    expect(diagnostics).toHaveLength(1);
    expect(diagnostics[0]).toMatchObject({ siteId: fixture.siteId, batteryVoltage: 3.7, linkQuality: 90 });
    const [anchorRow] = await t.db.select().from(inventoryItems).where(eq(inventoryItems.id, anchor.id));
    expect(anchorRow).toMatchObject({ isOnline: true, lastSeen: new Date(ts) });

    const press = { tag: helmet.tag, ts, type: 'acknowledge' };
    await send('events', press);
    await send('events', press);
    const presses = await t.db
      .select()
      .from(helmetEvents)
      .where(and(eq(helmetEvents.inventoryItemId, helmet.inventoryId), eq(helmetEvents.type, 'acknowledge')));
    expect(presses).toHaveLength(1);
    expect(presses[0]).toMatchObject({ workerId: helmet.workerId, siteId: fixture.siteId });
  });

  it('turns a helmet silent for longer than OFFLINE_AFTER offline and publishes it, and only that one', async () => {
    const silent = await seedWorkerWithHelmet(t.db, fixture.siteId, 'MQTT-H8');
    const talking = await seedWorkerWithHelmet(t.db, fixture.siteId, 'MQTT-H9');
    await send('positions', [
      positionAt(fixture, silent.tag, POINTS.fitOut, 120),
      positionAt(fixture, talking.tag, POINTS.fitOut, 2),
    ]);
    expect(await helmetRow(silent)).toMatchObject({ isOnline: true });

    const sweep = startOfflineSweep({
      db: t.db,
      publisher,
      logger: quietLogger,
      offlineAfterSeconds: 60,
      intervalMs: 50,
    });
    try {
      await vi.waitFor(async () => expect(await helmetRow(silent)).toMatchObject({ isOnline: false }));
      expect(await helmetRow(talking)).toMatchObject({ isOnline: true });
      await vi.waitFor(() => {
        const offline = publisher.batches
          .flatMap((b) => b.changes)
          .find((c) => c.worker.inventory_id === silent.inventoryId && !c.worker.is_online);
        expect(offline).toMatchObject({
          previousFloorId: fixture.floor.id,
          worker: { name: silent.workerName, blueprint_id: fixture.floor.id, zone_name: 'Fit-out area' },
        });
      });
    } finally {
      await sweep.close();
    }
  });

  it('ignores a site the helmet does not belong to', async () => {
    const helmet = await seedWorkerWithHelmet(t.db, fixture.siteId, 'MQTT-H7');
    const before = rig.ingest.stats().rejected.unknownTag;
    await send('positions', positionAt(fixture, helmet.tag, POINTS.fitOut, 5), other.siteId);
    expect(await positionRows(helmet)).toHaveLength(0);
    expect(rig.ingest.stats().rejected.unknownTag).toBe(before + 1);
  });
});
