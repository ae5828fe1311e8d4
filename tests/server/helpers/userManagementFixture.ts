import { sites } from '../../../server/db/schema';
import type { Role } from '../../../src/domain/roles';
import { type OtherTenant, seedOtherTenant } from './otherTenant';
import { demoIds } from './sessionFor';
import { startTestApp, type TestApp } from './testApp';

export interface UserManagementFixture {
  t: TestApp;
  other: OtherTenant;
  demo: Awaited<ReturnType<typeof demoIds>>;
  /** A second site of the demo client, outside the site admin's group of sites. */
  towerB: number;
  /** Tokens of the demo admins, viewer, crew manager and engineer, and of the other tenant's admins. */
  tokens: Record<
    | 'super-admin'
    | 'client-admin'
    | 'group-of-sites-admin'
    | 'viewer'
    | 'crew'
    | 'engineer'
    | 'otherClientAdmin'
    | 'otherSiteAdmin',
    string
  >;
}

/** The demo site, a second tenant, Tower B and a signed-in user of each kind user management meets. */
export async function startUserManagementFixture(): Promise<UserManagementFixture> {
  const t = await startTestApp();
  const other = await seedOtherTenant(t.db);
  const demo = await demoIds(t.db);
  const [site] = await t.db
    .insert(sites)
    .values({ clientId: demo.clientId, name: 'Tower B', timezone: 'UTC' })
    .returning();
  const tokens = {
    'super-admin': await t.loginAs('super-admin'),
    'client-admin': await t.loginAs('client-admin'),
    'group-of-sites-admin': await t.loginAs('group-of-sites-admin'),
    viewer: await t.loginAs('group-of-sites-viewer'),
    crew: await t.loginAs('crew-manager'),
    engineer: await t.loginAs('site-engineer'),
    otherClientAdmin: await t.login(other.email('client-admin')),
    otherSiteAdmin: await t.login(other.email('group-of-sites-admin')),
  };
  return { t, other, demo, towerB: site.id, tokens };
}

/** GET and POST through the fixture's server as `token` (null: none), and a demo user's id by role. */
export function userManagementRequests(fixture: () => Pick<UserManagementFixture, 't' | 'demo'>) {
  return {
    get: (token: string | null, url: string) => fixture().t.call(token, { method: 'GET', url }),
    post: (token: string | null, url: string, payload?: Record<string, unknown>) =>
      fixture().t.call(token, { method: 'POST', url, ...(payload ? { payload } : {}) }),
    demoUser: (role: Role) => fixture().demo.userIds[role],
  };
}
