import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { and, asc, eq } from 'drizzle-orm';
import { Server } from 'socket.io';
import { io as connectSocket, type Socket } from 'socket.io-client';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { crewAssignments, crews, incidents, workers, workPermits } from '../../server/db/schema';
import type { LivePublisher } from '../../server/live/liveChanges';
import type { LiveServer } from '../../server/live/liveSocketTypes';
import { createIncidentFeed } from '../../server/safety/incidentFeed';
import { selectIncidents } from '../../server/safety/incidentStore';
import { SAFETY_EVENTS, type SafetyEventsBatch, safetyRoom } from '../../src/domain/evacuation';
import type { TopicKind } from '../../src/domain/live';
import type { PermitStatus, PermitType } from '../../src/domain/workPermits';
import {
  type DemoFloorFixture,
  demoFloor,
  type HelmetFixture,
  positionAt,
  seedWorkerWithHelmet,
} from './helpers/ingestFixture';
import { startTestApp, type TestApp } from './helpers/testApp';
import { startTestBroker, type TestBroker } from './helpers/testBroker';
import { type IngestWithSender, startIngestWithSender } from './helpers/testIngest';

/**
 * Issue 19: an active hot-work permit's area is a zone for alerts. A helmet whose worker is not
 * of the holder crew (or subcontractor) stepping from outside into the area raises one
 * permitAreaEntry incident naming the permit, published on safetyEvents; the holder's own
 * workers, other permit types and permits not in force raise nothing.
 */

const HOUR = 3_600_000;
/** Away from the demo zones of Level 1, so only permits can raise anything there. */
const OUTSIDE: readonly [number, number] = [0.55, 0.1];
const INSIDE: readonly [number, number] = [0.7, 0.25];

describe('permit area entries raised at ingest', () => {
  let t: TestApp;
  let broker: TestBroker;
  let ingest: IngestWithSender;
  let fixture: DemoFloorFixture;
  let httpServer: HttpServer;
  let io: Server;
  let watcher: Socket;
  let holderCrewId: number;
  let otherCrewId: number;
  let serial = 0;
  const received: SafetyEventsBatch[] = [];

  beforeAll(async () => {
    t = await startTestApp();
    broker = await startTestBroker();
    fixture = await demoFloor(t.db);
    const [holder] = await t.db.insert(crews).values({ siteId: fixture.siteId, name: 'Welders' }).returning();
    const [other] = await t.db.insert(crews).values({ siteId: fixture.siteId, name: 'Painters' }).returning();
    holderCrewId = holder.id;
    otherCrewId = other.id;

    httpServer = createServer();
    io = new Server(httpServer);
    io.on('connection', (socket) => socket.join(safetyRoom(Number(socket.handshake.query.siteId))));
    await new Promise<void>((resolve) => httpServer.listen(0, '127.0.0.1', resolve));
    const feed = createIncidentFeed(io as unknown as LiveServer, t.db);
    const publisher: LivePublisher = {
      async publish() {},
      publishIncidents: (siteId, ids) => feed.publishIncidents(siteId, ids),
    };
    const { port } = httpServer.address() as AddressInfo;
    watcher = connectSocket(`http://127.0.0.1:${port}`, {
      query: { siteId: String(fixture.siteId) },
      transports: ['websocket'],
    });
    watcher.on(SAFETY_EVENTS.safetyEvents, (batch: SafetyEventsBatch) => received.push(batch));
    await vi.waitFor(() => expect(watcher.connected).toBe(true));
    ingest = await startIngestWithSender(t, broker, publisher);
  }, 180_000);
  afterAll(async () => {
    watcher?.close();
    await ingest?.close();
    await broker?.close();
    io?.close();
    await t?.close();
  });

  // Each case's permits end with it: an area left active would alert the next case's walkers.
  afterEach(async () => {
    await t.db.update(workPermits).set({ status: 'closed' }).where(eq(workPermits.floorId, fixture.floor.id));
  });

  const send = (kind: TopicKind, payload: unknown) => ingest.send(fixture.siteId, kind, payload);

  /** A permit over the box (0.6, 0.15)–(0.8, 0.35) of Level 1, valid from an hour ago for 8 hours. */
  async function insertPermit(
    options: {
      type?: PermitType;
      status?: PermitStatus;
      crewId?: number | null;
      subcontractorId?: number | null;
      fromMs?: number;
      toMs?: number;
    } = {},
  ) {
    const corner = (x: number, y: number): [number, number] => {
      const { long, lat } = fixture.at(x, y);
      return [long, lat];
    };
    const now = Date.now();
    const [permit] = await t.db
      .insert(workPermits)
      .values({
        siteId: fixture.siteId,
        floorId: fixture.floor.id,
        number: `PTW-T${++serial}`,
        type: options.type ?? 'hotWork',
        status: options.status ?? 'active',
        area: [corner(0.6, 0.15), corner(0.8, 0.15), corner(0.8, 0.35), corner(0.6, 0.35)],
        holderCrewId: options.subcontractorId ? null : (options.crewId ?? holderCrewId),
        holderSubcontractorId: options.subcontractorId ?? null,
        validFrom: new Date(options.fromMs ?? now - HOUR),
        validTo: new Date(options.toMs ?? now + 8 * HOUR),
      })
      .returning();
    return permit;
  }

  async function workerOfCrew(tag: string, crewId: number): Promise<HelmetFixture> {
    const helmet = await seedWorkerWithHelmet(t.db, fixture.siteId, tag);
    await t.db
      .insert(crewAssignments)
      .values({ crewId, workerId: helmet.workerId, assignedAt: '2020-01-01' });
    return helmet;
  }

  const permitIncidentsOf = (helmet: HelmetFixture) =>
    t.db
      .select()
      .from(incidents)
      .where(and(eq(incidents.inventoryItemId, helmet.inventoryId), eq(incidents.type, 'permitAreaEntry')))
      .orderBy(asc(incidents.ts));

  /** Walks the helmet from outside into the area (and stays a moment). */
  async function walkIn(helmet: HelmetFixture) {
    await send('positions', positionAt(fixture, helmet.tag, OUTSIDE, 40));
    await send('positions', positionAt(fixture, helmet.tag, INSIDE, 30));
    await send('positions', positionAt(fixture, helmet.tag, INSIDE, 20));
  }

  it('raises one incident when a worker of another crew walks into an active hot-work area, published with the permit', async () => {
    const permit = await insertPermit();
    const painter = await workerOfCrew('PTW-PAINTER', otherCrewId);
    await send('positions', positionAt(fixture, painter.tag, OUTSIDE, 50));
    const entry = positionAt(fixture, painter.tag, INSIDE, 40);
    await send('positions', entry);
    await send('positions', entry);
    await send('positions', positionAt(fixture, painter.tag, INSIDE, 30));

    const rows = await permitIncidentsOf(painter);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      workPermitId: permit.id,
      workerId: painter.workerId,
      floorId: fixture.floor.id,
      status: 'open',
      ts: new Date(entry.ts),
    });
    await vi.waitFor(() => {
      const mine = received.flatMap((b) => b.incidents).filter((i) => i.wntInventoryId === painter.tag);
      expect(mine.map((i) => [i.type, i.permit?.number, i.permit?.type])).toEqual([
        ['permitAreaEntry', permit.number, 'hotWork'],
      ]);
    });

    // Leaving and coming back is a second entry.
    await send('positions', positionAt(fixture, painter.tag, OUTSIDE, 20));
    await send('positions', positionAt(fixture, painter.tag, INSIDE, 10));
    expect(await permitIncidentsOf(painter)).toHaveLength(2);
    await t.db.update(workPermits).set({ status: 'closed' }).where(eq(workPermits.id, permit.id));
  });

  it('lists the incident with the permit as the safety screens read it', async () => {
    const permit = await insertPermit();
    const painter = await workerOfCrew('PTW-LISTED', otherCrewId);
    await walkIn(painter);
    const listed = await selectIncidents(t.db, {
      siteId: fixture.siteId,
      from: new Date(Date.now() - HOUR),
      until: new Date(Date.now() + HOUR),
    });
    expect(listed.filter((incident) => incident.wntInventoryId === painter.tag)).toEqual([
      expect.objectContaining({
        type: 'permitAreaEntry',
        workerName: painter.workerName,
        permit: { id: permit.id, number: permit.number, type: 'hotWork' },
      }),
    ]);
  });

  it("raises nothing for the holder crew's own workers, nor for the holder subcontractor's", async () => {
    const permit = await insertPermit();
    const welder = await workerOfCrew('PTW-WELDER', holderCrewId);
    await walkIn(welder);
    expect(await permitIncidentsOf(welder)).toEqual([]);

    const subcontracted = await seedWorkerWithHelmet(t.db, fixture.siteId, 'PTW-SUB');
    const [worker] = await t.db.select().from(workers).where(eq(workers.id, subcontracted.workerId));
    await t.db.update(workPermits).set({ status: 'closed' }).where(eq(workPermits.id, permit.id));
    const bySubcontractor = await insertPermit({ subcontractorId: worker.subcontractorId });
    await walkIn(subcontracted);
    expect(await permitIncidentsOf(subcontracted)).toEqual([]);
    await t.db.update(workPermits).set({ status: 'closed' }).where(eq(workPermits.id, bySubcontractor.id));
  });

  it('raises nothing for permits not in force or not hot work', async () => {
    const now = Date.now();
    const cases = [
      { status: 'draft' as const },
      { status: 'suspended' as const },
      { fromMs: now - 9 * HOUR, toMs: now - HOUR },
      { fromMs: now + HOUR, toMs: now + 2 * HOUR },
      { type: 'workAtHeight' as const },
    ];
    for (const [index, options] of cases.entries()) {
      const permit = await insertPermit(options);
      const painter = await workerOfCrew(`PTW-QUIET-${index}`, otherCrewId);
      await walkIn(painter);
      expect(await permitIncidentsOf(painter), JSON.stringify(options)).toEqual([]);
      await t.db.delete(workPermits).where(eq(workPermits.id, permit.id));
    }
  });

  it('reads the current crew: a later assignment to the holder crew makes a holder', async () => {
    const permit = await insertPermit();
    const mover = await workerOfCrew('PTW-MOVER', otherCrewId);
    await t.db
      .insert(crewAssignments)
      .values({ crewId: holderCrewId, workerId: mover.workerId, assignedAt: '2021-01-01' });
    await walkIn(mover);
    expect(await permitIncidentsOf(mover)).toEqual([]);
    await t.db.update(workPermits).set({ status: 'closed' }).where(eq(workPermits.id, permit.id));
  });
});
