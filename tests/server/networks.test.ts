import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_SITE } from '../../server/db/demoSeed';
import { networks, sites } from '../../server/db/schema';
import type { Role } from '../../src/domain/roles';
import { type OtherTenant, seedOtherTenant } from './helpers/otherTenant';
import { startTestApp, type TestApp } from './helpers/testApp';

const ROLES_USED = [
  'super-admin',
  'client-admin',
  'group-of-sites-admin',
  'group-of-sites-viewer',
  'crew-manager',
  'site-engineer',
] as const;

describe('networks', () => {
  let t: TestApp;
  let other: OtherTenant;
  let towerId: number;
  let spareId: number;
  let towerMeshId: number;
  const tokens = {} as Record<Role, string>;

  beforeAll(async () => {
    t = await startTestApp();
    other = await seedOtherTenant(t.db);
    [{ id: towerId }] = await t.db.select().from(sites).where(eq(sites.name, DEMO_SITE));
    [{ id: spareId }] = await t.db.select().from(networks).where(eq(networks.name, 'Spare gateway kit'));
    [{ id: towerMeshId }] = await t.db.select().from(networks).where(eq(networks.name, 'Tower A mesh'));
    for (const role of ROLES_USED) tokens[role] = await t.loginAs(role);
  });
  afterAll(() => t.close());

  const unassigned = (token: string) => t.call(token, { method: 'GET', url: '/api/networks/unassigned' });
  const patch = (token: string, id: number | string, payload: unknown) =>
    t.call(token, { method: 'PATCH', url: `/api/networks/${id}`, payload: payload as object });
  const siteOf = async (id: number) => {
    const [row] = await t.db.select().from(networks).where(eq(networks.id, id));
    return row.siteId;
  };

  describe('GET /api/networks/unassigned', () => {
    it('lists the networks without a site to roles that may open networks', async () => {
      for (const role of ['super-admin', 'client-admin', 'group-of-sites-admin', 'site-engineer'] as const) {
        const response = await unassigned(tokens[role]);
        expect(response.statusCode, role).toBe(200);
        expect(response.json).toEqual({
          status: 'success',
          data: [{ id: spareId, name: 'Spare gateway kit', site_id: null }],
        });
      }
    });

    it('answers 403 to roles the access table keeps from networks', async () => {
      for (const role of ['group-of-sites-viewer', 'crew-manager'] as const) {
        const response = await unassigned(tokens[role]);
        expect(response.statusCode, role).toBe(403);
        expect(response.json.message).toBe('Not Authorized');
      }
    });
  });

  describe('PATCH /api/networks/{id}', () => {
    it('assigns an unassigned network to a visible site, and unassigns it again', async () => {
      const assigned = await patch(tokens['group-of-sites-admin'], spareId, { site_id: towerId });
      expect(assigned.statusCode).toBe(200);
      expect(assigned.json).toEqual({
        status: 'success',
        data: { id: spareId, name: 'Spare gateway kit', site_id: towerId },
      });
      expect((await unassigned(tokens['group-of-sites-admin'])).json.data).toEqual([]);

      const released = await patch(tokens['client-admin'], spareId, { site_id: null });
      expect(released.statusCode).toBe(200);
      expect(released.json.data).toEqual({ id: spareId, name: 'Spare gateway kit', site_id: null });
      expect(await siteOf(spareId)).toBeNull();
    });

    it('lets a super-admin move a network between tenants', async () => {
      const moved = await patch(tokens['super-admin'], spareId, { site_id: other.siteId });
      expect(moved.statusCode).toBe(200);
      expect(moved.json.data.site_id).toBe(other.siteId);
      const back = await patch(tokens['super-admin'], spareId, { site_id: null });
      expect(back.json.data.site_id).toBeNull();
    });

    it('answers 403 to a site viewer, a crew manager and a site engineer', async () => {
      for (const role of ['group-of-sites-viewer', 'crew-manager', 'site-engineer'] as const) {
        const response = await patch(tokens[role], spareId, { site_id: towerId });
        expect(response.statusCode, role).toBe(403);
      }
      expect(await siteOf(spareId)).toBeNull();
    });

    it('answers 404 when the target site is another tenant’s', async () => {
      for (const role of ['client-admin', 'group-of-sites-admin'] as const) {
        const response = await patch(tokens[role], spareId, { site_id: other.siteId });
        expect(response.statusCode, role).toBe(404);
        expect(response.json).toEqual({ status: 'error', message: 'Site not found' });
      }
      expect(await siteOf(spareId)).toBeNull();
    });

    it('answers 404 for a network on another tenant’s site, whatever the target', async () => {
      for (const site_id of [towerId, null]) {
        const response = await patch(tokens['client-admin'], other.networkId, { site_id });
        expect(response.statusCode, String(site_id)).toBe(404);
        expect(response.json).toEqual({ status: 'error', message: 'Network not found' });
      }
      expect(await siteOf(other.networkId)).toBe(other.siteId);
    });

    it('answers 404 for a network that does not exist', async () => {
      const response = await patch(tokens['super-admin'], 999_999, { site_id: null });
      expect(response.statusCode).toBe(404);
    });

    it('lets the other tenant’s admin unassign its own network but not take a Demo one', async () => {
      const otherAdmin = await t.login(other.email('client-admin'));
      const steal = await patch(otherAdmin, towerMeshId, { site_id: other.siteId });
      expect(steal.statusCode).toBe(404);
      expect(await siteOf(towerMeshId)).toBe(towerId);
      const own = await patch(otherAdmin, other.networkId, { site_id: null });
      expect(own.statusCode).toBe(200);
      expect(own.json.data.site_id).toBeNull();
    });

    it('answers bad ids and bodies with 422, never 500', async () => {
      const cases: [string | number, unknown, Record<string, string>][] = [
        [spareId, {}, { site_id: 'Site id is required' }],
        [spareId, { site_id: 0 }, { site_id: 'Site id is invalid' }],
        [spareId, { site_id: -3 }, { site_id: 'Site id is invalid' }],
        [spareId, { site_id: 'abc' }, { site_id: 'Site id is invalid' }],
        [spareId, { site_id: 2.5 }, { site_id: 'Site id is invalid' }],
        [spareId, { site_id: 99_999_999_999 }, { site_id: 'Site id is invalid' }],
        [spareId, { site_id: [1, 2] }, { site_id: 'Site id is invalid' }],
        ['abc', { site_id: towerId }, { id: 'Id is invalid' }],
        ['-1', { site_id: towerId }, { id: 'Id is invalid' }],
        ['99999999999', { site_id: towerId }, { id: 'Id is invalid' }],
      ];
      for (const [id, payload, errors] of cases) {
        const response = await patch(tokens['client-admin'], id, payload);
        expect(response.statusCode, `${id} ${JSON.stringify(payload)}`).toBe(422);
        expect(response.json.errors, `${id} ${JSON.stringify(payload)}`).toEqual(errors);
      }
      const malformed = await t.call(tokens['client-admin'], {
        method: 'PATCH',
        url: `/api/networks/${spareId}`,
        headers: { 'content-type': 'application/json' },
        payload: 'site_id=1',
      });
      expect(malformed.statusCode).toBe(400);
      expect(await siteOf(spareId)).toBeNull();
    });
  });
});
