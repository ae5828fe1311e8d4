import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userSites, users } from '../../server/db/schema';
import type { OtherTenant } from './helpers/otherTenant';
import { addUser } from './helpers/sessionFor';
import type { TestApp } from './helpers/testApp';
import {
  startUserManagementFixture,
  type UserManagementFixture,
  userManagementRequests,
} from './helpers/userManagementFixture';

describe('user management: /api/users', () => {
  let t: TestApp;
  let other: OtherTenant;
  let demo: UserManagementFixture['demo'];
  let towerB: number;
  let tokens: UserManagementFixture['tokens'];

  beforeAll(async () => {
    ({ t, other, demo, towerB, tokens } = await startUserManagementFixture());
  });
  afterAll(() => t.close());

  const { get, post, demoUser } = userManagementRequests(() => ({ t, demo }));
  const membershipsOf = async (userId: number) =>
    (await t.db.select().from(userSites).where(eq(userSites.userId, userId))).map((m) => m.siteId).sort();

  describe('GET /users', () => {
    it("lists a client-admin's client users by name, with key and clients, never another client's", async () => {
      const response = await get(tokens['client-admin'], '/api/users');
      expect(response.statusCode).toBe(200);
      const list = response.json.data as any[];
      const names = list.map((u) => u.name);
      expect(names).toEqual([...names].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase())));
      expect(names).toContain('Demo Site Viewer');
      expect(names).not.toContain('Demo Super Admin');
      expect(list.every((u) => u.client_id === demo.clientId)).toBe(true);
      const viewer = list.find((u) => u.id === demoUser('group-of-sites-viewer'));
      expect(viewer).toEqual({
        id: viewer.id,
        key: viewer.id,
        name: 'Demo Site Viewer',
        email: 'site-viewer@demo.sitewatch.dev',
        user_role: 'group-of-sites-viewer',
        status: 'active',
        client_id: demo.clientId,
        group_of_sites_id: demo.groupOfSitesId,
        clients: [{ id: demo.clientId, name: 'Demo Construction Co' }],
        sites: viewer.sites,
        site_ids: viewer.site_ids,
        registered: true,
      });
      expect(viewer).not.toHaveProperty('passwordHash');
      expect(response.json.meta).toEqual({ page: 1, perPage: 20, total: list.length });
    });

    it('lists every client for a super-admin, and filters by client_id', async () => {
      const all = await get(tokens['super-admin'], '/api/users?perPage=100');
      expect(all.json.data.map((u: any) => u.email)).toEqual(
        expect.arrayContaining(['super-admin@demo.sitewatch.dev', other.email('client-admin')]),
      );
      const superAdmin = all.json.data.find((u: any) => u.user_role === 'super-admin');
      expect(superAdmin.clients.map((c: any) => c.name)).toEqual(['Demo Construction Co', 'Other Co']);

      const filtered = await get(tokens['super-admin'], `/api/users?client_id=${other.clientId}`);
      expect(filtered.statusCode).toBe(200);
      expect(filtered.json.data.map((u: any) => u.email).sort()).toEqual(
        [
          other.email('client-admin'),
          other.email('group-of-sites-admin'),
          other.email('group-of-sites-viewer'),
        ].sort(),
      );
    });

    it("answers another client's client_id with 404", async () => {
      const response = await get(tokens['client-admin'], `/api/users?client_id=${other.clientId}`);
      expect(response.statusCode).toBe(404);
      expect(response.json.message).toBe('Client not found');
      expect(
        (await get(tokens['group-of-sites-admin'], `/api/users?client_id=${other.clientId}`)).statusCode,
      ).toBe(404);
    });

    it('shows a site admin the users of its sites, never an admin above it', async () => {
      const response = await get(tokens['group-of-sites-admin'], '/api/users');
      expect(response.statusCode).toBe(200);
      const roles = response.json.data.map((u: any) => u.user_role);
      expect(roles).not.toContain('client-admin');
      expect(roles).not.toContain('super-admin');
      expect(roles).toEqual(
        expect.arrayContaining(['group-of-sites-admin', 'group-of-sites-viewer', 'crew-manager']),
      );
    });

    it('pages, searches and sorts', async () => {
      const all = await get(tokens['client-admin'], '/api/users');
      const total = all.json.meta.total as number;
      expect(total).toBeGreaterThanOrEqual(6);
      const second = await get(tokens['client-admin'], '/api/users?page=2&perPage=2');
      expect(second.statusCode).toBe(200);
      expect(second.json.meta).toEqual({ page: 2, perPage: 2, total });
      expect(second.json.data.map((u: any) => u.id)).toEqual(all.json.data.slice(2, 4).map((u: any) => u.id));
      const beyond = await get(tokens['client-admin'], '/api/users?page=99&perPage=2');
      expect(beyond.json).toMatchObject({ data: [], meta: { page: 99, perPage: 2, total } });

      const search = await get(tokens['client-admin'], '/api/users?search=SITE%20VIEW');
      expect(search.json.data.map((u: any) => u.name)).toEqual(['Demo Site Viewer']);
      expect(search.json.meta.total).toBe(1);
      const byEmail = await get(tokens['client-admin'], '/api/users?search=crew-manager%40');
      expect(byEmail.json.data.map((u: any) => u.email)).toEqual(['crew-manager@demo.sitewatch.dev']);
      const wildcard = await get(tokens['client-admin'], '/api/users?search=%25');
      expect(wildcard.json.data).toEqual([]);

      const desc = await get(tokens['client-admin'], '/api/users?sort=email,desc&perPage=100');
      const emails = desc.json.data.map((u: any) => u.email);
      expect(emails).toEqual([...emails].sort().reverse());
    });

    it.each([
      ['page=0', 'page'],
      ['page=abc', 'page'],
      ['perPage=0', 'perPage'],
      ['perPage=1000', 'perPage'],
      ['client_id=abc', 'client_id'],
      ['sort=password_hash,asc', 'sort'],
      [`search=${'x'.repeat(101)}`, 'search'],
    ])('refuses %s with 422', async (query, field) => {
      const response = await get(tokens['client-admin'], `/api/users?${query}`);
      expect(response.statusCode).toBe(422);
      expect(response.json.errors).toHaveProperty(field);
    });

    it('refuses roles without user management with 403', async () => {
      for (const token of [tokens.viewer, tokens.crew, tokens.engineer]) {
        const response = await get(token, '/api/users');
        expect(response.statusCode).toBe(403);
        expect(response.json.message).toBe('Not Authorized');
      }
      expect((await get(null, '/api/users')).statusCode).toBe(401);
    });
  });

  describe('GET /users/{id}/clients and /users/{id}/sites', () => {
    it("gives a user's client and sites to its admin", async () => {
      const viewer = demoUser('group-of-sites-viewer');
      const clients = await get(tokens['client-admin'], `/api/users/${viewer}/clients`);
      expect(clients.statusCode).toBe(200);
      expect(clients.json.data).toEqual([{ id: demo.clientId, name: 'Demo Construction Co' }]);
      const siteList = await get(tokens['client-admin'], `/api/users/${viewer}/sites`);
      expect(siteList.statusCode).toBe(200);
      expect(siteList.json.data).toEqual([
        {
          id: demo.siteId,
          name: 'Tower A',
          timezone: 'Asia/Dubai',
          client_id: demo.clientId,
          group_of_sites_id: demo.groupOfSitesId,
        },
      ]);
    });

    it("gives a client-admin all of its client's sites, and a super-admin every client", async () => {
      const own = await get(tokens['client-admin'], `/api/users/${demoUser('client-admin')}/sites`);
      expect(own.json.data.map((s: any) => s.name)).toEqual(['Tower A', 'Tower B']);
      const superClients = await get(tokens['super-admin'], `/api/users/${demoUser('super-admin')}/clients`);
      expect(superClients.json.data.map((c: any) => c.name)).toEqual(['Demo Construction Co', 'Other Co']);
      const otherViewer = await get(
        tokens['super-admin'],
        `/api/users/${other.userIds['group-of-sites-viewer']}/sites`,
      );
      expect(otherViewer.json.data.map((s: any) => s.name)).toEqual(['Depot B']);
      const filtered = await get(
        tokens['super-admin'],
        `/api/users/${demoUser('super-admin')}/sites?client_id=${other.clientId}`,
      );
      expect(filtered.json.data.map((s: any) => s.name)).toEqual(['Depot B']);
    });

    it('only shows the sites the caller can see', async () => {
      // A crew manager of Tower A also made a member of Tower B, seen by a site admin of Tower A.
      const crew = await addUser(t.db, {
        role: 'crew-manager',
        clientId: demo.clientId,
        groupOfSitesId: demo.groupOfSitesId,
        siteIds: [towerB],
        password: 'a-long-password',
      });
      const seen = await get(tokens['group-of-sites-admin'], `/api/users/${crew.id}/sites`);
      expect(seen.json.data.map((s: any) => s.name)).toEqual(['Tower A']);
      const all = await get(tokens['client-admin'], `/api/users/${crew.id}/sites`);
      expect(all.json.data.map((s: any) => s.name)).toEqual(['Tower A', 'Tower B']);
    });

    it('lets every role read its own clients and sites', async () => {
      for (const [token, role] of [
        [tokens.viewer, 'group-of-sites-viewer'],
        [tokens.crew, 'crew-manager'],
        [tokens.engineer, 'site-engineer'],
      ] as const) {
        const clients = await get(token, `/api/users/${demoUser(role)}/clients`);
        expect(clients.statusCode).toBe(200);
        expect(clients.json.data).toEqual([{ id: demo.clientId, name: 'Demo Construction Co' }]);
        const siteList = await get(token, `/api/users/${demoUser(role)}/sites`);
        expect(siteList.statusCode).toBe(200);
        expect(siteList.json.data.map((s: any) => s.name)).toEqual(['Tower A']);
      }
    });

    it("answers 404 for another client's user and client, 403 for someone else's to other roles", async () => {
      for (const path of ['clients', 'sites']) {
        const foreign = await get(
          tokens['client-admin'],
          `/api/users/${other.userIds['group-of-sites-viewer']}/${path}`,
        );
        expect(foreign.statusCode).toBe(404);
        expect(foreign.json.message).toBe('User not found');
        const above = await get(
          tokens['group-of-sites-admin'],
          `/api/users/${demoUser('client-admin')}/${path}`,
        );
        expect(above.statusCode).toBe(404);
        expect((await get(tokens['client-admin'], `/api/users/999999/${path}`)).statusCode).toBe(404);
        const peer = await get(tokens.viewer, `/api/users/${demoUser('crew-manager')}/${path}`);
        expect(peer.statusCode).toBe(403);
        expect((await get(tokens['client-admin'], `/api/users/abc/${path}`)).statusCode).toBe(422);
        expect((await get(tokens['client-admin'], `/api/users/${2 ** 40}/${path}`)).statusCode).toBe(422);
      }
      const foreignClient = await get(
        tokens['client-admin'],
        `/api/users/${demoUser('client-admin')}/sites?client_id=${other.clientId}`,
      );
      expect(foreignClient.statusCode).toBe(404);
      expect(foreignClient.json.message).toBe('Client not found');
    });
  });

  describe('POST /users/{id} (edit)', () => {
    it('changes name, role and memberships in one go', async () => {
      const user = await addUser(t.db, {
        role: 'group-of-sites-viewer',
        clientId: demo.clientId,
        siteIds: [demo.siteId],
        password: 'a-long-password',
      });
      const response = await post(tokens['client-admin'], `/api/users/${user.id}`, {
        name: ' Renamed ',
        user_role: 'crew-manager',
        site_ids: [towerB],
      });
      expect(response.statusCode).toBe(200);
      expect(response.json.message).toBe('User is updated successfully');
      expect(response.json.data).toMatchObject({
        id: user.id,
        key: user.id,
        name: 'Renamed',
        user_role: 'crew-manager',
        status: 'active',
      });
      expect(await membershipsOf(user.id)).toEqual([towerB]);

      const nameOnly = await post(tokens['client-admin'], `/api/users/${user.id}`, { name: 'Only Name' });
      expect(nameOnly.json.data).toMatchObject({ name: 'Only Name', user_role: 'crew-manager' });
      expect(await membershipsOf(user.id)).toEqual([towerB]);
    });

    it("keeps memberships a site admin cannot see when it replaces a user's sites", async () => {
      const user = await addUser(t.db, {
        role: 'site-engineer',
        clientId: demo.clientId,
        groupOfSitesId: demo.groupOfSitesId,
        siteIds: [towerB],
      });
      const response = await post(tokens['group-of-sites-admin'], `/api/users/${user.id}`, {
        site_ids: [demo.siteId],
      });
      expect(response.statusCode).toBe(200);
      expect(await membershipsOf(user.id)).toEqual([demo.siteId, towerB].sort());
      const cleared = await post(tokens['group-of-sites-admin'], `/api/users/${user.id}`, { site_ids: [] });
      expect(cleared.statusCode).toBe(200);
      expect(await membershipsOf(user.id)).toEqual([towerB]);
    });

    it('keeps the role reach of invitations', async () => {
      const user = await addUser(t.db, {
        role: 'crew-manager',
        clientId: demo.clientId,
        groupOfSitesId: demo.groupOfSitesId,
      });
      const promote = await post(tokens['group-of-sites-admin'], `/api/users/${user.id}`, {
        user_role: 'client-admin',
      });
      expect(promote.statusCode).toBe(403);
      expect(promote.json.message).toBe('Not Authorized');
      const toSuper = await post(tokens['client-admin'], `/api/users/${user.id}`, {
        user_role: 'super-admin',
      });
      expect(toSuper.statusCode).toBe(403);
      const elsewhere = await post(tokens['group-of-sites-admin'], `/api/users/${user.id}`, {
        site_ids: [towerB],
      });
      expect(elsewhere.statusCode).toBe(404);
      expect(elsewhere.json.message).toBe('Site not found');
      const foreignSite = await post(tokens['super-admin'], `/api/users/${user.id}`, {
        site_ids: [other.siteId],
      });
      expect(foreignSite.statusCode).toBe(422);
      expect(foreignSite.json.errors).toHaveProperty('site_ids');
      const self = await post(tokens['client-admin'], `/api/users/${demoUser('client-admin')}`, {
        user_role: 'crew-manager',
      });
      expect(self.statusCode).toBe(422);
      expect(self.json.errors).toEqual({ user_role: 'You cannot change your own role' });
      const [row] = await t.db.select().from(users).where(eq(users.id, user.id));
      expect(row.role).toBe('crew-manager');
    });

    it('answers 404 across tenants, 403 to other roles and 422 to bad input', async () => {
      const target = demoUser('crew-manager');
      const foreign = await post(
        tokens['client-admin'],
        `/api/users/${other.userIds['group-of-sites-viewer']}`,
        {
          name: 'Hijack',
        },
      );
      expect(foreign.statusCode).toBe(404);
      expect(foreign.json.message).toBe('User not found');
      expect(
        (await post(tokens.otherClientAdmin, `/api/users/${target}`, { name: 'Hijack' })).statusCode,
      ).toBe(404);
      expect((await post(tokens.viewer, `/api/users/${target}`, { name: 'Hijack' })).statusCode).toBe(403);
      expect((await post(tokens.crew, `/api/users/${target}`, { name: 'Hijack' })).statusCode).toBe(403);

      const bad: [Record<string, unknown>, Record<string, string>][] = [
        [{ name: '  ' }, { name: 'Name is required' }],
        [{ name: 'x'.repeat(101) }, { name: 'Name accepts a maximum of 100 characters' }],
        [{ user_role: 'owner' }, { user_role: 'User role is invalid' }],
        [{ site_ids: 'all' }, {}],
        [{ email: 'new@example.test' }, { email: 'Email is not allowed' }],
      ];
      for (const [payload, errors] of bad) {
        const response = await post(tokens['client-admin'], `/api/users/${target}`, payload);
        expect(response.statusCode, JSON.stringify(payload)).toBe(422);
        expect(response.json.errors).toMatchObject(errors);
      }
      const [row] = await t.db.select().from(users).where(eq(users.id, target));
      expect(row.name).toBe('Demo Crew Manager');
    });
  });

  it('leaves /users/preferences and /users/recently-visited to the signed-in user, whatever the role', async () => {
    const preferences = await post(tokens.viewer, '/api/users/preferences', { locale: 'en' });
    expect(preferences.statusCode).toBe(200);
    const visited = await post(tokens.crew, '/api/users/recently-visited', {
      client_id: demo.clientId,
      site_id: demo.siteId,
    });
    expect(visited.statusCode).toBe(200);
  });
});
