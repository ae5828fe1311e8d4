import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoEmail } from '../../server/db/demoSeed';
import { crews, users } from '../../server/db/schema';
import type { Role } from '../../src/domain/roles';
import type { CrewManagerUser } from '../../src/domain/schemas/workforce';
import { startDemoSiteSuite, suiteRequests } from './helpers/demoSiteSuite';
import type { OtherTenant } from './helpers/otherTenant';
import type { TestApp } from './helpers/testApp';

describe("a site's crew-manager users, listed by the server", () => {
  let t: TestApp;
  let other: OtherTenant;
  let siteId: number;
  let tokens: Record<Role, string>;

  beforeAll(async () => {
    ({ t, other, siteId, tokens } = await startDemoSiteSuite([
      'group-of-sites-admin',
      'group-of-sites-viewer',
      'crew-manager',
      'site-engineer',
    ]));
  });
  afterAll(() => t.close());

  const admin = () => tokens['group-of-sites-admin'];
  const { get, post } = suiteRequests(() => t, admin);
  const url = () => `/api/sites/${siteId}/crew-manager-users`;

  it('lists the crew managers of the site by name, with the fields the picker shows', async () => {
    const response = await get(url());
    expect(response.statusCode).toBe(200);
    const listed = response.json.data as CrewManagerUser[];
    const [demoManager] = await t.db
      .select()
      .from(users)
      .where(eq(users.email, demoEmail('crew-manager')));
    expect(listed).toContainEqual({
      id: demoManager.id,
      name: demoManager.name,
      email: demoManager.email,
      user_role: 'crew-manager',
    });
    expect(listed.every((user) => user.user_role === 'crew-manager')).toBe(true);
    const names = listed.map((user) => user.name.toLowerCase());
    expect(names).toEqual([...names].sort());
  });

  it('lists exactly the users that naming a crew’s managers accepts', async () => {
    const listed = (await get(url())).json.data as CrewManagerUser[];
    const [crew] = await t.db.insert(crews).values({ siteId, name: 'Picker crew' }).returning();
    const managersUrl = `/api/sites/${siteId}/crews/${crew.id}/managers`;
    const named = await post(managersUrl, { userIds: listed.map((user) => user.id) });
    expect(named.statusCode).toBe(200);
    expect(named.json.data.manager_ids).toEqual(listed.map((user) => user.id).sort((a, b) => a - b));
    const [viewer] = await t.db
      .select()
      .from(users)
      .where(eq(users.email, demoEmail('group-of-sites-viewer')));
    expect(listed.map((user) => user.id)).not.toContain(viewer.id);
  });

  it('is for the admin roles: crew managers, viewers and engineers are refused; another client sees no site', async () => {
    for (const role of ['crew-manager', 'group-of-sites-viewer', 'site-engineer'] as const) {
      expect((await get(url(), tokens[role])).statusCode, role).toBe(403);
    }
    const otherAdmin = await t.login(other.email('group-of-sites-admin'));
    expect((await get(url(), otherAdmin)).statusCode).toBe(404);
    expect((await t.call(null, { method: 'GET', url: url() })).statusCode).toBe(401);
  });
});
