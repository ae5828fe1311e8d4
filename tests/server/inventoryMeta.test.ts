import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_SITE } from '../../server/db/demoSeed';
import { buildings, floors, inventoryItems, sites, workers } from '../../server/db/schema';
import type { Floor } from '../../src/domain/floor';
import type { Role } from '../../src/domain/roles';
import { type OtherTenant, seedOtherTenant } from './helpers/otherTenant';
import { startTestApp, type TestApp } from './helpers/testApp';

const ZERO = {
  totalUnassignedAssets: 0,
  totalActiveAssets: 0,
  totalInActiveAssets: 0,
  totalOfflineAssets: 0,
  totalAssets: 0,
};

describe('inventory counts', () => {
  let t: TestApp;
  let other: OtherTenant;
  let siteId: number;
  let northId: number;
  let groundId: number;
  let levelOneId: number;
  let wearerIds: number[];
  const tokens = {} as Record<Role, string>;

  beforeAll(async () => {
    t = await startTestApp();
    other = await seedOtherTenant(t.db);
    [{ id: siteId }] = await t.db.select().from(sites).where(eq(sites.name, DEMO_SITE));
    [{ id: northId }] = await t.db.select().from(buildings).where(eq(buildings.name, 'North Block'));
    const floorOf = async (name: string) =>
      (
        await t.db
          .select()
          .from(floors)
          .where(and(eq(floors.buildingId, northId), eq(floors.name, name)))
      )[0].id;
    groundId = await floorOf('Ground Floor');
    levelOneId = await floorOf('Level 1');
    // The counts below are exact: start from the demo site without its helmets, anchors and
    // sinks, and let two of its workers wear the helmets this test adds.
    await t.db.delete(inventoryItems);
    wearerIds = (await t.db.select({ id: workers.id }).from(workers).orderBy(workers.id).limit(2)).map(
      (w) => w.id,
    );
    for (const role of ['group-of-sites-admin', 'group-of-sites-viewer', 'crew-manager'] as const)
      tokens[role] = await t.loginAs(role);
  });
  afterAll(() => t.close());

  const get = (url: string, token = tokens['group-of-sites-admin']) => t.call(token, { method: 'GET', url });

  it('answers zero counts in the final shape before any device exists', async () => {
    for (const url of [
      `/api/floors/${groundId}/inventory-meta`,
      `/api/buildings/${northId}/inventory-meta`,
      `/api/sites/${siteId}/inventory-meta`,
    ]) {
      const response = await get(url);
      expect(response.statusCode, url).toBe(200);
      expect(response.json.data).toEqual(ZERO);
    }
    expect((await get(`/api/floors/${groundId}/inventory-statistics`)).json.data).toEqual({
      helmets: { total: 0, active: 0, inactive: 0, offline: 0, assigned: 0, unassigned: 0 },
      anchors: { total: 0, active: 0, inactive: 0, offline: 0 },
      sinks: { total: 0, active: 0, inactive: 0, offline: 0 },
      total: 0,
    });
    expect((await get(`/api/floors/${groundId}/anchor-statistics`)).json.data).toEqual({
      total: 0,
      approved: 0,
      unapproved: 0,
      online: 0,
      offline: 0,
    });
  });

  it('counts devices by status, scope and last_seen window', async () => {
    const day = (d: string) => new Date(`${d}T12:00:00Z`);
    const helmet = { siteId, type: 'helmet' };
    await t.db.insert(inventoryItems).values([
      {
        ...helmet,
        wntInventoryId: 'H1',
        floorId: groundId,
        isOnline: true,
        isActive: true,
        workerId: wearerIds[0],
        lastSeen: day('2025-03-01'),
      },
      {
        ...helmet,
        wntInventoryId: 'H2',
        floorId: groundId,
        isOnline: true,
        isActive: false,
        lastSeen: day('2025-03-02'),
      },
      {
        ...helmet,
        wntInventoryId: 'H3',
        floorId: groundId,
        isOnline: false,
        isActive: true,
        lastSeen: day('2025-03-05'),
      },
      {
        ...helmet,
        wntInventoryId: 'H4',
        floorId: levelOneId,
        isOnline: true,
        isActive: true,
        workerId: wearerIds[1],
        lastSeen: day('2025-03-02'),
      },
      { ...helmet, wntInventoryId: 'H5', floorId: null, isOnline: false, isActive: false },
      {
        siteId,
        type: 'anchor',
        wntInventoryId: 'A1',
        floorId: groundId,
        isOnline: true,
        isActive: true,
        isApproved: true,
      },
      { siteId, type: 'anchor', wntInventoryId: 'A2', floorId: groundId, isOnline: false, isApproved: false },
      { siteId, type: 'sink', wntInventoryId: 'S1', floorId: groundId, isOnline: true, isActive: true },
      { siteId: other.siteId, type: 'helmet', wntInventoryId: 'H1' },
    ]);

    expect((await get(`/api/floors/${groundId}/inventory-meta`)).json.data).toEqual({
      totalUnassignedAssets: 2,
      totalActiveAssets: 1,
      totalInActiveAssets: 1,
      totalOfflineAssets: 1,
      totalAssets: 3,
    });
    expect((await get(`/api/buildings/${northId}/inventory-meta`)).json.data).toMatchObject({
      totalAssets: 4,
      totalActiveAssets: 2,
    });
    expect((await get(`/api/sites/${siteId}/inventory-meta`)).json.data).toMatchObject({
      totalAssets: 5,
      totalUnassignedAssets: 3,
    });

    const windowed = await get(
      `/api/floors/${groundId}/inventory-meta?startDate=2025-03-02&endDate=2025-03-02`,
    );
    expect(windowed.json.data).toMatchObject({ totalAssets: 1, totalInActiveAssets: 1 });
    const open = await get(`/api/floors/${groundId}/inventory-meta?startDate=2025-03-01T13:00:00`);
    expect(open.json.data).toMatchObject({ totalAssets: 2 });
    const until = await get(
      `/api/floors/${groundId}/inventory-meta?endDate=${encodeURIComponent('2025-03-02T12:00:00+00:00')}`,
    );
    expect(until.json.data).toMatchObject({ totalAssets: 2 });

    expect((await get(`/api/floors/${groundId}/inventory-statistics`)).json.data).toEqual({
      helmets: { total: 3, active: 1, inactive: 1, offline: 1, assigned: 1, unassigned: 2 },
      anchors: { total: 2, active: 1, inactive: 0, offline: 1 },
      sinks: { total: 1, active: 1, inactive: 0, offline: 0 },
      total: 6,
    });
    expect((await get(`/api/floors/${groundId}/anchor-statistics`)).json.data).toEqual({
      total: 2,
      approved: 1,
      unapproved: 1,
      online: 1,
      offline: 1,
    });

    const list = (await get(`/api/buildings/${northId}/floors`)).json.data as Floor[];
    expect(Object.fromEntries(list.map((f) => [f.name, f.online_active_worker_count]))).toEqual({
      'Level 2': 0,
      'Level 1': 1,
      'Ground Floor': 1,
    });
  });

  it('refuses malformed dates and a window that ends before it starts', async () => {
    for (const query of [
      'startDate=yesterday',
      'endDate=2025-02-30',
      'startDate=2025-13-01',
      'endDate=2025-03-01T25:00:00',
    ]) {
      const response = await get(`/api/floors/${groundId}/inventory-meta?${query}`);
      expect(response.statusCode, query).toBe(422);
    }
    const bad = await get(`/api/sites/${siteId}/inventory-meta?startDate=2025-03-05&endDate=2025-03-01`);
    expect(bad.statusCode).toBe(422);
    expect(bad.json.errors).toEqual({ endDate: 'End date must not be before start date' });
    expect((await get(`/api/buildings/${northId}/inventory-meta?startDate=2025-3-5`)).json.errors).toEqual({
      startDate: 'Start date is invalid',
    });
  });

  it('keeps counts to the tenant and the maps area', async () => {
    expect((await get(`/api/sites/${other.siteId}/inventory-meta`)).statusCode).toBe(404);
    expect((await get(`/api/buildings/${other.buildingId}/inventory-meta`)).statusCode).toBe(404);
    expect((await get(`/api/floors/2147483647/inventory-statistics`)).statusCode).toBe(404);
    expect(
      (await get(`/api/floors/${groundId}/anchor-statistics`, tokens['group-of-sites-viewer'])).statusCode,
    ).toBe(200);
    expect((await get(`/api/floors/${groundId}/inventory-meta`, tokens['crew-manager'])).statusCode).toBe(
      403,
    );
  });
});
