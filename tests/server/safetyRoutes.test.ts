import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { evacuationSessions, evacuationWorkers, floors } from '../../server/db/schema';
import type { DemoFloorFixture, HelmetFixture } from './helpers/ingestFixture';
import type { OtherTenant } from './helpers/otherTenant';
import {
  type SafetyRoutesSuite,
  safetyRoutesRequests,
  startSafetyRoutesSuite,
} from './helpers/safetyRoutesSuite';
import type { TestApp } from './helpers/testApp';

describe('safety REST routes', () => {
  let suite: SafetyRoutesSuite;
  let t: TestApp;
  let other: OtherTenant;
  let fixture: DemoFloorFixture;
  let meshId: number;
  let southMeshId: number;
  let otherClientAdmin: string;
  let tokens: SafetyRoutesSuite['tokens'];

  beforeAll(async () => {
    suite = await startSafetyRoutesSuite();
    ({ t, other, fixture, meshId, southMeshId, otherClientAdmin, tokens } = suite);
  });
  afterAll(() => suite?.close());

  const { call, helmetOn } = safetyRoutesRequests(() => suite);

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
});
