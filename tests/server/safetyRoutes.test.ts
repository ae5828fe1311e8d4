import { randomUUID } from 'node:crypto';
import { and, asc, eq } from 'drizzle-orm';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  emailOutbox,
  evacuationSessions,
  evacuationWorkers,
  floors,
  incidents,
  inventoryItems,
  networks,
} from '../../server/db/schema';
import { buildSafetyApp } from '../../server/safety/safetyApp';
import type { Role } from '../../src/domain/roles';
import {
  type DemoFloorFixture,
  demoFloor,
  type HelmetFixture,
  seedWorkerWithHelmet,
} from './helpers/ingestFixture';
import { type OtherTenant, seedOtherTenant } from './helpers/otherTenant';
import { type Envelope, startTestApp, type TestApp } from './helpers/testApp';

const ROLES_USED = [
  'super-admin',
  'client-admin',
  'group-of-sites-admin',
  'group-of-sites-viewer',
  'crew-manager',
  'safety-demo',
] as const;

describe('safety REST routes', () => {
  let t: TestApp;
  let safety: FastifyInstance;
  let other: OtherTenant;
  let fixture: DemoFloorFixture;
  let meshId: number;
  let southMeshId: number;
  let otherClientAdmin: string;
  const tokens = {} as Record<Role, string>;

  beforeAll(async () => {
    t = await startTestApp();
    other = await seedOtherTenant(t.db);
    fixture = await demoFloor(t.db);
    // The safety listener's REST routes need no live channel.
    safety = await buildSafetyApp({ db: t.db, config: t.config });
    await safety.ready();
    [{ id: meshId }] = await t.db.select().from(networks).where(eq(networks.name, 'Tower A mesh'));
    [{ id: southMeshId }] = await t.db.select().from(networks).where(eq(networks.name, 'Tower A south mesh'));
    for (const role of ROLES_USED) tokens[role] = await t.loginAs(role);
    otherClientAdmin = await t.login(other.email('client-admin'));
  });
  afterAll(async () => {
    await safety?.close();
    await t?.close();
  });

  async function call(token: string | null, options: InjectOptions) {
    const headers = { ...(options.headers ?? {}), ...(token ? { authorization: `Bearer ${token}` } : {}) };
    const response = await safety.inject({ ...options, headers });
    let json: Envelope;
    try {
      json = response.json();
    } catch {
      json = { status: 'unparsed' };
    }
    return Object.assign(response, { json });
  }

  /** A worker's helmet, seen on a floor through a network. */
  async function helmetOn(
    tag: string,
    floorId: number,
    networkId: number,
    online = true,
  ): Promise<HelmetFixture> {
    const helmet = await seedWorkerWithHelmet(t.db, fixture.siteId, tag);
    await t.db
      .update(inventoryItems)
      .set({
        networkId,
        floorId,
        ...fixture.at(0.55, 0.5),
        isOnline: online,
        isActive: online,
        lastSeen: new Date(),
      })
      .where(eq(inventoryItems.id, helmet.inventoryId));
    return helmet;
  }

  describe('CORS for the console (PUBLIC_URL) on another port', () => {
    it('answers a preflight without a token, allowing the bearer header', async () => {
      const response = await call(null, {
        method: 'OPTIONS',
        url: '/api/safety/incident/escelate',
        headers: {
          origin: t.config.publicUrl,
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'authorization, content-type',
        },
      });
      expect(response.statusCode).toBe(204);
      expect(response.headers['access-control-allow-origin']).toBe(t.config.publicUrl);
      expect(String(response.headers['access-control-allow-headers'])).toMatch(/authorization/);
      expect(String(response.headers['access-control-allow-headers'])).toMatch(/content-type/);
      expect(String(response.headers['access-control-allow-methods'])).toMatch(/POST/);
    });

    it('lets the console read refusals too', async () => {
      const response = await call(null, {
        method: 'GET',
        url: `/api/safety/sites/${fixture.siteId}/networks`,
        headers: { origin: t.config.publicUrl },
      });
      expect(response.statusCode).toBe(401);
      expect(response.headers['access-control-allow-origin']).toBe(t.config.publicUrl);
    });
  });

  describe('POST /api/safety/getworkers', () => {
    it("lists the floor's helmets of that network with the evacuation fields", async () => {
      const onMesh = await helmetOn('SAFE-W1', fixture.floor.id, meshId);
      const offline = await helmetOn('SAFE-W2', fixture.floor.id, meshId, false);
      const otherMesh = await helmetOn('SAFE-W3', fixture.floor.id, southMeshId);
      const [ground] = await t.db
        .select()
        .from(floors)
        .where(and(eq(floors.buildingId, fixture.floor.buildingId), eq(floors.name, 'Ground Floor')));
      const otherFloor = await helmetOn('SAFE-W4', ground.id, meshId);
      const body = { networkId: meshId, blueprintId: fixture.floor.id };

      const before = await call(tokens['group-of-sites-admin'], {
        method: 'POST',
        url: '/api/safety/getworkers',
        payload: body,
      });
      expect(before.statusCode).toBe(200);
      const ids = before.json.data.map((w: { inventory_id: number }) => w.inventory_id);
      expect(ids).toContain(onMesh.inventoryId);
      expect(ids).toContain(offline.inventoryId);
      expect(ids).not.toContain(otherMesh.inventoryId);
      expect(ids).not.toContain(otherFloor.inventoryId);
      const find = (data: { inventory_id: number }[], helmet: HelmetFixture) =>
        data.find((w) => w.inventory_id === helmet.inventoryId);
      expect(find(before.json.data, onMesh)).toMatchObject({
        id: onMesh.workerId,
        name: onMesh.workerName,
        blueprint_id: fixture.floor.id,
        blueprint_name: 'Level 1',
        isIncludedEvacuation: false,
        isSafe: false,
        isWorkerAcknowledged: false,
        status: 'active',
      });
      expect(find(before.json.data, offline)).toMatchObject({
        isIncludedEvacuation: false,
        status: 'offline',
      });

      // An evacuation runs and includes the first worker, who pressed the button.
      const sessionId = randomUUID();
      const startedAt = new Date(Date.now() - 60_000);
      await t.db.insert(evacuationSessions).values({
        id: sessionId,
        siteId: fixture.siteId,
        startedAt,
        floorIds: [fixture.floor.id],
        zoneIds: [],
        assemblyZoneIds: [],
        evacuationFloorIds: [fixture.floor.id],
      });
      await t.db.insert(evacuationWorkers).values({
        sessionId,
        workerId: onMesh.workerId,
        inventoryItemId: onMesh.inventoryId,
        status: 'manualAcknowledge',
        includedAt: startedAt,
        statusChangedAt: new Date(),
        acknowledgedAt: new Date(),
        accountedAt: new Date(),
      });
      try {
        const during = await call(tokens['group-of-sites-viewer'], {
          method: 'POST',
          url: '/api/safety/getworkers',
          payload: body,
        });
        expect(during.statusCode).toBe(200);
        expect(find(during.json.data, onMesh)).toMatchObject({
          isIncludedEvacuation: true,
          isWorkerAcknowledged: true,
          isSafe: false,
          status: 'manualAcknowledge',
        });
        expect(find(during.json.data, offline)).toMatchObject({
          isIncludedEvacuation: false,
          status: 'offline',
        });
      } finally {
        await t.db
          .update(evacuationSessions)
          .set({ endedAt: new Date() })
          .where(eq(evacuationSessions.id, sessionId));
      }
      const after = await call(tokens['group-of-sites-admin'], {
        method: 'POST',
        url: '/api/safety/getworkers',
        payload: body,
      });
      expect(find(after.json.data, onMesh)).toMatchObject({ isIncludedEvacuation: false, status: 'active' });
    });

    it('refuses roles without evacuation, and floors or networks of another client', async () => {
      const url = '/api/safety/getworkers';
      const crew = await call(tokens['crew-manager'], {
        method: 'POST',
        url,
        payload: { networkId: meshId, blueprintId: fixture.floor.id },
      });
      expect(crew.statusCode).toBe(403);
      const cases = [
        [
          tokens['group-of-sites-admin'],
          { networkId: meshId, blueprintId: other.floorId },
          'Floor not found',
        ],
        [
          tokens['group-of-sites-admin'],
          { networkId: other.networkId, blueprintId: fixture.floor.id },
          'Network not found',
        ],
        [otherClientAdmin, { networkId: meshId, blueprintId: fixture.floor.id }, 'Floor not found'],
        [otherClientAdmin, { networkId: other.networkId, blueprintId: fixture.floor.id }, 'Floor not found'],
      ] as const;
      for (const [token, payload, message] of cases) {
        const response = await call(token, { method: 'POST', url, payload });
        expect(response.statusCode, JSON.stringify(payload)).toBe(404);
        expect(response.json.message).toBe(message);
      }
      const bad = await call(tokens['group-of-sites-admin'], {
        method: 'POST',
        url,
        payload: { networkId: 'mesh', blueprintId: fixture.floor.id },
      });
      expect(bad.statusCode).toBe(422);
      expect(bad.json.errors).toHaveProperty('networkId');
    });
  });

  describe('GET /api/safety/sites/{siteId}/networks', () => {
    it("lists the site's gateways for the start dialog", async () => {
      const response = await call(tokens['group-of-sites-viewer'], {
        method: 'GET',
        url: `/api/safety/sites/${fixture.siteId}/networks`,
      });
      expect(response.statusCode).toBe(200);
      expect(response.json.data).toEqual([
        { id: meshId, name: 'Tower A mesh' },
        { id: southMeshId, name: 'Tower A south mesh' },
      ]);
    });

    it("answers 404 for another client's site and 403 to a crew manager", async () => {
      const foreign = await call(tokens['client-admin'], {
        method: 'GET',
        url: `/api/safety/sites/${other.siteId}/networks`,
      });
      expect(foreign.statusCode).toBe(404);
      const crew = await call(tokens['crew-manager'], {
        method: 'GET',
        url: `/api/safety/sites/${fixture.siteId}/networks`,
      });
      expect(crew.statusCode).toBe(403);
    });
  });

  describe('incidents', () => {
    let helmet: HelmetFixture;
    const ids: Record<'sos' | 'fall' | 'oldRestricted' | 'yesterdayNoMotion', number> = {
      sos: 0,
      fall: 0,
      oldRestricted: 0,
      yesterdayNoMotion: 0,
    };

    beforeAll(async () => {
      helmet = await helmetOn('SAFE-I1', fixture.floor.id, meshId);
      const insert = async (type: string, ts: string, zoneId: number | null = null) => {
        const [row] = await t.db
          .insert(incidents)
          .values({
            siteId: fixture.siteId,
            type,
            inventoryItemId: helmet.inventoryId,
            workerId: helmet.workerId,
            floorId: fixture.floor.id,
            zoneId,
            ts: new Date(ts),
          })
          .returning();
        return row.id;
      };
      ids.sos = await insert('sos', '2025-03-10T09:15:00Z', fixture.zoneId('Fit-out area'));
      ids.fall = await insert('fall', '2025-03-10T14:30:00Z');
      ids.yesterdayNoMotion = await insert('noMotion', '2025-03-09T23:59:00Z');
      ids.oldRestricted = await insert(
        'restrictedZone',
        '2025-02-01T08:00:00Z',
        fixture.zoneId('Stair core'),
      );
    });

    const list = (token: string, path: string) =>
      call(token, { method: 'GET', url: `/api/safety/incident/getAll/${path}` });
    const escalate = (token: string, incidentId: unknown) =>
      call(token, { method: 'POST', url: '/api/safety/incident/escelate', payload: { incidentId } });

    it('lists the incidents of a day, newest first, with worker, floor and zone names', async () => {
      const response = await list(tokens['group-of-sites-viewer'], `${fixture.siteId}/2025-03-10/2025-03-10`);
      expect(response.statusCode).toBe(200);
      expect(response.json.data.map((i: { id: number }) => i.id)).toEqual([ids.fall, ids.sos]);
      expect(response.json.data[1]).toEqual({
        id: ids.sos,
        siteId: fixture.siteId,
        type: 'sos',
        status: 'open',
        ts: '2025-03-10T09:15:00.000Z',
        workerId: helmet.workerId,
        workerName: helmet.workerName,
        wntInventoryId: 'SAFE-I1',
        floorId: fixture.floor.id,
        floorName: 'Level 1',
        zoneId: fixture.zoneId('Fit-out area'),
        zoneName: 'Fit-out area',
        escalatedAt: null,
        escalatedBy: null,
      });
    });

    it('takes date-times as UTC and filters by status', async () => {
      const window = `${fixture.siteId}/2025-03-09T23:00:00/2025-03-10T10:00:00`;
      const all = await list(tokens['safety-demo'], window);
      expect(all.json.data.map((i: { id: number }) => i.id)).toEqual([ids.sos, ids.yesterdayNoMotion]);
      const open = await list(tokens['safety-demo'], `${window}/open`);
      expect(open.json.data).toHaveLength(2);
      const escalated = await list(tokens['safety-demo'], `${window}/escalated`);
      expect(escalated.json.data).toEqual([]);
    });

    it('refuses bad dates and statuses with a clear 400', async () => {
      const cases = [
        [`${fixture.siteId}/yesterday/2025-03-10`, /^From must be an ISO date/],
        [`${fixture.siteId}/2025-03-10/2025-02-30`, /^To must be an ISO date/],
        [`${fixture.siteId}/2025-03-11/2025-03-10`, /^From must not be after To$/],
        [`${fixture.siteId}/2025-03-10/2025-03-10/closed`, /^Status must be one of open, escalated$/],
      ] as const;
      for (const [path, message] of cases) {
        const response = await list(tokens['group-of-sites-admin'], path);
        expect(response.statusCode, path).toBe(400);
        expect(response.json.message, path).toMatch(message);
      }
    });

    it("answers 404 for another client's site and 403 to a crew manager", async () => {
      expect((await list(otherClientAdmin, `${fixture.siteId}/2025-03-10/2025-03-10`)).statusCode).toBe(404);
      expect((await list(tokens['crew-manager'], `${fixture.siteId}/2025-03-10/2025-03-10`)).statusCode).toBe(
        403,
      );
    });

    it('lets a site viewer read but not escalate, and a crew manager do neither', async () => {
      for (const role of ['group-of-sites-viewer', 'crew-manager'] as const) {
        const response = await escalate(tokens[role], ids.fall);
        expect(response.statusCode, role).toBe(403);
        expect(response.json.message).toBe('Not Authorized');
      }
      expect((await escalate(otherClientAdmin, ids.fall)).statusCode).toBe(404);
      expect((await escalate(tokens['group-of-sites-admin'], 2_000_000)).statusCode).toBe(404);
      const [row] = await t.db.select().from(incidents).where(eq(incidents.id, ids.fall));
      expect(row.status).toBe('open');
    });

    it("escalates once: records who, e-mails the site's safety contacts, refuses a second time", async () => {
      const outboxBefore = await t.db.select().from(emailOutbox);
      const response = await escalate(tokens['group-of-sites-admin'], ids.sos);
      expect(response.statusCode).toBe(200);
      expect(response.json.message).toBe('Incident escalated');
      expect(response.json.data).toMatchObject({
        id: ids.sos,
        status: 'escalated',
        escalatedBy: { name: 'Demo Site Admin' },
      });
      expect(Date.parse(response.json.data.escalatedAt)).toBeGreaterThan(Date.now() - 60_000);

      const mails = (await t.db.select().from(emailOutbox).orderBy(asc(emailOutbox.id))).slice(
        outboxBefore.length,
      );
      // The demo client's admin and the Tower A site admin; not the viewer, not the other client.
      expect(mails.map((m) => m.toAddress).sort()).toEqual([
        'client-admin@demo.sitewatch.dev',
        'site-admin@demo.sitewatch.dev',
      ]);
      for (const mail of mails) {
        expect(mail.subject).toBe(`Safety incident escalated: SOS alarm — ${helmet.workerName}`);
        expect(mail.body).toContain('Demo Site Admin escalated safety incident');
        expect(mail.body).toContain(`Worker: ${helmet.workerName} (helmet SAFE-I1)`);
        expect(mail.body).toContain('Place: Tower A / Level 1 / Fit-out area');
        expect(mail.link).toBe('http://sitewatch.test/safety');
      }

      const again = await escalate(tokens['client-admin'], ids.sos);
      expect(again.statusCode).toBe(409);
      expect(again.json.message).toBe('Incident is already escalated');
      expect(await t.db.select().from(emailOutbox)).toHaveLength(outboxBefore.length + 2);

      const escalated = await list(
        tokens['group-of-sites-viewer'],
        `${fixture.siteId}/2025-03-10/2025-03-10/escalated`,
      );
      expect(escalated.json.data.map((i: { id: number }) => i.id)).toEqual([ids.sos]);
    });
  });
});
