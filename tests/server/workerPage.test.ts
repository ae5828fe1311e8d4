import { and, eq, isNotNull } from 'drizzle-orm';
import { Value } from 'typebox/value';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildings, floors, inventoryItems, workers, zones } from '../../server/db/schema';
import { WorkerNestedInventorySchema } from '../../src/domain/schemas/workers';
import type { WorkerNested } from '../../src/domain/workers';
import { addOtherTenantWorker, type DemoSiteSuite, startDemoSiteSuite } from './helpers/demoSiteSuite';

/**
 * The worker's page (issue 6): the nested worker also says where its helmet was last placed
 * (floor, building, zone, coordinates) and carries its helmet history, newest first, and none of
 * it is visible across tenants.
 */
describe('the worker page data', () => {
  let suite: DemoSiteSuite;
  let admin: string;
  let placed: { workerId: number; helmetId: number; floorId: number; buildingId: number; zoneId: number };

  const get = (url: string, token = admin) => suite.t.call(token, { method: 'GET', url });
  const post = (url: string, token = admin) => suite.t.call(token, { method: 'POST', url });
  const nested = async (siteId: number, workerId: number, token = admin) => {
    const reply = await get(`/api/sites/${siteId}/workers/${workerId}`, token);
    expect(reply.statusCode).toBe(200);
    return reply.json.data as WorkerNested;
  };

  beforeAll(async () => {
    suite = await startDemoSiteSuite(['group-of-sites-admin', 'group-of-sites-viewer']);
    admin = suite.tokens['group-of-sites-admin'];
    const db = suite.t.db;
    const [helmet] = await db
      .select()
      .from(inventoryItems)
      .where(and(eq(inventoryItems.siteId, suite.siteId), isNotNull(inventoryItems.workerId)))
      .orderBy(inventoryItems.id)
      .limit(1);
    const [zone] = await db
      .select({ zoneId: zones.id, floorId: floors.id, buildingId: floors.buildingId })
      .from(zones)
      .innerJoin(floors, eq(floors.id, zones.floorId))
      .innerJoin(buildings, eq(buildings.id, floors.buildingId))
      .where(eq(buildings.siteId, suite.siteId))
      .orderBy(zones.id)
      .limit(1);
    await db
      .update(inventoryItems)
      .set({
        floorId: zone.floorId,
        zoneId: zone.zoneId,
        lat: 25.2001,
        long: 55.3002,
        isOnline: true,
        isActive: true,
        lastSeen: new Date(),
      })
      .where(eq(inventoryItems.id, helmet.id));
    placed = { workerId: helmet.workerId!, helmetId: helmet.id, ...zone };
  });
  afterAll(() => suite.t.close());

  it('says where the helmet was last placed, in the shape of its schema', async () => {
    const worker = await nested(suite.siteId, placed.workerId);
    expect(worker.inventory_id).toBe(placed.helmetId);
    expect(worker.Inventory).toMatchObject({
      floor_id: placed.floorId,
      building_id: placed.buildingId,
      zone_id: placed.zoneId,
      coordinates: { lat: 25.2001, long: 55.3002 },
      is_online: true,
      is_active: true,
    });
    expect(worker.Inventory?.Floor?.name).toBeTruthy();
    expect(worker.Inventory?.Zone?.name).toBeTruthy();
    expect(Value.Check(WorkerNestedInventorySchema, worker.Inventory)).toBe(true);
    // A Site Viewer reads the same page.
    const viewed = await nested(suite.siteId, placed.workerId, suite.tokens['group-of-sites-viewer']);
    expect(viewed.Inventory?.coordinates).toEqual({ lat: 25.2001, long: 55.3002 });
  });

  it('reads "not placed" for a helmet never seen on a floor, and no helmet at all for a new worker', async () => {
    const [fresh] = await suite.t.db
      .insert(workers)
      .values({ siteId: suite.siteId, name: 'Page Newcomer' })
      .returning();
    const [helmet] = await suite.t.db
      .insert(inventoryItems)
      .values({ siteId: suite.siteId, wntInventoryId: 'HLM-PAGE-NEW', type: 'helmet' })
      .returning();
    const bare = await nested(suite.siteId, fresh.id);
    expect(bare.Inventory).toBeNull();
    expect(bare.HelmetHistory).toEqual([]);

    expect(
      (await post(`/api/sites/${suite.siteId}/workers/${fresh.id}/inventories/assign/${helmet.id}`))
        .statusCode,
    ).toBe(200);
    const worn = await nested(suite.siteId, fresh.id);
    expect(worn.Inventory).toMatchObject({
      floor_id: null,
      building_id: null,
      zone_id: null,
      coordinates: null,
    });
    expect(Value.Check(WorkerNestedInventorySchema, worn.Inventory)).toBe(true);
    expect(worn.HelmetHistory).toHaveLength(1);
    expect(worn.HelmetHistory[0]).toMatchObject({
      inventory_id: helmet.id,
      wnt_inventory_id: 'HLM-PAGE-NEW',
      unassigned_at: null,
    });
  });

  it('keeps the helmet history newest first, closed rows with their end', async () => {
    const [worker] = await suite.t.db
      .insert(workers)
      .values({ siteId: suite.siteId, name: 'Page Swapper' })
      .returning();
    const [first, second] = await suite.t.db
      .insert(inventoryItems)
      .values([
        { siteId: suite.siteId, wntInventoryId: 'HLM-PAGE-1', type: 'helmet' },
        { siteId: suite.siteId, wntInventoryId: 'HLM-PAGE-2', type: 'helmet' },
      ])
      .returning();
    const base = `/api/sites/${suite.siteId}/workers/${worker.id}/inventories`;
    expect((await post(`${base}/assign/${first.id}`)).statusCode).toBe(200);
    expect((await post(`${base}/unassign`)).statusCode).toBe(200);
    expect((await post(`${base}/assign/${second.id}`)).statusCode).toBe(200);
    const history = (await nested(suite.siteId, worker.id)).HelmetHistory;
    expect(history.map((h) => h.wnt_inventory_id)).toEqual(['HLM-PAGE-2', 'HLM-PAGE-1']);
    expect(history[0].unassigned_at).toBeNull();
    expect(history[1].unassigned_at).not.toBeNull();
    expect(Date.parse(history[1].unassigned_at!)).toBeGreaterThanOrEqual(Date.parse(history[1].assigned_at));
    expect(Date.parse(history[0].assigned_at)).toBeGreaterThanOrEqual(Date.parse(history[1].unassigned_at!));
  });

  it("answers 404 for another client's worker, placed or not, by either site", async () => {
    const { other } = suite;
    const otherWorker = await addOtherTenantWorker(suite.t.db, other);
    await suite.t.db.insert(inventoryItems).values({
      siteId: other.siteId,
      wntInventoryId: 'HLM-DEPOT',
      type: 'helmet',
      workerId: otherWorker,
      assignedAt: new Date(),
      floorId: other.floorId,
      lat: 51.495,
      long: -0.095,
    });
    const byDemoSite = await get(`/api/sites/${suite.siteId}/workers/${otherWorker}`);
    expect(byDemoSite.statusCode).toBe(404);
    expect(byDemoSite.body).not.toContain('HLM-DEPOT');
    const byOtherSite = await get(`/api/sites/${other.siteId}/workers/${otherWorker}`);
    expect(byOtherSite.statusCode).toBe(404);
    expect(byOtherSite.body).not.toContain('51.495');
    // Its own client's admin sees it, with its own floor and building.
    const otherAdmin = await suite.t.login(other.email('group-of-sites-admin'));
    const own = await nested(other.siteId, otherWorker, otherAdmin);
    expect(own.Inventory).toMatchObject({
      floor_id: other.floorId,
      building_id: other.buildingId,
      coordinates: { lat: 51.495, long: -0.095 },
    });
  });
});
