import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { asc, eq } from 'drizzle-orm';
import { Server } from 'socket.io';
import { io as connectSocket, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { incidents } from '../../server/db/schema';
import type { LivePublisher } from '../../server/live/liveChanges';
import type { LiveServer } from '../../server/live/liveSocketTypes';
import { createIncidentFeed } from '../../server/safety/incidentFeed';
import { SAFETY_EVENTS, type SafetyEventsBatch, safetyRoom } from '../../src/domain/evacuation';
import type { TopicKind } from '../../src/domain/live';
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
import { type IngestWithSender, startIngestWithSender } from './helpers/testIngest';

/** Inside the demo floor's restricted "Stair core". */
const STAIR_CORE: readonly [number, number] = [0.1, 0.25];

describe('incidents raised at ingest', () => {
  let t: TestApp;
  let broker: TestBroker;
  let ingest: IngestWithSender;
  let fixture: DemoFloorFixture;
  let httpServer: HttpServer;
  let io: Server;
  let watcher: Socket;
  const received: SafetyEventsBatch[] = [];
  const publishedIds: number[] = [];

  beforeAll(async () => {
    t = await startTestApp();
    broker = await startTestBroker();
    fixture = await demoFloor(t.db);

    // A socket.io server whose sockets join their site's safety room, as the live channel's do.
    httpServer = createServer();
    io = new Server(httpServer);
    io.on('connection', (socket) => socket.join(safetyRoom(Number(socket.handshake.query.siteId))));
    await new Promise<void>((resolve) => httpServer.listen(0, '127.0.0.1', resolve));
    const feed = createIncidentFeed(io as unknown as LiveServer, t.db);
    const publisher: LivePublisher = {
      async publish() {},
      async publishIncidents(siteId, ids) {
        publishedIds.push(...ids);
        await feed.publishIncidents(siteId, ids);
      },
    };
    const { port } = httpServer.address() as AddressInfo;
    watcher = connectSocket(`http://127.0.0.1:${port}`, {
      query: { siteId: String(fixture.siteId) },
      transports: ['websocket'],
    });
    watcher.on(SAFETY_EVENTS.safetyEvents, (batch: SafetyEventsBatch) => received.push(batch));
    await vi.waitFor(() => expect(watcher.connected).toBe(true));

    ingest = await startIngestWithSender(t, broker, publisher);
  });
  afterAll(async () => {
    watcher?.close();
    await ingest?.close();
    await broker?.close();
    io?.close();
    await t?.close();
  });

  const send = (kind: TopicKind, payload: unknown) => ingest.send(fixture.siteId, kind, payload);

  const incidentsOf = (helmet: HelmetFixture) =>
    t.db
      .select()
      .from(incidents)
      .where(eq(incidents.inventoryItemId, helmet.inventoryId))
      .orderBy(asc(incidents.ts));

  it('raises an incident for an SOS where the helmet was, once however often it is delivered', async () => {
    const helmet = await seedWorkerWithHelmet(t.db, fixture.siteId, 'INC-SOS');
    await send('positions', positionAt(fixture, helmet.tag, POINTS.fitOut, 30));
    const sos = { tag: helmet.tag, ts: new Date(Date.now() - 10_000).toISOString(), type: 'sos' };
    await send('events', sos);
    await send('events', sos);

    const rows = await incidentsOf(helmet);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      siteId: fixture.siteId,
      type: 'sos',
      status: 'open',
      workerId: helmet.workerId,
      floorId: fixture.floor.id,
      zoneId: fixture.zoneId('Fit-out area'),
      ts: new Date(sos.ts),
    });

    await vi.waitFor(() => {
      const mine = received.flatMap((b) => b.incidents).filter((i) => i.wntInventoryId === helmet.tag);
      expect(mine).toHaveLength(1);
      expect(mine[0]).toMatchObject({
        id: rows[0].id,
        type: 'sos',
        workerName: helmet.workerName,
        floorName: 'Level 1',
        zoneName: 'Fit-out area',
        status: 'open',
      });
    });
    expect(received.every((b) => b.siteId === fixture.siteId)).toBe(true);
    expect(publishedIds.filter((id) => id === rows[0].id)).toHaveLength(1);
  });

  it('raises fall and no-motion alarms but not an acknowledge press', async () => {
    const helmet = await seedWorkerWithHelmet(t.db, fixture.siteId, 'INC-ALARMS');
    const ts = (secondsAgo: number) => new Date(Date.now() - secondsAgo * 1000).toISOString();
    await send('events', [
      { tag: helmet.tag, ts: ts(30), type: 'acknowledge' },
      { tag: helmet.tag, ts: ts(20), type: 'fall' },
      { tag: helmet.tag, ts: ts(10), type: 'noMotion' },
    ]);
    const rows = await incidentsOf(helmet);
    expect(rows.map((r) => r.type)).toEqual(['fall', 'noMotion']);
    // Never seen on a floor: the incident has no place yet.
    expect(rows[0]).toMatchObject({ floorId: null, zoneId: null });
  });

  it('raises an incident when a helmet enters a restricted zone, not for work zones, once on redelivery', async () => {
    const helmet = await seedWorkerWithHelmet(t.db, fixture.siteId, 'INC-ZONE');
    await send('positions', positionAt(fixture, helmet.tag, POINTS.fitOut, 50));
    await send('positions', positionAt(fixture, helmet.tag, POINTS.nowhere, 40));
    const entry = positionAt(fixture, helmet.tag, STAIR_CORE, 30);
    await send('positions', entry);
    await send('positions', entry);
    // Staying inside is not a new entry.
    await send('positions', positionAt(fixture, helmet.tag, STAIR_CORE, 20));

    const rows = await incidentsOf(helmet);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      type: 'restrictedZone',
      workerId: helmet.workerId,
      floorId: fixture.floor.id,
      zoneId: fixture.zoneId('Stair core'),
      ts: new Date(entry.ts),
    });
    await vi.waitFor(() => {
      const mine = received.flatMap((b) => b.incidents).filter((i) => i.wntInventoryId === helmet.tag);
      expect(mine.map((i) => [i.type, i.zoneName])).toEqual([['restrictedZone', 'Stair core']]);
    });

    // Leaving and coming back is a second entry.
    await send('positions', positionAt(fixture, helmet.tag, POINTS.nowhere, 10));
    await send('positions', positionAt(fixture, helmet.tag, STAIR_CORE, 5));
    expect(await incidentsOf(helmet)).toHaveLength(2);
  });

  it('raises one incident per helmet entering in one batch', async () => {
    const first = await seedWorkerWithHelmet(t.db, fixture.siteId, 'INC-BATCH-1');
    const second = await seedWorkerWithHelmet(t.db, fixture.siteId, 'INC-BATCH-2');
    await send('positions', [
      positionAt(fixture, first.tag, STAIR_CORE, 20),
      positionAt(fixture, second.tag, POINTS.eastWing, 20),
      positionAt(fixture, second.tag, STAIR_CORE, 10),
    ]);
    expect((await incidentsOf(first)).map((r) => r.type)).toEqual(['restrictedZone']);
    expect((await incidentsOf(second)).map((r) => r.type)).toEqual(['restrictedZone']);
  });
});
