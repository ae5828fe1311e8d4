import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Role } from '../../src/domain/roles';
import { startDemoSiteSuite, suiteRequests } from './helpers/demoSiteSuite';
import type { OtherTenant } from './helpers/otherTenant';
import type { TestApp } from './helpers/testApp';

interface NameListCase {
  /** The path segment under /api/sites/{id}/. */
  path: string;
  /** The label of the spec's messages. */
  label: string;
  /** Two demo names: the search finds the first and not the second. */
  demo: readonly [string, string];
  created: string;
  /** A demo name in another case and with spaces. */
  duplicate: string;
}

const CASES: readonly NameListCase[] = [
  {
    path: 'subcontractors',
    label: 'Subcontractor',
    demo: ['Al Noor Electrical', 'Crescent MEP Services'],
    created: 'Bay Cladding',
    duplicate: ' GULF STEEL WORKS ',
  },
  {
    path: 'worker-roles',
    label: 'Worker role',
    demo: ['Carpenter', 'Electrician'],
    created: 'Scaffolder',
    duplicate: ' carpenter ',
  },
];

describe.each(CASES)('$path', ({ path, label, demo, created: createdName, duplicate }) => {
  let t: TestApp;
  let other: OtherTenant;
  let siteId: number;
  let otherAdmin: string;
  let tokens: Record<Role, string>;

  beforeAll(async () => {
    ({ t, other, siteId, tokens } = await startDemoSiteSuite([
      'client-admin',
      'group-of-sites-admin',
      'group-of-sites-viewer',
      'crew-manager',
    ]));
    otherAdmin = await t.login(other.email('group-of-sites-admin'));
  });
  afterAll(() => t.close());

  const admin = () => tokens['group-of-sites-admin'];
  const { get, post } = suiteRequests(() => t, admin);
  const names = (data: { name: string }[]) => data.map((row) => row.name);

  it("lists the site's names sorted by name, with a case-insensitive search", async () => {
    const response = await get(`/api/sites/${siteId}/${path}`);
    expect(response.statusCode).toBe(200);
    const list = names(response.json.data);
    expect(list.length).toBeGreaterThan(1);
    expect(list).toEqual([...list].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase())));
    const search = await get(
      `/api/sites/${siteId}/${path}?search=${encodeURIComponent(demo[0].slice(0, 4).toUpperCase())}`,
    );
    expect(names(search.json.data)).toContain(demo[0]);
    expect(names(search.json.data)).not.toContain(demo[1]);
  });

  it('is for the admin roles only (DESIGN §4)', async () => {
    expect((await get(`/api/sites/${siteId}/${path}`, tokens['client-admin'])).statusCode).toBe(200);
    for (const role of ['group-of-sites-viewer', 'crew-manager'] as const) {
      expect((await get(`/api/sites/${siteId}/${path}`, tokens[role])).statusCode).toBe(403);
      expect((await post(`/api/sites/${siteId}/${path}`, { name: 'Nope' }, tokens[role])).statusCode).toBe(
        403,
      );
    }
  });

  it('creates and edits, trimming the name', async () => {
    const created = await post(`/api/sites/${siteId}/${path}`, { name: `  ${createdName}  ` });
    expect(created.statusCode).toBe(200);
    expect(created.json.message).toBe(`${label} is created successfully`);
    expect(created.json.data).toMatchObject({ name: createdName, site_id: siteId });
    const id = created.json.data.id as number;
    const edited = await post(`/api/sites/${siteId}/${path}/${id}`, { name: `${createdName} 2` });
    expect(edited.statusCode).toBe(200);
    expect(edited.json.data).toMatchObject({ id, name: `${createdName} 2` });
    // Renaming to its own name in another case is not a duplicate of itself.
    expect(
      (await post(`/api/sites/${siteId}/${path}/${id}`, { name: `${createdName.toUpperCase()} 2` }))
        .statusCode,
    ).toBe(200);
  });

  it('refuses duplicate names, case-insensitive and trimmed, with 409', async () => {
    const created = await post(`/api/sites/${siteId}/${path}`, { name: duplicate });
    expect(created.statusCode).toBe(409);
    expect(created.json.message).toBe(`${label} name already exists!`);
    const list = (await get(`/api/sites/${siteId}/${path}`)).json.data as {
      id: number;
      name: string;
    }[];
    const [a, b] = list;
    const renamed = await post(`/api/sites/${siteId}/${path}/${a.id}`, {
      name: ` ${b.name.toLowerCase()} `,
    });
    expect(renamed.statusCode).toBe(409);
    expect(renamed.json.message).toBe(`${label} name already exists!`);
    // The same name on another client's site is no duplicate.
    const elsewhere = await post(`/api/sites/${other.siteId}/${path}`, { name: duplicate }, otherAdmin);
    expect(elsewhere.statusCode).toBe(200);
  });

  it('answers 422 with the spec messages for bad input', async () => {
    const missing = await post(`/api/sites/${siteId}/${path}`, {});
    expect(missing.statusCode).toBe(422);
    expect(missing.json.errors).toEqual({ name: 'Name is required' });
    const blank = await post(`/api/sites/${siteId}/${path}`, { name: '   ' });
    expect(blank.statusCode).toBe(422);
    expect(blank.json.errors).toEqual({ name: 'Name is required' });
    const long = await post(`/api/sites/${siteId}/${path}`, { name: 'x'.repeat(101) });
    expect(long.statusCode).toBe(422);
    expect(long.json.errors).toEqual({ name: 'Name accepts a maximum of 100 characters' });
    expect((await post(`/api/sites/${siteId}/${path}`, { name: 7 })).statusCode).toBe(422);
  });

  it("answers 404 for another client's site or item", async () => {
    expect((await get(`/api/sites/${other.siteId}/${path}`)).statusCode).toBe(404);
    expect((await post(`/api/sites/${other.siteId}/${path}`, { name: 'Sneaky' })).statusCode).toBe(404);
    const theirs = (await get(`/api/sites/${other.siteId}/${path}`, otherAdmin)).json.data as {
      id: number;
    }[];
    expect(theirs.length).toBe(1);
    // Their item through our site, and our site's path with their item id.
    expect(
      (await post(`/api/sites/${siteId}/${path}/${theirs[0].id}`, { name: 'Mine now' })).statusCode,
    ).toBe(404);
    expect((await post(`/api/sites/${siteId}/${path}/999999`, { name: 'Ghost' })).statusCode).toBe(404);
  });
});
