import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoEmail } from '../../server/db/demoSeed';
import { crewAssignments, crews, users } from '../../server/db/schema';
import type { Role } from '../../src/domain/roles';
import {
  addOtherTenantWorker,
  startDemoSiteSuite,
  suiteRequests,
  workerIdsOf,
} from './helpers/demoSiteSuite';
import type { OtherTenant } from './helpers/otherTenant';
import type { TestApp } from './helpers/testApp';

interface Crew {
  id: number;
  name: string;
  site_id: number;
  manager_ids: number[];
}

describe('crews', () => {
  let t: TestApp;
  let other: OtherTenant;
  let siteId: number;
  let otherAdmin: string;
  let otherCrewId: number;
  let otherWorkerId: number;
  let crewManagerId: number;
  let siteWorkerIds: number[];
  let tokens: Record<Role, string>;

  beforeAll(async () => {
    ({ t, other, siteId, tokens } = await startDemoSiteSuite([
      'group-of-sites-admin',
      'group-of-sites-viewer',
      'crew-manager',
      'site-engineer',
    ]));
    otherAdmin = await t.login(other.email('group-of-sites-admin'));
    [{ id: otherCrewId }] = await t.db
      .insert(crews)
      .values({ siteId: other.siteId, name: 'Depot crew' })
      .returning();
    otherWorkerId = await addOtherTenantWorker(t.db, other);
    [{ id: crewManagerId }] = await t.db
      .select()
      .from(users)
      .where(eq(users.email, demoEmail('crew-manager')));
    siteWorkerIds = await workerIdsOf(t.db, siteId);
  });
  afterAll(() => t.close());

  const admin = () => tokens['group-of-sites-admin'];
  const { get, post } = suiteRequests(() => t, admin);
  const crewsOf = async (token = admin()) =>
    (await get(`/api/sites/${siteId}/crews`, token)).json.data as Crew[];
  const crewNamed = async (name: string) => (await crewsOf()).find((c) => c.name === name) as Crew;

  it('lists the site crews sorted by name with their managers; a viewer reads, an engineer may not', async () => {
    const list = await crewsOf();
    expect(list.length).toBe(8);
    const names = list.map((c) => c.name);
    expect(names).toEqual([...names].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase())));
    expect(list.find((c) => c.name === 'Formwork A')?.manager_ids).toEqual([crewManagerId]);
    const search = (await get(`/api/sites/${siteId}/crews?search=formwork`)).json.data as Crew[];
    expect(search.map((c) => c.name)).toEqual(['Formwork A', 'Formwork B']);
    expect((await get(`/api/sites/${siteId}/crews`, tokens['group-of-sites-viewer'])).statusCode).toBe(200);
    expect((await get(`/api/sites/${siteId}/crews`, tokens['site-engineer'])).statusCode).toBe(403);
  });

  it('shows a crew manager only its own crews, and other crews are 404 to it', async () => {
    const mine = await crewsOf(tokens['crew-manager']);
    expect(mine.map((c) => c.name)).toEqual(['Formwork A', 'Formwork B']);
    const rebar = await crewNamed('Rebar');
    const edit = await post(
      `/api/sites/${siteId}/crews/${rebar.id}`,
      { name: 'Mine' },
      tokens['crew-manager'],
    );
    expect(edit.statusCode).toBe(404);
    const assign = await post(
      `/api/sites/${siteId}/workers/crews/${rebar.id}/assign`,
      { workerIds: [siteWorkerIds[0]], assigned_at: '2026-01-01' },
      tokens['crew-manager'],
    );
    expect(assign.statusCode).toBe(404);
    // A crew manager may create a crew (DESIGN §4), which it then manages; naming managers is for admins.
    const own = await post(`/api/sites/${siteId}/crews`, { name: 'Own crew' }, tokens['crew-manager']);
    expect(own.statusCode).toBe(200);
    expect((await crewsOf(tokens['crew-manager'])).map((c) => c.name)).toContain('Own crew');
    expect(
      (
        await post(
          `/api/sites/${siteId}/crews/${mine[0].id}/managers`,
          { userIds: [] },
          tokens['crew-manager'],
        )
      ).statusCode,
    ).toBe(403);
    expect(
      (await post(`/api/sites/${siteId}/crews`, { name: 'Nope' }, tokens['group-of-sites-viewer']))
        .statusCode,
    ).toBe(403);
  });

  it('creates and edits a crew; duplicate names are 409, bad names 422', async () => {
    const created = await post(`/api/sites/${siteId}/crews`, { name: ' Cladding ' });
    expect(created.statusCode).toBe(200);
    expect(created.json.message).toBe('Crew is created successfully');
    expect(created.json.data).toMatchObject({ name: 'Cladding', site_id: siteId, manager_ids: [] });
    const dup = await post(`/api/sites/${siteId}/crews`, { name: 'REBAR ' });
    expect(dup.statusCode).toBe(409);
    expect(dup.json.message).toBe('Crew name already exists!');
    const renamed = await post(`/api/sites/${siteId}/crews/${created.json.data.id}`, {
      name: 'Cladding team',
    });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json.data.name).toBe('Cladding team');
    expect(
      (await post(`/api/sites/${siteId}/crews/${created.json.data.id}`, { name: 'rebar' })).statusCode,
    ).toBe(409);
    const blank = await post(`/api/sites/${siteId}/crews`, { name: ' ' });
    expect(blank.statusCode).toBe(422);
    expect(blank.json.errors).toEqual({ name: 'Name is required' });
    const long = await post(`/api/sites/${siteId}/crews`, { name: 'c'.repeat(101) });
    expect(long.json.errors).toEqual({ name: 'Name accepts a maximum of 100 characters' });
  });

  it("answers 404 for another client's site or crew", async () => {
    expect((await get(`/api/sites/${other.siteId}/crews`)).statusCode).toBe(404);
    expect((await post(`/api/sites/${siteId}/crews/${otherCrewId}`, { name: 'Taken' })).statusCode).toBe(404);
    expect(
      (await post(`/api/sites/${other.siteId}/crews/${otherCrewId}`, { name: 'Taken' })).statusCode,
    ).toBe(404);
    expect(
      (
        await post(`/api/sites/${siteId}/workers/crews/${otherCrewId}/assign`, {
          workerIds: [siteWorkerIds[0]],
          assigned_at: '2026-01-01',
        })
      ).statusCode,
    ).toBe(404);
    // Their admin sees their crew only.
    const theirs = (await get(`/api/sites/${other.siteId}/crews`, otherAdmin)).json.data as Crew[];
    expect(theirs.map((c) => c.name)).toEqual(['Depot crew']);
  });

  it('assigns workers to a crew in one transaction; a worker of another site fails all of it', async () => {
    const rebar = await crewNamed('Rebar');
    const picked = siteWorkerIds.slice(0, 3);
    const count = async () =>
      (
        await t.db
          .select()
          .from(crewAssignments)
          .where(and(eq(crewAssignments.crewId, rebar.id), inArray(crewAssignments.workerId, picked)))
      ).length;
    const before = await count();
    const refused = await post(`/api/sites/${siteId}/workers/crews/${rebar.id}/assign`, {
      workerIds: [...picked, otherWorkerId],
      assigned_at: '2026-02-01',
    });
    expect(refused.statusCode).toBe(404);
    expect(refused.json.message).toBe('Worker not found');
    expect(await count()).toBe(before);

    const assigned = await post(`/api/sites/${siteId}/workers/crews/${rebar.id}/assign`, {
      workerIds: [...picked, picked[0]],
      assigned_at: '2026-02-01',
    });
    expect(assigned.statusCode).toBe(200);
    expect(assigned.json.data).toEqual({ assigned: 3, assigned_at: '2026-02-01' });
    expect(await count()).toBe(before + 3);
  });

  it('validates an assignment body with 422', async () => {
    const rebar = await crewNamed('Rebar');
    const url = `/api/sites/${siteId}/workers/crews/${rebar.id}/assign`;
    const missing = await post(url, { workerIds: [siteWorkerIds[0]] });
    expect(missing.statusCode).toBe(422);
    expect(missing.json.errors).toEqual({ assigned_at: 'Assigned at is required' });
    const badDate = await post(url, { workerIds: [siteWorkerIds[0]], assigned_at: '2026-02-30' });
    expect(badDate.statusCode).toBe(422);
    expect(badDate.json.errors).toEqual({ assigned_at: 'Assigned at is invalid' });
    expect((await post(url, { workerIds: [], assigned_at: '2026-02-01' })).statusCode).toBe(422);
    expect((await post(url, { workerIds: ['1'], assigned_at: '2026-02-01' })).statusCode).toBe(422);
  });

  it('lets a crew manager assign workers of its crews to its crew', async () => {
    const formworkB = await crewNamed('Formwork B');
    const formworkA = await crewNamed('Formwork A');
    const [member] = await t.db
      .select({ id: crewAssignments.workerId })
      .from(crewAssignments)
      .where(eq(crewAssignments.crewId, formworkA.id))
      .limit(1);
    const response = await post(
      `/api/sites/${siteId}/workers/crews/${formworkB.id}/assign`,
      { workerIds: [member.id], assigned_at: '2026-03-01' },
      tokens['crew-manager'],
    );
    expect(response.statusCode).toBe(200);
  });

  it('sets the managers of a crew: only crew-manager users of the site', async () => {
    const rebar = await crewNamed('Rebar');
    const url = `/api/sites/${siteId}/crews/${rebar.id}/managers`;
    const set = await post(url, { userIds: [crewManagerId] });
    expect(set.statusCode).toBe(200);
    expect(set.json.data.manager_ids).toEqual([crewManagerId]);
    expect((await crewsOf(tokens['crew-manager'])).map((c) => c.name)).toContain('Rebar');

    const [viewer] = await t.db
      .select()
      .from(users)
      .where(eq(users.email, demoEmail('group-of-sites-viewer')));
    expect((await post(url, { userIds: [viewer.id] })).statusCode).toBe(404);
    expect((await post(url, { userIds: [other.userIds['group-of-sites-admin']] })).statusCode).toBe(404);

    const cleared = await post(url, { userIds: [] });
    expect(cleared.json.data.manager_ids).toEqual([]);
    expect((await crewsOf(tokens['crew-manager'])).map((c) => c.name)).not.toContain('Rebar');
  });
});
