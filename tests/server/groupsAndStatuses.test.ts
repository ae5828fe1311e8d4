import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureWorkerStatuses } from '../../server/bulk/workerStatuses';
import {
  buildings,
  crewGroupCrews,
  crewGroups,
  crews,
  floors,
  locationGroups,
  locationGroupZones,
  sites,
  subcontractorGroupMembers,
  subcontractorGroups,
  subcontractors,
  workerLocationAssignments,
  workerRoleGroupMembers,
  workerRoleGroups,
  workerRoles,
  workerStatusAssignments,
  workerStatuses,
  zones,
} from '../../server/db/schema';
import type { Role } from '../../src/domain/roles';
import type {
  CrewGroup,
  LocationAssignment,
  LocationGroup,
  SubcontractorGroup,
  WorkerRoleGroup,
  WorkerStatusAssignment,
} from '../../src/domain/schemas/groups';
import type { WorkerFlat, WorkerNested } from '../../src/domain/workers';
import { localTime } from '../../src/domain/workshiftClock';
import { startDemoSiteSuite, suiteRequests } from './helpers/demoSiteSuite';
import type { OtherTenant } from './helpers/otherTenant';
import type { TestApp } from './helpers/testApp';

/** A YYYY-MM-DD date `days` from `date`. */
const plusDays = (date: string, days: number) =>
  new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

describe('groups, location assignments and worker statuses', () => {
  let t: TestApp;
  let other: OtherTenant;
  let siteId: number;
  let tokens: Record<Role, string>;
  let otherAdmin: string;
  /** Current members of the crew manager's crews: ended spell, open spell. */
  let ended: WorkerFlat;
  let open: WorkerFlat;
  /** A worker of a crew the crew manager does not manage: two overlapping spells. */
  let outsider: WorkerFlat;
  const status: Record<string, number> = {};

  beforeAll(async () => {
    ({ t, other, siteId, tokens } = await startDemoSiteSuite([
      'group-of-sites-admin',
      'group-of-sites-viewer',
      'crew-manager',
    ]));
    otherAdmin = await t.login(other.email('group-of-sites-admin'));
    const db = t.db;
    const [site] = await db.select().from(sites).where(eq(sites.id, siteId));
    const today = localTime(new Date(), site.timezone).date;

    const mine = (await get(`${base()}/workers?perPage=500`, tokens['crew-manager'])).json
      .data as WorkerFlat[];
    const all = (await get(`${base()}/workers?perPage=500`)).json.data as WorkerFlat[];
    const mineIds = new Set(mine.map((w) => w.id));
    [ended, open] = mine;
    outsider = all.find((w) => !mineIds.has(w.id) && w.crew_name !== null) as WorkerFlat;

    // Groups, named out of order so the sort shows.
    const siteZones = await db
      .select({ id: zones.id })
      .from(zones)
      .innerJoin(floors, eq(floors.id, zones.floorId))
      .innerJoin(buildings, eq(buildings.id, floors.buildingId))
      .where(eq(buildings.siteId, siteId))
      .limit(3);
    const [zeta, alpha] = await db
      .insert(locationGroups)
      .values([
        { siteId, name: 'Zeta levels' },
        { siteId, name: 'alpha core' },
      ])
      .returning();
    await db.insert(locationGroupZones).values(siteZones.map((z) => ({ groupId: zeta.id, zoneId: z.id })));
    await db.insert(locationGroups).values({ siteId: other.siteId, name: 'Depot group' });

    const siteCrews = await db.select().from(crews).where(eq(crews.siteId, siteId));
    const [crewGroup] = await db.insert(crewGroups).values({ siteId, name: 'Concrete' }).returning();
    await db.insert(crewGroupCrews).values(siteCrews.map((c) => ({ groupId: crewGroup.id, crewId: c.id })));
    const subs = await db.select().from(subcontractors).where(eq(subcontractors.siteId, siteId)).limit(2);
    const [subGroup] = await db.insert(subcontractorGroups).values({ siteId, name: 'MEP' }).returning();
    await db
      .insert(subcontractorGroupMembers)
      .values(subs.map((s) => ({ groupId: subGroup.id, subcontractorId: s.id })));
    const roles = await db.select().from(workerRoles).where(eq(workerRoles.siteId, siteId)).limit(2);
    const [roleGroup] = await db.insert(workerRoleGroups).values({ siteId, name: 'Trades' }).returning();
    await db
      .insert(workerRoleGroupMembers)
      .values(roles.map((r) => ({ groupId: roleGroup.id, workerRoleId: r.id })));

    await db.insert(workerLocationAssignments).values([
      { workerId: ended.id, locationGroupId: zeta.id, assignedAt: plusDays(today, -30) },
      { workerId: ended.id, locationGroupId: alpha.id, assignedAt: plusDays(today, -2) },
      { workerId: outsider.id, locationGroupId: alpha.id, assignedAt: plusDays(today, -1) },
    ]);

    await ensureWorkerStatuses(db, siteId);
    for (const row of await db.select().from(workerStatuses).where(eq(workerStatuses.siteId, siteId)))
      status[row.name] = row.id;
    await db.insert(workerStatusAssignments).values([
      // Ended yesterday: no status today.
      {
        workerId: ended.id,
        statusId: status.Injured,
        startsOn: plusDays(today, -10),
        endsOn: plusDays(today, -1),
      },
      // Open-ended from last week, and one that starts tomorrow.
      { workerId: open.id, statusId: status['On leave'], startsOn: plusDays(today, -7), endsOn: null },
      { workerId: open.id, statusId: status.Injured, startsOn: plusDays(today, 1), endsOn: null },
      // Two overlapping: the later-starting one wins.
      {
        workerId: outsider.id,
        statusId: status.Suspended,
        startsOn: plusDays(today, -3),
        endsOn: plusDays(today, 3),
      },
      {
        workerId: outsider.id,
        statusId: status.Inducted,
        startsOn: plusDays(today, -20),
        endsOn: null,
        notes: 'Site induction',
      },
    ]);
  });
  afterAll(() => t.close());

  const admin = () => tokens['group-of-sites-admin'];
  const { get, post } = suiteRequests(() => t, admin);
  const base = () => `/api/sites/${siteId}`;

  it('lists location groups by name, each with its zones and where they are', async () => {
    const reply = await get(`${base()}/location-groups`);
    expect(reply.statusCode).toBe(200);
    const groups = reply.json.data as LocationGroup[];
    // The demo's eTQR location group sorts between this test's two, whatever the case.
    expect(groups.map((g) => g.name)).toEqual(['alpha core', 'North Block fit-out', 'Zeta levels']);
    const zeta = groups[2];
    expect(groups[0].zones).toEqual([]);
    expect(zeta.zones).toHaveLength(3);
    for (const zone of zeta.zones) {
      expect(zone).toEqual({
        id: expect.any(Number),
        name: expect.any(String),
        floor_id: expect.any(Number),
        floor_name: expect.any(String),
        building_name: expect.any(String),
      });
    }
    const viewer = await get(`${base()}/location-groups`, tokens['group-of-sites-viewer']);
    expect(viewer.statusCode).toBe(200);
  });

  it('lists crew, subcontractor and worker role groups with their members sorted by name', async () => {
    const crewGroupsReply = (await get(`${base()}/crew-groups`)).json.data as CrewGroup[];
    expect(crewGroupsReply.map((g) => g.name)).toEqual(['Concrete']);
    const crewNames = crewGroupsReply[0].crews.map((c) => c.name);
    expect(crewNames.length).toBeGreaterThan(2);
    expect(crewNames).toEqual([...crewNames].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase())));

    const subGroups = (await get(`${base()}/subcontractors-groups`)).json.data as SubcontractorGroup[];
    expect(subGroups).toEqual([{ id: expect.any(Number), name: 'MEP', subcontractors: expect.any(Array) }]);
    expect(subGroups[0].subcontractors).toHaveLength(2);
    const roleGroups = (await get(`${base()}/worker-role-groups`)).json.data as WorkerRoleGroup[];
    expect(roleGroups[0]).toMatchObject({ name: 'Trades' });
    expect(roleGroups[0].worker_roles).toHaveLength(2);
  });

  it('shows a crew manager only the crews it manages in a crew group', async () => {
    const [group] = (await get(`${base()}/crew-groups`, tokens['crew-manager'])).json.data as CrewGroup[];
    expect(group.crews.map((c) => c.name).sort()).toEqual(['Formwork A', 'Formwork B']);
  });

  it('lists location assignments newest first, paged, and a crew manager sees its crews only', async () => {
    const reply = await get(`${base()}/location-groups/assignments?perPage=2`);
    expect(reply.statusCode).toBe(200);
    expect(reply.json.meta).toEqual({ page: 1, perPage: 2, total: 3 });
    const rows = reply.json.data as LocationAssignment[];
    expect(rows.map((r) => [r.worker_id, r.location_group_name])).toEqual([
      [outsider.id, 'alpha core'],
      [ended.id, 'alpha core'],
    ]);
    expect(rows[0]).toMatchObject({ worker_name: outsider.name, worker_tag_id: outsider.worker_tag_id });
    expect(rows[0].assigned_at).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    const second = await get(`${base()}/location-groups/assignments?perPage=2&page=2`);
    expect((second.json.data as LocationAssignment[]).map((r) => r.location_group_name)).toEqual([
      'Zeta levels',
    ]);

    const cm = await get(`${base()}/location-groups/assignments`, tokens['crew-manager']);
    expect(cm.statusCode).toBe(200);
    expect(new Set((cm.json.data as LocationAssignment[]).map((r) => r.worker_id))).toEqual(
      new Set([ended.id]),
    );
    expect(cm.json.meta.total).toBe(2);
  });

  it("reads the site's statuses (the defaults given) and lets admins, not viewers, add one", async () => {
    const viewer = tokens['group-of-sites-viewer'];
    const list = await get(`${base()}/worker-status`, viewer);
    expect(list.statusCode).toBe(200);
    expect((list.json.data as { name: string }[]).map((s) => s.name)).toEqual([
      'Inducted',
      'Injured',
      'On leave',
      'Suspended',
    ]);
    expect((await post(`${base()}/worker-status`, { name: 'Quarantined' }, viewer)).statusCode).toBe(403);
    expect((await post(`${base()}/worker-status`, { name: 'Nope' }, tokens['crew-manager'])).statusCode).toBe(
      403,
    );

    const created = await post(`${base()}/worker-status`, { name: '  Quarantined ' });
    expect(created.statusCode).toBe(200);
    expect(created.json).toMatchObject({
      message: 'Worker status is created successfully',
      data: { id: expect.any(Number), name: 'Quarantined' },
    });
    for (const name of [' on LEAVE ', 'quarantined']) {
      const duplicate = await post(`${base()}/worker-status`, { name });
      expect(duplicate.statusCode).toBe(409);
      expect(duplicate.json.message).toBe('Worker status name already exists!');
    }
    // Another site's list is its own: the defaults there, and the same name free.
    const otherSite = await post(
      `/api/sites/${other.siteId}/worker-status`,
      { name: 'Quarantined' },
      otherAdmin,
    );
    expect(otherSite.statusCode).toBe(200);
  });

  it('refuses a missing, blank or too long status name with 422 and the spec messages', async () => {
    for (const body of [{}, { name: '' }, { name: '   ' }]) {
      const reply = await post(`${base()}/worker-status`, body);
      expect(reply.statusCode).toBe(422);
      expect(reply.json.errors?.name).toBe('Name is required');
    }
    const long = await post(`${base()}/worker-status`, { name: 'x'.repeat(500) });
    expect(long.statusCode).toBe(422);
    expect(long.json.errors?.name).toMatch(/^Name accepts a maximum of \d+ characters$/);
    expect((await post(`${base()}/worker-status`, { name: 42 })).statusCode).toBe(422);
  });

  it('lists status spells newest first, by worker, and a crew manager sees its crews only', async () => {
    const reply = await get(`${base()}/workers/worker-status/assignments`);
    expect(reply.statusCode).toBe(200);
    const rows = reply.json.data as WorkerStatusAssignment[];
    expect(reply.json.meta).toEqual({ page: 1, perPage: 50, total: 5 });
    const starts = rows.map((r) => r.starts_on);
    expect(starts).toEqual([...starts].sort().reverse());
    expect(rows[0]).toMatchObject({ worker_id: open.id, status: 'Injured', ends_on: null, notes: null });
    expect(rows.find((r) => r.notes !== null)).toMatchObject({
      worker_id: outsider.id,
      worker_name: outsider.name,
      status_id: status.Inducted,
      status: 'Inducted',
      notes: 'Site induction',
    });

    const one = await get(`${base()}/workers/worker-status/assignments?worker_id=${outsider.id}`);
    expect((one.json.data as WorkerStatusAssignment[]).map((r) => r.status)).toEqual([
      'Suspended',
      'Inducted',
    ]);

    const cm = tokens['crew-manager'];
    const cmRows = (await get(`${base()}/workers/worker-status/assignments`, cm)).json
      .data as WorkerStatusAssignment[];
    expect(new Set(cmRows.map((r) => r.worker_id))).toEqual(new Set([ended.id, open.id]));
    expect(
      (await get(`${base()}/workers/worker-status/assignments?worker_id=${outsider.id}`, cm)).statusCode,
    ).toBe(404);
    expect((await get(`${base()}/workers/worker-status/assignments?worker_id=abc`)).statusCode).toBe(422);
    expect((await get(`${base()}/workers/worker-status/assignments?perPage=100000`)).statusCode).toBe(422);
  });

  it('shows the status in force today on the worker list and on one worker', async () => {
    const list = (await get(`${base()}/workers?perPage=500`)).json.data as WorkerFlat[];
    const statusOf = (id: number) => list.find((w) => w.id === id)?.worker_status;
    expect(statusOf(ended.id)).toBeNull();
    expect(statusOf(open.id)).toBe('On leave');
    expect(statusOf(outsider.id)).toBe('Suspended');
    expect(list.filter((w) => w.worker_status !== null)).toHaveLength(2);

    const one = async (id: number) => (await get(`${base()}/workers/${id}`)).json.data as WorkerNested;
    expect((await one(ended.id)).worker_status).toBeNull();
    expect((await one(open.id)).worker_status).toBe('On leave');
    expect((await one(outsider.id)).worker_status).toBe('Suspended');
    // The crew manager's own view of its worker says the same.
    const cmList = (await get(`${base()}/workers?perPage=500`, tokens['crew-manager'])).json
      .data as WorkerFlat[];
    expect(cmList.find((w) => w.id === open.id)?.worker_status).toBe('On leave');
  });

  it("answers 404 for another tenant's site on every route", async () => {
    const paths = [
      'location-groups',
      'location-groups/assignments',
      'crew-groups',
      'subcontractors-groups',
      'worker-role-groups',
      'worker-status',
      'workers/worker-status/assignments',
    ];
    for (const path of paths) {
      expect((await get(`${base()}/${path}`, otherAdmin)).statusCode, path).toBe(404);
      expect((await get(`/api/sites/${other.siteId}/${path}`)).statusCode, path).toBe(404);
    }
    expect((await post(`${base()}/worker-status`, { name: 'Stolen' }, otherAdmin)).statusCode).toBe(404);
    // The other site's group is not in this site's list.
    const names = ((await get(`${base()}/location-groups`)).json.data as LocationGroup[]).map((g) => g.name);
    expect(names).not.toContain('Depot group');
    const [foreign] = await t.db
      .select({ id: workerStatuses.id })
      .from(workerStatuses)
      .where(and(eq(workerStatuses.siteId, other.siteId), inArray(workerStatuses.name, ['Quarantined'])));
    expect(foreign).toBeDefined();
  });
});
