import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DEMO_SITE } from '../../server/db/demoSeed';
import { crewAssignments, crews, sites, workshiftAssignments, workshifts } from '../../server/db/schema';
import type { Role } from '../../src/domain/roles';
import { addOtherTenantWorker } from './helpers/demoSiteSuite';
import { type OtherTenant, seedOtherTenant } from './helpers/otherTenant';
import { startTestApp, type TestApp } from './helpers/testApp';

interface Latest {
  worker_id: number;
  worker_name: string;
  crew_id: number | null;
  crew_name: string | null;
  crew_assigned_at: string | null;
  crew_assigned_on: string | null;
  workshift_name: string | null;
  workshift_assigned_at: string | null;
}

/**
 * 21:30 UTC on 10 June is already 01:30 on 11 June in Asia/Dubai (the demo site) but still
 * 22:30 on 10 June in Europe/London (the other tenant's site).
 */
const NOW = new Date('2026-06-10T21:30:00.000Z');

describe('latest crew and work shift of each worker', () => {
  let t: TestApp;
  let other: OtherTenant;
  let siteId: number;
  let workerId: number;
  let otherWorkerId: number;
  const tokens = {} as Record<Role, string>;
  let otherAdmin: string;

  const crewId = async (siteOf: number, name: string) =>
    (
      await t.db
        .select()
        .from(crews)
        .where(and(eq(crews.siteId, siteOf), eq(crews.name, name)))
    )[0].id;
  const shiftId = async (siteOf: number, name: string) =>
    (
      await t.db
        .select()
        .from(workshifts)
        .where(and(eq(workshifts.siteId, siteOf), eq(workshifts.name, name)))
    )[0].id;

  beforeAll(async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(NOW);
    t = await startTestApp();
    other = await seedOtherTenant(t.db);
    [{ id: siteId }] = await t.db.select().from(sites).where(eq(sites.name, DEMO_SITE));
    for (const role of ['group-of-sites-admin', 'crew-manager', 'site-engineer'] as const)
      tokens[role] = await t.loginAs(role);
    otherAdmin = await t.login(other.email('group-of-sites-admin'));

    // A worker of Formwork A (managed by the demo crew manager), moved on the Dubai "today".
    const formworkA = await crewId(siteId, 'Formwork A');
    [{ id: workerId }] = await t.db
      .select({ id: crewAssignments.workerId })
      .from(crewAssignments)
      .where(eq(crewAssignments.crewId, formworkA))
      .limit(1);
    await t.db.insert(crewAssignments).values([
      { crewId: await crewId(siteId, 'Rebar'), workerId, assignedAt: '2026-06-11' },
      { crewId: await crewId(siteId, 'Concrete pour'), workerId, assignedAt: '2026-06-12' },
    ]);
    await t.db.insert(workshiftAssignments).values([
      { workshiftId: await shiftId(siteId, 'Night shift'), workerId, assignedAt: '2026-06-11' },
      { workshiftId: await shiftId(siteId, 'Control room'), workerId, assignedAt: '2026-06-12' },
    ]);

    // The same dates on the London site: 11 June is still tomorrow there.
    otherWorkerId = await addOtherTenantWorker(t.db, other);
    const [depotA] = await t.db.insert(crews).values({ siteId: other.siteId, name: 'Depot A' }).returning();
    const [depotB] = await t.db.insert(crews).values({ siteId: other.siteId, name: 'Depot B' }).returning();
    await t.db.insert(crewAssignments).values([
      { crewId: depotA.id, workerId: otherWorkerId, assignedAt: '2026-06-10' },
      { crewId: depotB.id, workerId: otherWorkerId, assignedAt: '2026-06-11' },
    ]);
  });
  afterAll(async () => {
    await t.close();
    vi.useRealTimers();
  });

  const latest = (site: number, token: string) =>
    t.call(token, { method: 'GET', url: `/api/sites/${site}/workers/workshift-and-crews/latest` });

  it("uses today in the site's time zone: an assignment dated tomorrow in UTC is current in Dubai", async () => {
    const response = await latest(siteId, tokens['group-of-sites-admin']);
    expect(response.statusCode).toBe(200);
    expect(response.json.data.date).toBe('2026-06-11');
    const rows = response.json.data.workers as Latest[];
    expect(rows).toHaveLength(200);
    expect(rows.find((r) => r.worker_id === workerId)).toMatchObject({
      crew_name: 'Rebar',
      crew_assigned_at: '2026-06-11',
      crew_assigned_on: '11/06/2026',
      workshift_name: 'Night shift',
      workshift_assigned_at: '2026-06-11',
    });
  });

  it('keeps the earlier assignment where that date is still tomorrow (Europe/London)', async () => {
    const response = await latest(other.siteId, otherAdmin);
    expect(response.json.data.date).toBe('2026-06-10');
    expect(response.json.data.workers).toEqual([
      expect.objectContaining({
        worker_id: otherWorkerId,
        crew_name: 'Depot A',
        crew_assigned_on: '10/06/2026',
        workshift_name: null,
        workshift_assigned_at: null,
      }),
    ]);
  });

  it("shows a crew manager only the workers whose current crew it manages; another client's site is 404", async () => {
    const response = await latest(siteId, tokens['crew-manager']);
    expect(response.statusCode).toBe(200);
    const rows = response.json.data.workers as Latest[];
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.length).toBeLessThan(200);
    expect(new Set(rows.map((r) => r.crew_name))).toEqual(new Set(['Formwork A', 'Formwork B']));
    expect(rows.some((r) => r.worker_id === workerId)).toBe(false);
    expect((await latest(other.siteId, tokens['group-of-sites-admin'])).statusCode).toBe(404);
    expect((await latest(siteId, otherAdmin)).statusCode).toBe(404);
    expect((await latest(siteId, tokens['site-engineer'])).statusCode).toBe(403);
  });
});
