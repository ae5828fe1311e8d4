import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_SITE } from '../../server/db/demoSeed';
import { sites } from '../../server/db/schema';
import type { Role } from '../../src/domain/roles';
import { type OtherTenant, seedOtherTenant } from './helpers/otherTenant';
import { startTestApp, type TestApp } from './helpers/testApp';

describe('subcontractors', () => {
  let t: TestApp;
  let other: OtherTenant;
  let siteId: number;
  let otherAdmin: string;
  const tokens = {} as Record<Role, string>;

  beforeAll(async () => {
    t = await startTestApp();
    other = await seedOtherTenant(t.db);
    [{ id: siteId }] = await t.db.select().from(sites).where(eq(sites.name, DEMO_SITE));
    for (const role of [
      'client-admin',
      'group-of-sites-admin',
      'group-of-sites-viewer',
      'crew-manager',
    ] as const)
      tokens[role] = await t.loginAs(role);
    otherAdmin = await t.login(other.email('group-of-sites-admin'));
  });
  afterAll(() => t.close());

  const admin = () => tokens['group-of-sites-admin'];
  const get = (url: string, token = admin()) => t.call(token, { method: 'GET', url });
  const post = (url: string, payload: unknown, token = admin()) =>
    t.call(token, { method: 'POST', url, payload: payload as object });
  const names = (data: { name: string }[]) => data.map((row) => row.name);

  it("lists the site's names sorted by name, with a case-insensitive search", async () => {
    const response = await get(`/api/sites/${siteId}/subcontractors`);
    expect(response.statusCode).toBe(200);
    const list = names(response.json.data);
    expect(list.length).toBeGreaterThan(1);
    expect(list).toEqual([...list].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase())));
    const search = await get(
      `/api/sites/${siteId}/subcontractors?search=${encodeURIComponent('Al Noor Electrical'.slice(0, 4).toUpperCase())}`,
    );
    expect(names(search.json.data)).toContain('Al Noor Electrical');
    expect(names(search.json.data)).not.toContain('Crescent MEP Services');
  });

  it('is for the admin roles only (DESIGN §4)', async () => {
    expect((await get(`/api/sites/${siteId}/subcontractors`, tokens['client-admin'])).statusCode).toBe(200);
    for (const role of ['group-of-sites-viewer', 'crew-manager'] as const) {
      expect((await get(`/api/sites/${siteId}/subcontractors`, tokens[role])).statusCode).toBe(403);
      expect(
        (await post(`/api/sites/${siteId}/subcontractors`, { name: 'Nope' }, tokens[role])).statusCode,
      ).toBe(403);
    }
  });

  it('creates and edits, trimming the name', async () => {
    const created = await post(`/api/sites/${siteId}/subcontractors`, { name: '  Bay Cladding  ' });
    expect(created.statusCode).toBe(200);
    expect(created.json.message).toBe('Subcontractor is created successfully');
    expect(created.json.data).toMatchObject({ name: 'Bay Cladding', site_id: siteId });
    const id = created.json.data.id as number;
    const edited = await post(`/api/sites/${siteId}/subcontractors/${id}`, { name: 'Bay Cladding 2' });
    expect(edited.statusCode).toBe(200);
    expect(edited.json.data).toMatchObject({ id, name: 'Bay Cladding 2' });
    // Renaming to its own name in another case is not a duplicate of itself.
    expect(
      (await post(`/api/sites/${siteId}/subcontractors/${id}`, { name: 'BAY CLADDING 2' })).statusCode,
    ).toBe(200);
  });

  it('refuses duplicate names, case-insensitive and trimmed, with 409', async () => {
    const created = await post(`/api/sites/${siteId}/subcontractors`, { name: ' GULF STEEL WORKS ' });
    expect(created.statusCode).toBe(409);
    expect(created.json.message).toBe('Subcontractor name already exists!');
    const list = (await get(`/api/sites/${siteId}/subcontractors`)).json.data as {
      id: number;
      name: string;
    }[];
    const [a, b] = list;
    const renamed = await post(`/api/sites/${siteId}/subcontractors/${a.id}`, {
      name: ` ${b.name.toLowerCase()} `,
    });
    expect(renamed.statusCode).toBe(409);
    expect(renamed.json.message).toBe('Subcontractor name already exists!');
    // The same name on another client's site is no duplicate.
    const elsewhere = await post(
      `/api/sites/${other.siteId}/subcontractors`,
      { name: ' GULF STEEL WORKS ' },
      otherAdmin,
    );
    expect(elsewhere.statusCode).toBe(200);
  });

  it('answers 422 with the spec messages for bad input', async () => {
    const missing = await post(`/api/sites/${siteId}/subcontractors`, {});
    expect(missing.statusCode).toBe(422);
    expect(missing.json.errors).toEqual({ name: 'Name is required' });
    const blank = await post(`/api/sites/${siteId}/subcontractors`, { name: '   ' });
    expect(blank.statusCode).toBe(422);
    expect(blank.json.errors).toEqual({ name: 'Name is required' });
    const long = await post(`/api/sites/${siteId}/subcontractors`, { name: 'x'.repeat(101) });
    expect(long.statusCode).toBe(422);
    expect(long.json.errors).toEqual({ name: 'Name accepts a maximum of 100 characters' });
    expect((await post(`/api/sites/${siteId}/subcontractors`, { name: 7 })).statusCode).toBe(422);
  });

  it("answers 404 for another client's site or item", async () => {
    expect((await get(`/api/sites/${other.siteId}/subcontractors`)).statusCode).toBe(404);
    expect((await post(`/api/sites/${other.siteId}/subcontractors`, { name: 'Sneaky' })).statusCode).toBe(
      404,
    );
    const theirs = (await get(`/api/sites/${other.siteId}/subcontractors`, otherAdmin)).json.data as {
      id: number;
    }[];
    expect(theirs.length).toBe(1);
    // Their item through our site, and our site's path with their item id.
    expect(
      (await post(`/api/sites/${siteId}/subcontractors/${theirs[0].id}`, { name: 'Mine now' })).statusCode,
    ).toBe(404);
    expect((await post(`/api/sites/${siteId}/subcontractors/999999`, { name: 'Ghost' })).statusCode).toBe(
      404,
    );
  });
});
