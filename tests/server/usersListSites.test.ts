import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Role } from '../../src/domain/roles';
import type { ManagedUser } from '../../src/domain/user';
import { USER_ACTIONS, userActionRefusal } from '../../src/domain/userManagement';
import { addUser } from './helpers/sessionFor';
import type { TestApp } from './helpers/testApp';
import {
  startUserManagementFixture,
  type UserManagementFixture,
  userManagementRequests,
} from './helpers/userManagementFixture';

describe("user management's list: each user's sites, memberships and registration", () => {
  let t: TestApp;
  let demo: UserManagementFixture['demo'];
  let towerB: number;
  let tokens: UserManagementFixture['tokens'];

  beforeAll(async () => {
    ({ t, demo, towerB, tokens } = await startUserManagementFixture());
  });
  afterAll(() => t.close());

  const { get, post, demoUser } = userManagementRequests(() => ({ t, demo }));
  const listAs = async (token: string): Promise<ManagedUser[]> =>
    (await get(token, '/api/users?perPage=100')).json.data;

  it.each([['super-admin'], ['client-admin'], ['group-of-sites-admin']] as const)(
    'gives %s the same sites per row as GET /users/{id}/sites',
    async (caller) => {
      const list = await listAs(tokens[caller]);
      expect(list.length).toBeGreaterThan(3);
      for (const user of list) {
        const one = await get(tokens[caller], `/api/users/${user.id}/sites`);
        expect(user.sites, user.email).toEqual(one.json.data.map((s: any) => ({ id: s.id, name: s.name })));
      }
    },
  );

  it('names only memberships the caller sees as site_ids, and only sites the caller sees', async () => {
    const crew = await addUser(t.db, {
      role: 'crew-manager',
      clientId: demo.clientId,
      groupOfSitesId: demo.groupOfSitesId,
      siteIds: [towerB],
      password: 'a-long-password',
    });
    const bySiteAdmin = (await listAs(tokens['group-of-sites-admin'])).find((u) => u.id === crew.id);
    expect(bySiteAdmin).toMatchObject({ sites: [{ id: demo.siteId, name: 'Tower A' }], site_ids: [] });
    const byClientAdmin = (await listAs(tokens['client-admin'])).find((u) => u.id === crew.id);
    expect(byClientAdmin).toMatchObject({
      sites: [
        { id: demo.siteId, name: 'Tower A' },
        { id: towerB, name: 'Tower B' },
      ],
      site_ids: [towerB],
      registered: true,
    });
  });

  it('replies an invitee unregistered with its sites, and so does its edit', async () => {
    const invite = await post(tokens['client-admin'], '/api/invite', {
      name: 'Sites Invitee',
      email: 'sites.invitee@example.test',
      user_role: 'site-engineer',
      site_ids: [towerB],
    });
    expect(invite.statusCode).toBe(200);
    const [user] = invite.json.data;
    expect(user).toMatchObject({
      status: 'invited',
      registered: false,
      sites: [{ id: towerB, name: 'Tower B' }],
      site_ids: [towerB],
    });
    const edit = await post(tokens['client-admin'], `/api/users/${user.id}`, { site_ids: [demo.siteId] });
    expect(edit.json.data).toMatchObject({
      sites: [{ id: demo.siteId, name: 'Tower A' }],
      site_ids: [demo.siteId],
    });
  });

  it("refuses exactly the actions the console's rule leaves out, through a user's whole life", async () => {
    const siteAdmin = { id: demoUser('group-of-sites-admin'), role: 'group-of-sites-admin' as Role };
    const invite = await post(tokens['group-of-sites-admin'], '/api/invite', {
      name: 'Life Cycle',
      email: 'life.cycle@example.test',
      user_role: 'crew-manager',
      site_ids: [demo.siteId],
    });
    const id = invite.json.data[0].id as number;
    const current = async () =>
      (await listAs(tokens['group-of-sites-admin'])).find((u) => u.id === id) as ManagedUser;
    const call = (action: (typeof USER_ACTIONS)[number]) => {
      const url = {
        edit: `/api/users/${id}`,
        activate: `/api/users/${id}/activate`,
        deactivate: `/api/users/${id}/deactivate`,
        reinvite: `/api/users/${id}/reinvite`,
        setPassword: `/api/users/${id}/reset-password`,
      }[action];
      const body = { edit: { name: 'Life Cycle' }, setPassword: { password: 'a-long-password' } }[
        action as 'edit' | 'setPassword'
      ];
      return post(tokens['group-of-sites-admin'], url, body);
    };
    const refusedNow = async () => {
      const user = await current();
      for (const action of USER_ACTIONS) {
        const refusal = userActionRefusal(siteAdmin, action, user);
        if (refusal === null) continue;
        const answer = await call(action);
        expect(answer.statusCode, `${action} on ${user.status}`).toBe(409);
        expect(answer.json.message).toBe(
          refusal === 'notRegistered' ? 'User has not registered yet' : 'User is already registered',
        );
      }
    };
    // invited → inactive (never registered) → invited again → registered → active
    await refusedNow();
    expect((await call('deactivate')).statusCode).toBe(200);
    await refusedNow();
    expect((await call('reinvite')).statusCode).toBe(200);
    expect((await current()).status).toBe('invited');
    expect((await call('setPassword')).statusCode).toBe(200);
    expect((await current()).registered).toBe(true);
    await refusedNow();
    expect((await call('activate')).statusCode).toBe(200);
    await refusedNow();

    const self = await post(tokens['group-of-sites-admin'], `/api/users/${siteAdmin.id}/deactivate`);
    expect(self.statusCode).toBe(422);
    expect(self.json.errors).toEqual({ id: 'You cannot deactivate yourself' });
  });
});
