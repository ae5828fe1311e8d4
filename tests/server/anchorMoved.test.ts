import type { AddressInfo } from 'node:net';
import { and, asc, eq } from 'drizzle-orm';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../../server/app';
import { demoEmail } from '../../server/db/demoSeed';
import {
  emailOutbox,
  incidentEvents,
  incidents,
  inventoryItems,
  nodeDiagnostics,
  users,
} from '../../server/db/schema';
import { buildSafetyApp, type SafetyLive, startLive } from '../../server/safety/safetyApp';
import { SAFETY_EVENTS, type SafetyEventsBatch } from '../../src/domain/evacuation';
import type { SafetyIncident } from '../../src/domain/incidents';
import { MAINTENANCE_MESSAGES } from '../../src/domain/maintenanceSettings';
import type { Role } from '../../src/domain/roles';
import { type DemoFloorFixture, demoFloor, seedWorkerWithHelmet } from './helpers/ingestFixture';
import { connectLive, type LiveClient } from './helpers/liveClient';
import { type OtherTenant, seedOtherTenant } from './helpers/otherTenant';
import { startTestApp, type TestApp } from './helpers/testApp';
import { startTestBroker, type TestBroker } from './helpers/testBroker';
import { type IngestWithSender, startIngestWithSender } from './helpers/testIngest';

/** Metres per degree of latitude on spec §9's earth. */
const METRES_PER_DEGREE = (6_371_000 * Math.PI) / 180;
const HOUR = 3_600_000;

interface Anchor {
  id: number;
  nodeId: string;
  placed: { lat: number; long: number };
  /** Reports are stamped this many seconds after it: a quarter of an hour ago. */
  baseMs: number;
}

describe('"anchor moved" incidents', () => {
  let t: TestApp;
  let broker: TestBroker;
  let rig: IngestWithSender;
  let fixture: DemoFloorFixture;
  let safety: FastifyInstance;
  let live: SafetyLive;
  /** The main listener with the same fan-out as the server's (re-approval publishes). */
  let api: FastifyInstance;
  let watcher: LiveClient;
  let other: OtherTenant;
  const tokens = {} as Record<Role, string>;
  const heard: SafetyIncident[] = [];
  /** The escalation scheduler's clock runs this far ahead of the wall clock. */
  let ahead = 0;

  beforeAll(async () => {
    t = await startTestApp();
    broker = await startTestBroker(t.db);
    fixture = await demoFloor(t.db);
    other = await seedOtherTenant(t.db);
    safety = await buildSafetyApp({ db: t.db, config: t.config });
    live = await startLive({
      app: safety,
      db: t.db,
      config: { redisUrl: undefined, publicUrl: t.config.publicUrl },
      escalation: { now: () => new Date(Date.now() + ahead), intervalMs: 100 },
    });
    await safety.listen({ port: 0, host: '127.0.0.1' });
    api = await buildApp({ db: t.db, config: t.config, publisher: live.publisher });
    await api.ready();
    for (const role of ['group-of-sites-admin', 'group-of-sites-viewer', 'site-engineer'] as const)
      tokens[role] = await t.loginAs(role);
    watcher = connectLive(`http://127.0.0.1:${(safety.server.address() as AddressInfo).port}`, {
      token: tokens['group-of-sites-admin'],
      siteId: fixture.siteId,
    });
    watcher.socket.on(SAFETY_EVENTS.safetyEvents, (batch: SafetyEventsBatch) =>
      heard.push(...batch.incidents),
    );
    await vi.waitFor(() => expect(watcher.socket.connected).toBe(true));
    rig = await startIngestWithSender(t, broker, live.publisher);

    // Incidents of the site climb to level 1 after a minute unacknowledged, to level 2 two minutes later.
    const saved = await safety.inject({
      method: 'PUT',
      url: `/api/safety/sites/${fixture.siteId}/settings`,
      headers: { authorization: `Bearer ${tokens['group-of-sites-admin']}` },
      payload: {
        possiblyInsideHours: null,
        escalationLevels: [
          { level: 1, afterMinutes: 1, contacts: 'site', recipients: [] },
          { level: 2, afterMinutes: 2, contacts: 'site', recipients: [] },
        ],
      },
    });
    expect(saved.statusCode, saved.body).toBe(200);
  });
  afterAll(async () => {
    watcher?.close();
    await rig?.close();
    await api?.close();
    await live?.close();
    await safety?.close();
    await broker?.close();
    await t?.close();
  });

  async function call(token: string, options: InjectOptions) {
    const response = await api.inject({
      ...options,
      headers: { ...(options.headers ?? {}), authorization: `Bearer ${token}` },
    });
    return { status: response.statusCode, json: response.json() };
  }
  const settingsUrl = (siteId = fixture.siteId) => `/api/sites/${siteId}/maintenance-settings`;
  const putThreshold = (metres: unknown, token = tokens['site-engineer'], siteId = fixture.siteId) =>
    call(token, { method: 'PUT', url: settingsUrl(siteId), payload: { anchorMovedThresholdMetres: metres } });

  /** An approved anchor placed on Level 1 at a point (fractions of the floor). */
  async function seedAnchor(nodeId: string, at: [number, number]): Promise<Anchor> {
    const placed = fixture.at(at[0], at[1]);
    const [row] = await t.db
      .insert(inventoryItems)
      .values({
        siteId: fixture.siteId,
        wntInventoryId: nodeId,
        type: 'anchor',
        floorId: fixture.floor.id,
        ...placed,
        isApproved: true,
      })
      .returning();
    return { id: row.id, nodeId, placed, baseMs: Date.now() - 15 * 60_000 };
  }

  /** The anchor's report `second` seconds after its base, `metres` north of where it was placed. */
  const reportOf = (anchor: Anchor, second: number, metres: number) => ({
    networkId: 1,
    nodeId: anchor.nodeId,
    type: 'anchor',
    bufferUsage: 10,
    linkQuality: 85,
    batteryVoltage: 3.6,
    displacementError: 0,
    ts: new Date(anchor.baseMs + second * 1000).toISOString(),
    lat: anchor.placed.lat + metres / METRES_PER_DEGREE,
    long: anchor.placed.long,
  });
  const send = (anchor: Anchor, reports: [second: number, metres: number][]) =>
    rig.send(
      fixture.siteId,
      'nodes',
      reports.map(([second, metres]) => reportOf(anchor, second, metres)),
    );
  const at = (anchor: Anchor, second: number) => new Date(anchor.baseMs + second * 1000);

  const incidentsOf = (anchor: Anchor) =>
    t.db
      .select()
      .from(incidents)
      .where(and(eq(incidents.inventoryItemId, anchor.id), eq(incidents.type, 'anchorMoved')))
      .orderBy(asc(incidents.ts));
  const eventsOf = async (incidentId: number) =>
    (
      await t.db
        .select({ kind: incidentEvents.kind })
        .from(incidentEvents)
        .where(eq(incidentEvents.incidentId, incidentId))
        .orderBy(asc(incidentEvents.id))
    ).map((event) => event.kind);
  const displacedSince = async (anchor: Anchor) =>
    (await t.db.select().from(inventoryItems).where(eq(inventoryItems.id, anchor.id)))[0].displacedSince;
  const heardOf = (incidentId: number) => heard.filter((incident) => incident.id === incidentId);

  describe('raised and resolved by the anchor reports', () => {
    let anchor: Anchor;

    beforeAll(async () => {
      anchor = await seedAnchor('AM-1', [0.3, 0.3]);
    });

    it('raises one incident once the anchor has been over the threshold for a minute, not at 59 s', async () => {
      await send(anchor, [[0, 0.5]]);
      expect(await displacedSince(anchor)).toEqual(at(anchor, 0));
      await send(anchor, [[59, 0.5]]);
      expect(await incidentsOf(anchor)).toEqual([]);

      await send(anchor, [[60, 0.5]]);
      const [raised, ...more] = await incidentsOf(anchor);
      expect(more).toEqual([]);
      expect(raised).toMatchObject({
        siteId: fixture.siteId,
        type: 'anchorMoved',
        status: 'open',
        workerId: null,
        floorId: fixture.floor.id,
        ts: at(anchor, 60),
        level: 0,
        nextEscalationAt: null,
      });
      await vi.waitFor(() =>
        expect(heardOf(raised.id)).toEqual([
          expect.objectContaining({
            type: 'anchorMoved',
            status: 'open',
            wntInventoryId: 'AM-1',
            workerId: null,
            workerName: null,
            floorName: 'Level 1',
          }),
        ]),
      );
    });

    it('raises nothing more for later, redelivered or late reports of the same displacement', async () => {
      await send(anchor, [
        [60, 0.5],
        [30, 0.5],
        [90, 0.8],
      ]);
      await send(anchor, [[150, 1.2]]);
      await send(anchor, [[60, 0.5]]);
      const rows = await incidentsOf(anchor);
      expect(rows).toHaveLength(1);
      expect(rows[0].status).toBe('open');
      expect(await eventsOf(rows[0].id)).toEqual(['raised']);
      expect(await displacedSince(anchor)).toEqual(at(anchor, 0));
    });

    it('never escalates it on its own, while an SOS of the same site does', async () => {
      const helmet = await seedWorkerWithHelmet(t.db, fixture.siteId, 'AM-SOS');
      await rig.send(fixture.siteId, 'events', {
        tag: helmet.tag,
        ts: new Date(Date.now() - 5_000).toISOString(),
        type: 'sos',
      });
      ahead = HOUR;
      live.escalations.wake();
      const [sos] = await t.db
        .select()
        .from(incidents)
        .where(eq(incidents.inventoryItemId, helmet.inventoryId));
      await vi.waitFor(
        async () => {
          const [row] = await t.db.select().from(incidents).where(eq(incidents.id, sos.id));
          expect(row).toMatchObject({ status: 'escalated', level: 1 });
        },
        { timeout: 5000 },
      );
      ahead = 0;
      const [moved] = await incidentsOf(anchor);
      expect(moved).toMatchObject({ status: 'open', level: 0, nextEscalationAt: null, escalatedAt: null });
    });

    it('resolves it once when the anchor is back within the threshold', async () => {
      const [open] = await incidentsOf(anchor);
      await send(anchor, [[180, 0.1]]);
      const [resolved] = await incidentsOf(anchor);
      expect(resolved).toMatchObject({
        id: open.id,
        status: 'resolved',
        resolvedAt: at(anchor, 180),
        resolvedBy: null,
      });
      expect(await displacedSince(anchor)).toBeNull();
      await vi.waitFor(() =>
        expect(heardOf(open.id).map((incident) => incident.status)).toEqual(['open', 'resolved']),
      );

      // Redelivered, late (displaced, but older than the last report) and further good reports.
      await send(anchor, [
        [180, 0.1],
        [170, 0.9],
        [200, 0.2],
      ]);
      expect(await incidentsOf(anchor)).toHaveLength(1);
      expect(await eventsOf(open.id)).toEqual(['raised', 'resolved']);
      expect(await displacedSince(anchor)).toBeNull();
    });

    it('raises a new incident when the anchor is moved again', async () => {
      await send(anchor, [
        [240, 0.6],
        [299, 0.6],
      ]);
      expect(await incidentsOf(anchor)).toHaveLength(1);
      await send(anchor, [[300, 0.6]]);
      const rows = await incidentsOf(anchor);
      expect(rows.map((row) => [row.status, row.ts.getTime()])).toEqual([
        ['resolved', at(anchor, 60).getTime()],
        ['open', at(anchor, 300).getTime()],
      ]);
    });

    it('escalated by hand, names the anchor in the e-mail and still does not climb on its own', async () => {
      const [, open] = await incidentsOf(anchor);
      const mailsBefore = (await t.db.select({ id: emailOutbox.id }).from(emailOutbox)).map((m) => m.id);
      const escalated = await safety.inject({
        method: 'POST',
        url: '/api/safety/incident/escelate',
        headers: { authorization: `Bearer ${tokens['group-of-sites-admin']}` },
        payload: { incidentId: open.id },
      });
      expect(escalated.statusCode, escalated.body).toBe(200);
      const [row] = await t.db.select().from(incidents).where(eq(incidents.id, open.id));
      expect(row).toMatchObject({ status: 'escalated', level: 1, nextEscalationAt: null });
      const mails = (await t.db.select().from(emailOutbox)).filter((m) => !mailsBefore.includes(m.id));
      expect(mails.length).toBeGreaterThan(0);
      expect(mails[0].subject).toContain('Anchor moved — anchor AM-1');
      expect(mails[0].body).toContain('Node: AM-1');
      expect(mails[0].body).not.toContain('Worker:');

      ahead = 3 * HOUR;
      live.escalations.wake();
      await new Promise((resolve) => setTimeout(resolve, 500));
      ahead = 0;
      const [after] = await t.db.select().from(incidents).where(eq(incidents.id, open.id));
      expect(after).toMatchObject({ status: 'escalated', level: 1, nextEscalationAt: null });
    });
  });

  it('is resolved by placing the anchor again through the installation route, by that person', async () => {
    const anchor = await seedAnchor('AM-2', [0.6, 0.3]);
    await send(anchor, [
      [0, 0.7],
      [60, 0.7],
    ]);
    const [open] = await incidentsOf(anchor);
    expect(open.status).toBe('open');

    const standing = reportOf(anchor, 60, 0.7);
    const before = Date.now();
    const placed = await call(tokens['group-of-sites-admin'], {
      method: 'POST',
      url: `/api/floors/${fixture.floor.id}/inventory/${anchor.id}`,
      payload: { lat: standing.lat, long: standing.long, is_approved: true },
    });
    expect(placed.status, JSON.stringify(placed.json)).toBe(200);

    const [admin] = await t.db
      .select({ id: users.id })
      .from(users)
      .where(eq(users.email, demoEmail('group-of-sites-admin')));
    const [resolved] = await incidentsOf(anchor);
    expect(resolved).toMatchObject({ id: open.id, status: 'resolved', resolvedBy: admin.id });
    expect(resolved.resolvedAt?.getTime()).toBeGreaterThanOrEqual(before - 1000);
    expect(await displacedSince(anchor)).toBeNull();
    expect(await eventsOf(open.id)).toEqual(['raised', 'resolved']);
    await vi.waitFor(() =>
      expect(heardOf(open.id).at(-1)).toMatchObject({
        status: 'resolved',
        resolvedBy: { id: admin.id, name: expect.any(String) },
      }),
    );

    // Where it stands now is where it belongs: its next report is not displaced.
    await send(anchor, [
      [90, 0.7],
      [160, 0.7],
    ]);
    const [latest] = await t.db
      .select({ displacement: nodeDiagnostics.displacementError })
      .from(nodeDiagnostics)
      .where(and(eq(nodeDiagnostics.inventoryItemId, anchor.id), eq(nodeDiagnostics.ts, at(anchor, 160))));
    expect(latest.displacement).toBeCloseTo(0, 6);
    expect(await incidentsOf(anchor)).toHaveLength(1);
    expect(await displacedSince(anchor)).toBeNull();
  });

  it('is resolved once by re-approving the anchor where it now stands, by that person', async () => {
    const anchor = await seedAnchor('AM-4', [0.3, 0.7]);
    await send(anchor, [
      [0, 0.8],
      [60, 0.8],
    ]);
    const [open] = await incidentsOf(anchor);
    expect(open.status).toBe('open');

    const standing = reportOf(anchor, 60, 0.8);
    const approve = () =>
      call(tokens['site-engineer'], {
        method: 'POST',
        url: '/api/installation/anchor/approve',
        payload: {
          inventory_id: anchor.id,
          floor_id: fixture.floor.id,
          lat: standing.lat,
          long: standing.long,
        },
      });
    const before = Date.now();
    const approved = await approve();
    expect(approved.status, JSON.stringify(approved.json)).toBe(200);
    expect(approved.json.data).toMatchObject({
      coordinates: { lat: standing.lat, long: standing.long },
      is_approved: true,
    });

    const [engineer] = await t.db
      .select({ id: users.id })
      .from(users)
      .where(eq(users.email, demoEmail('site-engineer')));
    const [resolved, ...more] = await incidentsOf(anchor);
    expect(more).toEqual([]);
    expect(resolved).toMatchObject({ id: open.id, status: 'resolved', resolvedBy: engineer.id });
    expect(resolved.resolvedAt?.getTime()).toBeGreaterThanOrEqual(before - 1000);
    expect(await displacedSince(anchor)).toBeNull();
    expect(await eventsOf(open.id)).toEqual(['raised', 'resolved']);
    await vi.waitFor(() =>
      expect(heardOf(open.id).at(-1)).toMatchObject({
        status: 'resolved',
        resolvedBy: { id: engineer.id, name: expect.any(String) },
      }),
    );

    // Approving it again where it stands has nothing left to resolve.
    expect((await approve()).status).toBe(200);
    const [again] = await incidentsOf(anchor);
    expect(again.resolvedAt).toEqual(resolved.resolvedAt);
    expect(await eventsOf(open.id)).toEqual(['raised', 'resolved']);

    // Measured from its new place, reports there for longer than the hold are not displaced.
    await send(anchor, [
      [90, 0.8],
      [160, 0.8],
    ]);
    const [latest] = await t.db
      .select({ displacement: nodeDiagnostics.displacementError })
      .from(nodeDiagnostics)
      .where(and(eq(nodeDiagnostics.inventoryItemId, anchor.id), eq(nodeDiagnostics.ts, at(anchor, 160))));
    expect(latest.displacement).toBeCloseTo(0, 6);
    expect(await incidentsOf(anchor)).toHaveLength(1);
    expect(await displacedSince(anchor)).toBeNull();
    expect(heardOf(open.id).map((incident) => incident.status)).toEqual(['open', 'resolved']);
  });

  it('lists anchor-moved incidents in the incident list with the node and no worker', async () => {
    const today = new Date().toISOString().slice(0, 10);
    const yesterday = new Date(Date.now() - 24 * HOUR).toISOString().slice(0, 10);
    const response = await safety.inject({
      method: 'GET',
      url: `/api/safety/incident/getAll/${fixture.siteId}/${yesterday}/${today}`,
      headers: { authorization: `Bearer ${tokens['group-of-sites-admin']}` },
    });
    expect(response.statusCode, response.body).toBe(200);
    const listed = (response.json().data as SafetyIncident[]).filter((i) => i.type === 'anchorMoved');
    expect(
      listed.map((i) => [i.wntInventoryId, i.status, i.workerId, i.workerName, i.floorName]).sort(),
    ).toEqual([
      ['AM-1', 'escalated', null, null, 'Level 1'],
      ['AM-1', 'resolved', null, null, 'Level 1'],
      ['AM-2', 'resolved', null, null, 'Level 1'],
      ['AM-4', 'resolved', null, null, 'Level 1'],
    ]);
  });

  it("judges the reports with the site's threshold, a change applying from the next report", async () => {
    const raised = await putThreshold(2);
    expect(raised.status).toBe(200);
    expect(raised.json).toMatchObject({
      message: MAINTENANCE_MESSAGES.saved,
      data: { anchorMovedThresholdMetres: 2 },
    });
    const read = await call(tokens['group-of-sites-admin'], { method: 'GET', url: settingsUrl() });
    expect(read.json.data).toEqual({ anchorMovedThresholdMetres: 2 });

    const anchor = await seedAnchor('AM-3', [0.5, 0.6]);
    await send(anchor, [
      [0, 0.5],
      [60, 0.5],
      [120, 0.5],
    ]);
    expect(await incidentsOf(anchor)).toEqual([]);
    expect(await displacedSince(anchor)).toBeNull();

    expect((await putThreshold(0.3)).status).toBe(200);
    await send(anchor, [[130, 0.5]]);
    expect(await displacedSince(anchor)).toEqual(at(anchor, 130));
    await send(anchor, [[189, 0.5]]);
    expect(await incidentsOf(anchor)).toEqual([]);
    await send(anchor, [[190, 0.5]]);
    expect((await incidentsOf(anchor)).map((row) => row.ts)).toEqual([at(anchor, 190)]);
  });

  it('refuses thresholds out of range with the range, roles without maintenance and other tenants', async () => {
    for (const metres of [0.01, 10.5, -1]) {
      const refused = await putThreshold(metres);
      expect(refused.status).toBe(422);
      expect(refused.json).toMatchObject({
        status: 'error',
        message: 'The anchor-moved threshold must be from 0.05 to 10 metres',
        errors: { anchorMovedThresholdMetres: MAINTENANCE_MESSAGES.thresholdRange },
      });
    }
    const notANumber = await putThreshold('far');
    expect(notANumber.status).toBe(422);
    expect(Object.keys(notANumber.json.errors)).toEqual(['anchorMovedThresholdMetres']);
    const missing = await call(tokens['site-engineer'], { method: 'PUT', url: settingsUrl(), payload: {} });
    expect(missing.status).toBe(422);
    // Nothing refused was stored.
    const read = await call(tokens['site-engineer'], { method: 'GET', url: settingsUrl() });
    expect(read.json.data).toEqual({ anchorMovedThresholdMetres: 0.3 });

    // A viewer of the site has no maintenance area.
    expect((await call(tokens['group-of-sites-viewer'], { method: 'GET', url: settingsUrl() })).status).toBe(
      403,
    );
    expect((await putThreshold(1, tokens['group-of-sites-viewer'])).status).toBe(403);

    // Another client's site is unknown to this site's admin, and this site to the other's.
    const foreignRead = await call(tokens['group-of-sites-admin'], {
      method: 'GET',
      url: settingsUrl(other.siteId),
    });
    expect(foreignRead).toMatchObject({ status: 404, json: { message: 'Site not found' } });
    expect((await putThreshold(1, tokens['group-of-sites-admin'], other.siteId)).status).toBe(404);
    const otherAdmin = await t.login(other.email('group-of-sites-admin'));
    expect((await putThreshold(1, otherAdmin)).status).toBe(404);
    expect((await call(otherAdmin, { method: 'GET', url: settingsUrl(other.siteId) })).json.data).toEqual({
      anchorMovedThresholdMetres: 0.3,
    });
    expect((await call(tokens['site-engineer'], { method: 'GET', url: settingsUrl() })).json.data).toEqual({
      anchorMovedThresholdMetres: 0.3,
    });
  });
});
