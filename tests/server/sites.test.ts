import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_CLIENT, DEMO_SITE } from '../../server/db/demoSeed';
import { clients, groupsOfSites, sites, userSites } from '../../server/db/schema';
import type { Role } from '../../src/domain/roles';
import { type OtherTenant, seedOtherTenant } from './helpers/otherTenant';
import { startTestApp, type TestApp } from './helpers/testApp';

const ROLES_USED = [
  'super-admin',
  'client-admin',
  'group-of-sites-admin',
  'group-of-sites-viewer',
  'crew-manager',
] as const;

describe('sites and buildings', () => {
  let t: TestApp;
  let other: OtherTenant;
  let demoClientId: number;
  let demoGroupId: number;
  let towerId: number;
  const tokens = {} as Record<Role, string>;

  beforeAll(async () => {
    t = await startTestApp();
    other = await seedOtherTenant(t.db);
    [{ id: demoClientId }] = await t.db.select().from(clients).where(eq(clients.name, DEMO_CLIENT));
    [{ id: towerId, groupOfSitesId: demoGroupId }] = (await t.db
      .select()
      .from(sites)
      .where(eq(sites.name, DEMO_SITE))) as { id: number; groupOfSitesId: number }[];
    for (const role of ROLES_USED) tokens[role] = await t.loginAs(role);
  });
  afterAll(() => t.close());

  const get = (token: string, url: string) => t.call(token, { method: 'GET', url });
  const post = (token: string, url: string, payload: unknown) =>
    t.call(token, { method: 'POST', url, payload: payload as object });
  const names = (data: { name: string }[]) => data.map((row) => row.name);

  describe('GET /api/clients/{clientId}/sites', () => {
    it('lists a client’s sites as Site objects', async () => {
      const response = await get(tokens['client-admin'], `/api/clients/${demoClientId}/sites`);
      expect(response.statusCode).toBe(200);
      expect(response.json).toEqual({
        status: 'success',
        data: [
          {
            id: towerId,
            name: DEMO_SITE,
            timezone: 'Asia/Dubai',
            client_id: demoClientId,
            group_of_sites_id: demoGroupId,
          },
        ],
      });
    });

    it('lets a super-admin read any client’s sites', async () => {
      const response = await get(tokens['super-admin'], `/api/clients/${other.clientId}/sites`);
      expect(response.statusCode).toBe(200);
      expect(names(response.json.data)).toEqual(['Depot B']);
    });

    it('answers 404 for another tenant’s client, and for one that does not exist', async () => {
      for (const role of ['client-admin', 'group-of-sites-viewer'] as const) {
        const response = await get(tokens[role], `/api/clients/${other.clientId}/sites`);
        expect(response.statusCode, role).toBe(404);
        expect(response.json).toEqual({ status: 'error', message: 'Client not found' });
      }
      const missing = await get(tokens['super-admin'], '/api/clients/999999/sites');
      expect(missing.statusCode).toBe(404);
    });

    it('answers 422 for ids that are not positive integers', async () => {
      for (const id of ['abc', '-1', '0', '1.5', '99999999999']) {
        const response = await get(tokens['super-admin'], `/api/clients/${id}/sites`);
        expect(response.statusCode, id).toBe(422);
        expect(response.json.errors).toEqual({ clientId: 'Client id is invalid' });
      }
    });
  });

  describe('POST /api/sites', () => {
    it('creates a site for a client-admin and keeps the list sorted by name', async () => {
      const response = await post(tokens['client-admin'], '/api/sites', {
        client_id: demoClientId,
        name: '  Annex Yard ',
        timezone: 'asia/dubai',
        group_of_sites_id: demoGroupId,
      });
      expect(response.statusCode).toBe(200);
      expect(response.json).toEqual({
        status: 'success',
        message: 'Site is created successfully',
        data: {
          id: expect.any(Number),
          name: 'Annex Yard',
          timezone: 'Asia/Dubai',
          client_id: demoClientId,
          group_of_sites_id: demoGroupId,
        },
      });
      await post(tokens['client-admin'], '/api/sites', {
        client_id: demoClientId,
        name: 'zenith plaza',
        timezone: 'UTC',
      });
      const beacon = await post(tokens['client-admin'], '/api/sites', {
        client_id: demoClientId,
        name: 'Beacon Court',
        timezone: 'Asia/Kolkata',
        group_of_sites_id: null,
      });
      // The current IANA name, though Node's ICU lists only its old id, Asia/Calcutta.
      expect(beacon.json.data).toMatchObject({ timezone: 'Asia/Kolkata', group_of_sites_id: null });
      const list = await get(tokens['client-admin'], `/api/clients/${demoClientId}/sites`);
      expect(names(list.json.data)).toEqual(['Annex Yard', 'Beacon Court', DEMO_SITE, 'zenith plaza']);
      // A client-admin sees sites through its client, so no membership row is needed.
      const memberships = await t.db
        .select()
        .from(userSites)
        .where(eq(userSites.siteId, response.json.data.id));
      expect(memberships).toEqual([]);
    });

    it('shows a site viewer only the sites of its group', async () => {
      const list = await get(tokens['group-of-sites-viewer'], `/api/clients/${demoClientId}/sites`);
      expect(list.statusCode).toBe(200);
      expect(names(list.json.data)).toEqual(['Annex Yard', DEMO_SITE]);
    });

    it('lets a super-admin create a site for any client', async () => {
      const response = await post(tokens['super-admin'], '/api/sites', {
        client_id: other.clientId,
        name: 'Depot C',
        timezone: 'Europe/London',
      });
      expect(response.statusCode).toBe(200);
      expect(response.json.data).toMatchObject({ client_id: other.clientId, group_of_sites_id: null });
    });

    it('refuses a duplicate name within the client with 409, but not across clients', async () => {
      const duplicate = await post(tokens['client-admin'], '/api/sites', {
        client_id: demoClientId,
        name: 'TOWER a',
        timezone: 'UTC',
      });
      expect(duplicate.statusCode).toBe(409);
      expect(duplicate.json).toEqual({ status: 'error', message: 'Site name already exists!' });
      const elsewhere = await post(tokens['super-admin'], '/api/sites', {
        client_id: other.clientId,
        name: DEMO_SITE,
        timezone: 'UTC',
      });
      expect(elsewhere.statusCode).toBe(200);
    });

    it('lets exactly one of several simultaneous creations of a site name win', async () => {
      const replies = await Promise.all(
        Array.from({ length: 5 }, () =>
          post(tokens['super-admin'], '/api/sites', {
            client_id: other.clientId,
            name: 'Race Yard',
            timezone: 'UTC',
          }),
        ),
      );
      expect(replies.map((r) => r.statusCode).sort()).toEqual([200, 409, 409, 409, 409]);
    });

    it('answers 404 when the client is another tenant’s', async () => {
      const response = await post(tokens['client-admin'], '/api/sites', {
        client_id: other.clientId,
        name: 'Sneaky Site',
        timezone: 'UTC',
      });
      expect(response.statusCode).toBe(404);
      const [made] = await t.db.select().from(sites).where(eq(sites.name, 'Sneaky Site'));
      expect(made).toBeUndefined();
    });

    it('answers 422 for a group of sites of another client', async () => {
      const [otherGroup] = await t.db
        .select()
        .from(groupsOfSites)
        .where(eq(groupsOfSites.clientId, other.clientId));
      const response = await post(tokens['super-admin'], '/api/sites', {
        client_id: demoClientId,
        name: 'Cross Group',
        timezone: 'UTC',
        group_of_sites_id: otherGroup.id,
      });
      expect(response.statusCode).toBe(422);
      expect(response.json.errors).toEqual({ group_of_sites_id: 'Group of sites is invalid' });
    });

    it('answers 422 "Timezone is invalid" for an unknown zone', async () => {
      for (const timezone of ['Mars/Olympus_Mons', 'GMT+25', 'Europe']) {
        const response = await post(tokens['client-admin'], '/api/sites', {
          client_id: demoClientId,
          name: 'Lost in time',
          timezone,
        });
        expect(response.statusCode, timezone).toBe(422);
        expect(response.json.message).toBe('Timezone is invalid');
        expect(response.json.errors).toEqual({ timezone: 'Timezone is invalid' });
      }
    });

    it('answers 403 to every role the access table keeps from writing sites', async () => {
      for (const role of ['group-of-sites-admin', 'group-of-sites-viewer', 'crew-manager'] as const) {
        const response = await post(tokens[role], '/api/sites', {
          client_id: demoClientId,
          name: `By ${role}`,
          timezone: 'UTC',
        });
        expect(response.statusCode, role).toBe(403);
      }
      // The role is checked before the body, so a forbidden caller learns nothing from validation.
      const invalid = await post(tokens['group-of-sites-viewer'], '/api/sites', {});
      expect(invalid.statusCode).toBe(403);
    });

    it('answers bad bodies with 422 in the spec words, never 500', async () => {
      const valid = { client_id: demoClientId, name: 'Valid Name', timezone: 'UTC' };
      const cases: [unknown, Record<string, string>][] = [
        [
          {},
          { client_id: 'Client id is required', name: 'Name is required', timezone: 'Timezone is required' },
        ],
        [{ ...valid, name: '   ' }, { name: 'Name is required' }],
        [{ ...valid, name: 'n'.repeat(101) }, { name: 'Name accepts a maximum of 100 characters' }],
        [{ ...valid, timezone: 'T'.repeat(65) }, { timezone: 'Timezone accepts a maximum of 64 characters' }],
        [{ ...valid, timezone: '' }, { timezone: 'Timezone is required' }],
        [{ ...valid, client_id: -1 }, { client_id: 'Client id is invalid' }],
        [{ ...valid, client_id: 0 }, { client_id: 'Client id is invalid' }],
        [{ ...valid, client_id: 1.5 }, { client_id: 'Client id is invalid' }],
        [{ ...valid, client_id: 'abc' }, { client_id: 'Client id is invalid' }],
        [{ ...valid, client_id: 99_999_999_999 }, { client_id: 'Client id is invalid' }],
        [{ ...valid, client_id: { id: 1 } }, { client_id: 'Client id is invalid' }],
        [{ ...valid, group_of_sites_id: 0 }, { group_of_sites_id: 'Group of sites id is invalid' }],
        [{ ...valid, group_of_sites_id: 'x' }, { group_of_sites_id: 'Group of sites id is invalid' }],
        [{ ...valid, name: ['a', 'b'] }, { name: 'Name is invalid' }],
      ];
      for (const [payload, errors] of cases) {
        const response = await post(tokens['client-admin'], '/api/sites', payload);
        expect(response.statusCode, JSON.stringify(payload)).toBe(422);
        expect(response.json.errors, JSON.stringify(payload)).toEqual(errors);
      }
      const malformed = await t.call(tokens['client-admin'], {
        method: 'POST',
        url: '/api/sites',
        headers: { 'content-type': 'application/json' },
        payload: '{client_id: 1}',
      });
      expect(malformed.statusCode).toBe(400);
      const [made] = await t.db.select().from(sites).where(eq(sites.name, 'Valid Name'));
      expect(made).toBeUndefined();
    });
  });

  describe('buildings of a site', () => {
    it('lists the buildings of a visible site sorted by name', async () => {
      const response = await get(tokens['group-of-sites-viewer'], `/api/sites/${towerId}/buildings`);
      expect(response.statusCode).toBe(200);
      expect(response.json.status).toBe('success');
      expect(response.json.data).toEqual([
        { id: expect.any(Number), name: 'North Block', site_id: towerId },
        { id: expect.any(Number), name: 'South Block', site_id: towerId },
      ]);
    });

    it('lets a site admin create a building, which then lists in order', async () => {
      const response = await post(tokens['group-of-sites-admin'], `/api/sites/${towerId}/buildings`, {
        name: ' Central Core ',
      });
      expect(response.statusCode).toBe(200);
      expect(response.json).toEqual({
        status: 'success',
        message: 'Building is created successfully',
        data: { id: expect.any(Number), name: 'Central Core', site_id: towerId },
      });
      const list = await get(tokens['super-admin'], `/api/sites/${towerId}/buildings`);
      expect(names(list.json.data)).toEqual(['Central Core', 'North Block', 'South Block']);
    });

    it('lets a client-admin and a super-admin create buildings too', async () => {
      const byClientAdmin = await post(tokens['client-admin'], `/api/sites/${towerId}/buildings`, {
        name: 'East Wing',
      });
      expect(byClientAdmin.statusCode).toBe(200);
      const bySuperAdmin = await post(tokens['super-admin'], `/api/sites/${other.siteId}/buildings`, {
        name: 'Depot Annex',
      });
      expect(bySuperAdmin.statusCode).toBe(200);
      expect(bySuperAdmin.json.data.site_id).toBe(other.siteId);
    });

    it('refuses a duplicate building name in the site with 409', async () => {
      const response = await post(tokens['client-admin'], `/api/sites/${towerId}/buildings`, {
        name: 'north BLOCK',
      });
      expect(response.statusCode).toBe(409);
      expect(response.json).toEqual({ status: 'error', message: 'Building name already exists!' });
      // The same name in another site is fine.
      const elsewhere = await post(tokens['super-admin'], `/api/sites/${other.siteId}/buildings`, {
        name: 'North Block',
      });
      expect(elsewhere.statusCode).toBe(200);
    });

    it('lets exactly one of several simultaneous creations of a building name win', async () => {
      const replies = await Promise.all(
        Array.from({ length: 5 }, () =>
          post(tokens['client-admin'], `/api/sites/${towerId}/buildings`, { name: 'Race Hall' }),
        ),
      );
      expect(replies.map((r) => r.statusCode).sort()).toEqual([200, 409, 409, 409, 409]);
    });

    it('answers 403 to a site viewer and a crew manager creating a building', async () => {
      for (const role of ['group-of-sites-viewer', 'crew-manager'] as const) {
        const response = await post(tokens[role], `/api/sites/${towerId}/buildings`, { name: 'Nope' });
        expect(response.statusCode, role).toBe(403);
      }
    });

    it('answers 404 for another tenant’s site, reading or creating', async () => {
      for (const role of ['client-admin', 'group-of-sites-admin', 'group-of-sites-viewer'] as const) {
        const read = await get(tokens[role], `/api/sites/${other.siteId}/buildings`);
        expect(read.statusCode, role).toBe(404);
        expect(read.json).toEqual({ status: 'error', message: 'Site not found' });
      }
      const create = await post(tokens['client-admin'], `/api/sites/${other.siteId}/buildings`, {
        name: 'Planted Hall',
      });
      expect(create.statusCode).toBe(404);
      const stillThere = await get(tokens['super-admin'], `/api/sites/${other.siteId}/buildings`);
      expect(names(stillThere.json.data)).not.toContain('Planted Hall');
    });

    it('answers 404 to a site viewer for a site of its own client outside its group', async () => {
      const [beacon] = await t.db
        .select()
        .from(sites)
        .where(and(eq(sites.clientId, demoClientId), eq(sites.name, 'Beacon Court')));
      const response = await get(tokens['group-of-sites-viewer'], `/api/sites/${beacon.id}/buildings`);
      expect(response.statusCode).toBe(404);
    });

    it('answers bad ids and bodies with 422', async () => {
      for (const id of ['x', '-4', '0', '99999999999']) {
        const response = await get(tokens['super-admin'], `/api/sites/${id}/buildings`);
        expect(response.statusCode, id).toBe(422);
        expect(response.json.errors).toEqual({ id: 'Id is invalid' });
      }
      const cases: [unknown, string][] = [
        [{}, 'Name is required'],
        [{ name: ' ' }, 'Name is required'],
        [{ name: 'b'.repeat(101) }, 'Name accepts a maximum of 100 characters'],
        [{ name: { nested: true } }, 'Name is invalid'],
      ];
      for (const [payload, message] of cases) {
        const response = await post(tokens['client-admin'], `/api/sites/${towerId}/buildings`, payload);
        expect(response.statusCode, JSON.stringify(payload)).toBe(422);
        expect(response.json.errors).toEqual({ name: message });
      }
    });
  });
});
