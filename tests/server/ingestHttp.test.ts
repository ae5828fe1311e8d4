import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app';
import { requireAuthentication } from '../../server/auth/authenticate';
import { inventoryItems, positions } from '../../server/db/schema';
import { deviceTokenRoutes } from '../../server/ingest/ingestRoutes';
import type { CommittedChanges } from '../../server/live/liveChanges';
import type { Role } from '../../src/domain/roles';
import { INGEST_BATCH_MAX } from '../../src/domain/schemas/ingest';
import {
  type DemoFloorFixture,
  demoFloor,
  POINTS,
  positionAt,
  seedWorkerWithHelmet,
} from './helpers/ingestFixture';
import { type OtherTenant, seedOtherTenant } from './helpers/otherTenant';
import { type Envelope, startTestApp, type TestApp } from './helpers/testApp';

describe('HTTP ingest and device tokens', () => {
  let t: TestApp;
  let app: FastifyInstance;
  let fixture: DemoFloorFixture;
  let other: OtherTenant;
  const published: CommittedChanges[] = [];
  const tokens = {} as Record<Role | 'otherClientAdmin', string>;

  beforeAll(async () => {
    t = await startTestApp();
    fixture = await demoFloor(t.db);
    other = await seedOtherTenant(t.db);
    // The real app, with a publisher to see the fan-out.
    app = await buildApp({
      db: t.db,
      config: t.config,
      publisher: { publish: async (batch) => void published.push(batch) },
    });
    // Until server/app.ts registers deviceTokenRoutes in its protected context, mount it the same way.
    if (!app.hasRoute({ method: 'GET', url: '/api/sites/:id/device-tokens' })) {
      await app.register(
        async (api) => {
          requireAuthentication(api, t.db);
          await api.register(deviceTokenRoutes, { db: t.db, config: t.config });
        },
        { prefix: '/api' },
      );
    }
    await app.ready();
    for (const role of [
      'super-admin',
      'client-admin',
      'group-of-sites-admin',
      'group-of-sites-viewer',
      'crew-manager',
      'site-engineer',
      'safety-demo',
    ] as const)
      tokens[role] = await t.loginAs(role);
    tokens.otherClientAdmin = await t.login(other.email('client-admin'));
  });
  afterAll(async () => {
    await app?.close();
    await t?.close();
  });

  async function call(
    method: 'GET' | 'POST',
    url: string,
    bearer: string | null,
    payload?: unknown,
  ): Promise<{ statusCode: number; json: Envelope }> {
    const response = await app.inject({
      method,
      url,
      headers: bearer ? { authorization: `Bearer ${bearer}` } : {},
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
    return { statusCode: response.statusCode, json: response.json() };
  }

  const createToken = async (siteId: number, bearer: string, label = 'Gateway') =>
    call('POST', `/api/sites/${siteId}/device-tokens`, bearer, { label });

  describe('device tokens', () => {
    it('lets site admins and engineers create a token, shown once, and list tokens without the secret', async () => {
      for (const role of ['group-of-sites-admin', 'site-engineer', 'client-admin', 'super-admin'] as const) {
        const created = await createToken(fixture.siteId, tokens[role], `Gateway of ${role}`);
        expect(created.statusCode, role).toBe(200);
        expect(created.json.data).toMatchObject({
          site_id: fixture.siteId,
          label: `Gateway of ${role}`,
          revoked_at: null,
        });
        expect(created.json.data.token).toMatch(/^[\w-]{40,}$/);
      }
      const list = await call(
        'GET',
        `/api/sites/${fixture.siteId}/device-tokens`,
        tokens['group-of-sites-admin'],
      );
      expect(list.statusCode).toBe(200);
      expect(list.json.data.map((d: { label: string }) => d.label)).toEqual(
        expect.arrayContaining(['Gateway of group-of-sites-admin', 'Gateway of site-engineer']),
      );
      for (const token of list.json.data) expect(token).not.toHaveProperty('token');
    });

    it('refuses roles that may not change sites or installation with 403', async () => {
      for (const role of ['group-of-sites-viewer', 'crew-manager', 'safety-demo'] as const) {
        expect((await createToken(fixture.siteId, tokens[role])).statusCode, role).toBe(403);
        expect(
          (await call('GET', `/api/sites/${fixture.siteId}/device-tokens`, tokens[role])).statusCode,
        ).toBe(403);
      }
      expect((await createToken(fixture.siteId, 'not-a-session')).statusCode).toBe(401);
    });

    it("answers 404 for another client's site and tokens", async () => {
      const mine = await createToken(fixture.siteId, tokens['group-of-sites-admin']);
      expect((await createToken(other.siteId, tokens['group-of-sites-admin'])).statusCode).toBe(404);
      expect(
        (await call('GET', `/api/sites/${other.siteId}/device-tokens`, tokens['group-of-sites-admin']))
          .statusCode,
      ).toBe(404);
      expect((await createToken(fixture.siteId, tokens.otherClientAdmin)).statusCode).toBe(404);
      const theirs = await createToken(other.siteId, tokens.otherClientAdmin);
      expect(theirs.statusCode).toBe(200);
      // A token id of another site, named under my site, is not found either.
      const crossed = await call(
        'POST',
        `/api/sites/${fixture.siteId}/device-tokens/${theirs.json.data.id}/revoke`,
        tokens['group-of-sites-admin'],
      );
      expect(crossed.statusCode).toBe(404);
      expect(mine.statusCode).toBe(200);
    });

    it('refuses a blank label with the field message', async () => {
      const response = await createToken(fixture.siteId, tokens['group-of-sites-admin'], '   ');
      expect(response.statusCode).toBe(422);
      expect(response.json.errors).toEqual({ label: 'Label is required' });
    });
  });

  describe('POST /api/ingest/{siteId}/positions', () => {
    let deviceToken: string;
    beforeAll(async () => {
      deviceToken = (await createToken(fixture.siteId, tokens['group-of-sites-admin'], 'HTTP gateway')).json
        .data.token;
    });

    it('stores a batch sent with a device token, counts what it dropped and publishes the moved helmets', async () => {
      const helmet = await seedWorkerWithHelmet(t.db, fixture.siteId, 'HTTP-H1');
      const good = positionAt(fixture, helmet.tag, POINTS.eastWing, 5);
      const response = await call('POST', `/api/ingest/${fixture.siteId}/positions`, deviceToken, [
        good,
        { ...good, tag: 'NO-SUCH-HELMET' },
        { ...good, lat: 'north' },
        { ...good, floorId: other.floorId },
      ]);
      expect(response.statusCode).toBe(200);
      expect(response.json).toEqual({
        status: 'success',
        data: { accepted: 1, rejected: { unknownTag: 1, badShape: 1, unknownFloor: 1 } },
      });
      const rows = await t.db
        .select()
        .from(positions)
        .where(eq(positions.inventoryItemId, helmet.inventoryId));
      expect(rows).toHaveLength(1);
      const [state] = await t.db
        .select()
        .from(inventoryItems)
        .where(eq(inventoryItems.id, helmet.inventoryId));
      expect(state).toMatchObject({ isOnline: true, zoneId: fixture.zoneId('East wing') });
      const change = published
        .flatMap((b) => b.changes)
        .find((c) => c.worker.inventory_id === helmet.inventoryId);
      expect(change?.worker).toMatchObject({ name: helmet.workerName, zone_name: 'East wing' });

      const single = await call('POST', `/api/ingest/${fixture.siteId}/positions`, deviceToken, good);
      expect(single.json.data).toEqual({ accepted: 1, rejected: {} });
      expect(
        await t.db.select().from(positions).where(eq(positions.inventoryItemId, helmet.inventoryId)),
      ).toHaveLength(1);
    });

    it('sees a zone drawn, moved or deleted on the floor from the very next batch', async () => {
      const helmet = await seedWorkerWithHelmet(t.db, fixture.siteId, 'HTTP-H2');
      const url = `/api/ingest/${fixture.siteId}/positions`;
      let secondsAgo = 60;
      const zoneNow = async () => {
        secondsAgo -= 1;
        await call('POST', url, deviceToken, positionAt(fixture, helmet.tag, POINTS.nowhere, secondsAgo));
        const [state] = await t.db
          .select()
          .from(inventoryItems)
          .where(eq(inventoryItems.id, helmet.inventoryId));
        return state.zoneId;
      };
      const box = (x0: number, y0: number, x1: number, y1: number) =>
        [
          [x0, y0],
          [x1, y0],
          [x1, y1],
          [x0, y1],
        ].map(([x, y]) => {
          const { long, lat } = fixture.at(x, y);
          return [long, lat];
        });
      const admin = tokens['group-of-sites-admin'];
      expect(await zoneNow()).toBeNull();

      const drawn = await call('POST', `/api/floors/${fixture.floor.id}/zones`, admin, {
        name: 'Hoist bay',
        kind: 'work',
        coordinates: box(0.52, 0.45, 0.6, 0.55),
      });
      expect(drawn.statusCode).toBe(200);
      expect(await zoneNow()).toBe(drawn.json.data.id);

      const zoneUrl = `/api/floors/${fixture.floor.id}/zones/${drawn.json.data.id}`;
      const moved = await call('POST', zoneUrl, admin, { coordinates: box(0.52, 0.6, 0.6, 0.7) });
      expect(moved.statusCode).toBe(200);
      expect(await zoneNow()).toBeNull();

      await call('POST', zoneUrl, admin, { coordinates: box(0.52, 0.45, 0.6, 0.55) });
      expect(await zoneNow()).toBe(drawn.json.data.id);
      const deleted = await app.inject({
        method: 'DELETE',
        url: zoneUrl,
        headers: { authorization: `Bearer ${admin}` },
      });
      expect(deleted.statusCode).toBe(200);
      expect(await zoneNow()).toBeNull();
    });

    it('answers 401 without a token, with a wrong one, with a revoked one and with another site’s', async () => {
      const url = `/api/ingest/${fixture.siteId}/positions`;
      const body = positionAt(fixture, 'HTTP-NONE', POINTS.fitOut, 5);
      expect((await call('POST', url, null, body)).statusCode).toBe(401);
      const wrong = await call('POST', url, 'made-up-token', body);
      expect(wrong).toMatchObject({ statusCode: 401, json: { status: 'error', message: 'Unauthenticated' } });
      // A user's session token is not a device token.
      expect((await call('POST', url, tokens['super-admin'], body)).statusCode).toBe(401);

      const theirs = (await createToken(other.siteId, tokens.otherClientAdmin)).json.data.token;
      expect((await call('POST', url, theirs, body)).statusCode).toBe(401);
      expect((await call('POST', `/api/ingest/${other.siteId}/positions`, theirs, [])).statusCode).toBe(200);

      const revoked = await createToken(fixture.siteId, tokens['group-of-sites-admin'], 'Old gateway');
      expect((await call('POST', url, revoked.json.data.token, [])).statusCode).toBe(200);
      const revoke = await call(
        'POST',
        `/api/sites/${fixture.siteId}/device-tokens/${revoked.json.data.id}/revoke`,
        tokens['group-of-sites-admin'],
      );
      expect(revoke.statusCode).toBe(200);
      expect(revoke.json.data.revoked_at).toEqual(expect.any(String));
      expect((await call('POST', url, revoked.json.data.token, [])).statusCode).toBe(401);
    });

    it('answers 413 for more positions than one request may carry, and 4xx for a body that is no batch', async () => {
      const url = `/api/ingest/${fixture.siteId}/positions`;
      const one = positionAt(fixture, 'HTTP-NONE', POINTS.fitOut, 5);
      const tooMany = Array.from({ length: INGEST_BATCH_MAX + 1 }, () => one);
      const response = await call('POST', url, deviceToken, tooMany);
      expect(response.statusCode).toBe(413);
      expect(response.json.status).toBe('error');

      expect((await call('POST', url, deviceToken, 42)).statusCode).toBe(422);
      const malformed = await app.inject({
        method: 'POST',
        url,
        headers: { authorization: `Bearer ${deviceToken}`, 'content-type': 'application/json' },
        payload: '[{"tag": ',
      });
      expect(malformed.statusCode).toBe(400);
    });
  });
});
