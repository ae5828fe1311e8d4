import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crewAssignments, crews, workerRoles } from '../../server/db/schema';
import type { Role } from '../../src/domain/roles';
import type { WorkerFlat, WorkerNested, WorkerStatistics } from '../../src/domain/workers';
import { addOtherTenantWorker, startDemoSiteSuite, suiteRequests } from './helpers/demoSiteSuite';
import type { OtherTenant } from './helpers/otherTenant';
import type { TestApp } from './helpers/testApp';

describe('workers', () => {
  let t: TestApp;
  let other: OtherTenant;
  let siteId: number;
  let otherWorkerId: number;
  let tokens: Record<Role, string>;

  beforeAll(async () => {
    ({ t, other, siteId, tokens } = await startDemoSiteSuite([
      'group-of-sites-admin',
      'group-of-sites-viewer',
      'crew-manager',
      'site-engineer',
    ]));
    otherWorkerId = await addOtherTenantWorker(t.db, other);
  });
  afterAll(() => t.close());

  const admin = () => tokens['group-of-sites-admin'];
  const { get, post, del } = suiteRequests(() => t, admin);
  const base = () => `/api/sites/${siteId}/workers`;

  it('lists a page of the flat form with meta, sorted, searched and filtered', async () => {
    const first = await get(`${base()}?page=1&perPage=20&sort=name,asc`);
    expect(first.statusCode).toBe(200);
    const rows = first.json.data as WorkerFlat[];
    expect(rows).toHaveLength(20);
    expect(first.json.meta).toEqual({ page: 1, perPage: 20, total: 200 });
    const names = rows.map((r) => r.name.toLowerCase());
    expect(names).toEqual([...names].sort());
    expect(rows[0]).toMatchObject({ site_id: siteId, is_online: false });
    expect(rows[0].wnt_inventory_id).toMatch(/^HLM-/);
    expect(rows[0].crew_name).toBeTruthy();
    expect(rows[0].workshift_name).toBeTruthy();

    const desc = (await get(`${base()}?perPage=5&sort=name,desc`)).json.data as WorkerFlat[];
    expect(desc[0].name.toLowerCase() >= desc[4].name.toLowerCase()).toBe(true);

    const byTag = await get(`${base()}?search=emp-1005`);
    expect((byTag.json.data as WorkerFlat[]).map((w) => w.worker_tag_id)).toEqual(['EMP-1005']);
    const byHelmet = await get(`${base()}?search=hlm-0007`);
    expect((byHelmet.json.data as WorkerFlat[]).map((w) => w.wnt_inventory_id)).toEqual(['HLM-0007']);

    const [role] = await t.db.select().from(workerRoles).where(eq(workerRoles.siteId, siteId)).limit(1);
    const byRole = await get(`${base()}?perPage=500&roleId=${role.id}`);
    expect(byRole.json.meta.total).toBeGreaterThan(0);
    expect((byRole.json.data as WorkerFlat[]).every((w) => w.worker_role_name === role.name)).toBe(true);

    const [crew] = await t.db.select().from(crews).where(eq(crews.name, 'Rebar'));
    const byCrew = await get(`${base()}?perPage=500&crewId=${crew.id}`);
    expect((byCrew.json.data as WorkerFlat[]).every((w) => w.crew_name === 'Rebar')).toBe(true);
    expect(byCrew.json.meta.total).toBe(25);

    expect((await get(`${base()}?status=offline`)).json.meta.total).toBe(200);
    expect((await get(`${base()}?status=active`)).json.meta.total).toBe(0);
    const empty = await get(`${base()}?page=99&perPage=50`);
    expect(empty.json.data).toEqual([]);
    expect(empty.json.meta.total).toBe(200);
  });

  it('refuses a bad sort or query with 422, never 500', async () => {
    expect((await get(`${base()}?sort=password,asc`)).statusCode).toBe(422);
    expect((await get(`${base()}?sort=name,sideways`)).statusCode).toBe(422);
    expect((await get(`${base()}?perPage=0`)).statusCode).toBe(422);
    expect((await get(`${base()}?status=dancing`)).statusCode).toBe(422);
    expect(
      (await get(`${base()}?search=${encodeURIComponent("'; drop table workers; --")}`)).statusCode,
    ).toBe(200);
  });

  it('creates, reads (nested form), edits and deletes a worker with the spec messages', async () => {
    const [role] = await t.db.select().from(workerRoles).where(eq(workerRoles.siteId, siteId)).limit(1);
    const created = await post(base(), {
      name: '  Test Person ',
      worker_tag_id: 'T-1',
      contact_number: '0501234567',
      worker_role_id: role.id,
    });
    expect(created.statusCode).toBe(200);
    expect(created.json.message).toBe('Worker is created successfully');
    const worker = created.json.data as WorkerNested;
    expect(worker).toMatchObject({ name: 'Test Person', WorkerRole: { name: role.name }, Inventory: null });
    expect(worker.AssignedCrews).toEqual([]);

    const read = await get(`${base()}/${worker.id}`);
    expect(read.json.data).toMatchObject({ id: worker.id, contact_number: '0501234567' });

    const edited = await post(`${base()}/${worker.id}`, { name: 'Renamed', contact_number: '' });
    expect(edited.statusCode).toBe(200);
    expect(edited.json.data).toMatchObject({ name: 'Renamed', contact_number: null, WorkerRole: null });

    const removed = await del(`${base()}/${worker.id}`);
    expect(removed.statusCode).toBe(200);
    expect(removed.json.message).toBe('Worker is deleted successfully');
    expect((await get(`${base()}/${worker.id}`)).statusCode).toBe(404);
  });

  it('validates with the spec §5 messages', async () => {
    const bad = async (payload: object, field: string, message: string) => {
      const reply = await post(base(), payload);
      expect(reply.statusCode).toBe(422);
      expect(reply.json.errors?.[field]).toBe(message);
    };
    await bad({}, 'name', 'Name is required');
    await bad({ name: '   ' }, 'name', 'Name is required');
    await bad({ name: 'A' }, 'name', 'Name accepts a minimum of 2 characters');
    await bad({ name: 'x'.repeat(101) }, 'name', 'Name accepts a maximum of 100 characters');
    await bad(
      { name: 'Ok', contact_number: '12a4567' },
      'contact_number',
      'Contact number accepts only digits',
    );
    await bad(
      { name: 'Ok', contact_number: '123' },
      'contact_number',
      'Contact number accepts a minimum of 7 digits',
    );
    await bad(
      { name: 'Ok', contact_number: '1'.repeat(16) },
      'contact_number',
      'Contact number accepts a maximum of 15 digits',
    );
    await bad(
      { name: 'Ok', worker_tag_id: 'x'.repeat(51) },
      'worker_tag_id',
      'Worker tag id accepts a maximum of 50 characters',
    );
    const [otherRole] = await t.db
      .insert(workerRoles)
      .values({ siteId: other.siteId, name: 'Depot role' })
      .returning();
    await bad({ name: 'Ok', worker_role_id: otherRole.id }, 'worker_role_id', 'Worker role is invalid');
  });

  it("answers 404 for another client's worker or site and 403 to roles without access", async () => {
    expect((await get(`${base()}/${otherWorkerId}`)).statusCode).toBe(404);
    expect((await post(`${base()}/${otherWorkerId}`, { name: 'Hijack' })).statusCode).toBe(404);
    expect((await del(`${base()}/${otherWorkerId}`)).statusCode).toBe(404);
    expect((await get(`/api/sites/${other.siteId}/workers`)).statusCode).toBe(404);
    expect((await get(base(), tokens['site-engineer'])).statusCode).toBe(403);
    expect((await get(base(), tokens['group-of-sites-viewer'])).statusCode).toBe(200);
    expect((await post(base(), { name: 'Viewer made' }, tokens['group-of-sites-viewer'])).statusCode).toBe(
      403,
    );
  });

  it('shows a crew manager only the workers of its crews, and only those may it change', async () => {
    const cm = tokens['crew-manager'];
    const mine = await get(`${base()}?perPage=500`, cm);
    expect(mine.statusCode).toBe(200);
    const rows = mine.json.data as WorkerFlat[];
    expect(rows.length).toBe(mine.json.meta.total);
    expect(new Set(rows.map((w) => w.crew_name))).toEqual(new Set(['Formwork A', 'Formwork B']));
    const [rebar] = await t.db.select().from(crews).where(eq(crews.name, 'Rebar'));
    const [outsider] = await t.db
      .select({ id: crewAssignments.workerId })
      .from(crewAssignments)
      .where(eq(crewAssignments.crewId, rebar.id))
      .limit(1);
    expect((await get(`${base()}/${outsider.id}`, cm)).statusCode).toBe(404);
    expect((await post(`${base()}/${outsider.id}`, { name: 'Nope' }, cm)).statusCode).toBe(404);
    expect((await del(`${base()}/${outsider.id}`, cm)).statusCode).toBe(404);
    const own = rows[0];
    const edit = await post(`${base()}/${own.id}`, { name: `${own.name} Jr` }, cm);
    expect(edit.statusCode).toBe(200);
    expect((await post(base(), { name: 'New hire' }, cm)).statusCode).toBe(403);
    const stats = (await get(`${base()}/statistics`, cm)).json.data as WorkerStatistics;
    expect(stats.total).toBe(rows.length);
  });

  it('answers statistics by status, role and subcontractor', async () => {
    const reply = await get(`${base()}/statistics`);
    expect(reply.statusCode).toBe(200);
    const stats = reply.json.data as WorkerStatistics;
    expect(stats.total).toBe(200);
    expect(stats.byStatus).toEqual({ active: 0, inactive: 0, offline: 200, noHelmet: 0 });
    expect(stats.byRole.reduce((sum, r) => sum + r.count, 0)).toBe(200);
    expect(stats.bySubcontractor.reduce((sum, r) => sum + r.count, 0)).toBe(200);
    expect((await get(`/api/sites/${other.siteId}/workers/statistics`)).statusCode).toBe(404);
  });
});
