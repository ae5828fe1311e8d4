import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensurePositionPartitions } from '../../server/analytics/positionPartitions';
import { DEMO_SITE } from '../../server/db/demoSeed';
import {
  buildings,
  floors,
  inventoryItems,
  networks,
  positions,
  sites,
  workers,
  zones,
} from '../../server/db/schema';
import type { AssetOption, InventoryItem, WorkerOnMap } from '../../src/domain/inventory';
import type { Role } from '../../src/domain/roles';
import { type OtherTenant, seedOtherTenant } from './helpers/otherTenant';
import { startTestApp, type TestApp } from './helpers/testApp';

describe('inventory', () => {
  let t: TestApp;
  let other: OtherTenant;
  let siteId: number;
  let ground: typeof floors.$inferSelect;
  let levelOneId: number;
  let northMeshId: number;
  let otherDeviceId: number;
  const tokens = {} as Record<Role, string>;

  /** A point of the ground floor, as fractions of its width and height. */
  const at = (x: number, y: number) => ({
    lat: ground.aLat - y * (ground.aLat - ground.dLat),
    long: ground.aLong + x * (ground.bLong - ground.aLong),
  });
  const device = async (wnt: string) =>
    (await t.db.select().from(inventoryItems).where(eq(inventoryItems.wntInventoryId, wnt)))[0];

  beforeAll(async () => {
    t = await startTestApp();
    other = await seedOtherTenant(t.db);
    [{ id: siteId }] = await t.db.select().from(sites).where(eq(sites.name, DEMO_SITE));
    const [north] = await t.db.select().from(buildings).where(eq(buildings.name, 'North Block'));
    const floorNamed = async (name: string) =>
      (
        await t.db
          .select()
          .from(floors)
          .where(and(eq(floors.buildingId, north.id), eq(floors.name, name)))
      )[0];
    ground = await floorNamed('Ground Floor');
    levelOneId = (await floorNamed('Level 1')).id;
    [{ id: northMeshId }] = await t.db.select().from(networks).where(eq(networks.name, 'Tower A mesh'));
    [{ id: otherDeviceId }] = await t.db
      .insert(inventoryItems)
      .values({ siteId: other.siteId, networkId: other.networkId, wntInventoryId: 'OTHER-1', type: 'anchor' })
      .returning();
    for (const role of [
      'group-of-sites-admin',
      'group-of-sites-viewer',
      'crew-manager',
      'site-engineer',
      'safety-demo',
    ] as const)
      tokens[role] = await t.loginAs(role);
  });
  afterAll(() => t.close());

  const admin = () => tokens['group-of-sites-admin'];
  const get = (url: string, token = admin()) => t.call(token, { method: 'GET', url });
  const post = (url: string, payload: unknown, token = admin()) =>
    t.call(token, { method: 'POST', url, payload: payload as object });

  describe('GET /api/floors/{id}/inventory', () => {
    it("lists the floor's anchors and sink by inventory id, optionally of one type", async () => {
      const response = await get(`/api/floors/${ground.id}/inventory`);
      expect(response.statusCode).toBe(200);
      const items = response.json.data as InventoryItem[];
      expect(items.map((i) => i.wnt_inventory_id)).toEqual([
        ...Array.from({ length: 9 }, (_, i) => `ANC-000${i + 1}`),
        'SNK-0001',
      ]);
      expect(items[0]).toEqual({
        id: expect.any(Number),
        wnt_inventory_id: 'ANC-0001',
        type: 'anchor',
        network_id: northMeshId,
        is_online: false,
        is_active: false,
        is_approved: true,
        coordinates: { lat: expect.any(Number), long: expect.any(Number) },
        floor_id: ground.id,
        zone_id: null,
        last_seen: null,
        last_active_at: null,
        worker_id: null,
        assigned_at: null,
      });
      const sinks = (await get(`/api/floors/${ground.id}/inventory?type=sink`)).json.data as InventoryItem[];
      expect(sinks.map((i) => i.wnt_inventory_id)).toEqual(['SNK-0001']);
      expect((await get(`/api/floors/${ground.id}/inventory?type=drone`)).statusCode).toBe(422);
    });

    it('is read by every role that sees the site, and by nobody else', async () => {
      for (const role of ['group-of-sites-viewer', 'crew-manager', 'site-engineer', 'safety-demo'] as const)
        expect((await get(`/api/floors/${ground.id}/inventory`, tokens[role])).statusCode, role).toBe(200);
      expect((await get(`/api/floors/${other.floorId}/inventory`)).statusCode).toBe(404);
      expect((await get('/api/floors/2147483647/inventory')).statusCode).toBe(404);
      expect(
        (await t.call(null, { method: 'GET', url: `/api/floors/${ground.id}/inventory` })).statusCode,
      ).toBe(401);
    });
  });

  describe('POST /api/floors/{id}/inventory/{inventoryId}', () => {
    it('places an anchor inside the floor, in the zone under it, and approves it', async () => {
      const anchor = await device('ANC-0010');
      const point = at(0.3, 0.2);
      const response = await post(`/api/floors/${ground.id}/inventory/${anchor.id}`, {
        ...point,
        is_approved: false,
      });
      expect(response.statusCode).toBe(200);
      expect(response.json.message).toBe('Inventory item is updated successfully');
      const [fitOut] = await t.db
        .select()
        .from(zones)
        .where(and(eq(zones.floorId, ground.id), eq(zones.name, 'Fit-out area')));
      expect(response.json.data).toMatchObject({
        id: anchor.id,
        floor_id: ground.id,
        zone_id: fitOut.id,
        coordinates: point,
        is_approved: false,
      });
      const listed = (await get(`/api/floors/${ground.id}/inventory?type=anchor`)).json
        .data as InventoryItem[];
      expect(listed.map((i) => i.wnt_inventory_id)).toContain('ANC-0010');

      // Approving checks the evidence (src/domain/anchorApproval.ts): ANC-0010 never reported.
      const unproven = await post(
        `/api/floors/${ground.id}/inventory/${anchor.id}`,
        { ...at(0.9, 0.1), is_approved: true },
        tokens['site-engineer'],
      );
      expect(unproven.statusCode).toBe(422);
      expect(unproven.json.errors).toMatchObject({ position: 'ANC-0010 has reported no position' });
      const approved = await post(
        `/api/floors/${ground.id}/inventory/${anchor.id}`,
        { ...at(0.9, 0.1), is_approved: true, override_reason: 'Surveyed by hand' },
        tokens['site-engineer'],
      );
      expect(approved.statusCode).toBe(200);
      expect(approved.json.data).toMatchObject({ is_approved: true, zone_id: null });
    });

    it('refuses a point outside the floor, a helmet, and approving a sink, with 422', async () => {
      const anchor = await device('ANC-0011');
      const outside = await post(`/api/floors/${ground.id}/inventory/${anchor.id}`, at(1.2, 0.5));
      expect(outside.statusCode).toBe(422);
      expect(outside.json.errors).toEqual({ coordinates: 'The device must be placed inside the floor' });
      expect((await device('ANC-0011')).floorId).toBe(levelOneId);

      const helmet = await device('HLM-0001');
      const byHand = await post(`/api/floors/${ground.id}/inventory/${helmet.id}`, at(0.5, 0.5));
      expect(byHand.statusCode).toBe(422);
      expect(byHand.json.message).toBe('Helmets cannot be placed by hand: they report their own position');

      const sink = await device('SNK-0001');
      const approveSink = await post(`/api/floors/${ground.id}/inventory/${sink.id}`, {
        ...at(0.5, 0.5),
        is_approved: true,
      });
      expect(approveSink.json.errors).toEqual({ is_approved: 'Only an anchor can be approved' });

      const missing = await post(`/api/floors/${ground.id}/inventory/${anchor.id}`, { lat: 25.2 });
      expect(missing.statusCode).toBe(422);
      expect(missing.json.errors).toEqual({ long: 'Long is required' });
      const wrong = await post(`/api/floors/${ground.id}/inventory/${anchor.id}`, { lat: 91, long: '55' });
      expect(wrong.statusCode).toBe(422);
      expect(Object.keys(wrong.json.errors ?? {}).sort()).toEqual(['lat', 'long']);
    });

    it("answers 404 for another site's device or floor and 403 to roles without installation", async () => {
      const anchor = await device('ANC-0012');
      expect(
        (await post(`/api/floors/${ground.id}/inventory/${otherDeviceId}`, at(0.5, 0.5))).statusCode,
      ).toBe(404);
      expect(
        (await post(`/api/floors/${other.floorId}/inventory/${anchor.id}`, at(0.5, 0.5))).statusCode,
      ).toBe(404);
      for (const role of ['group-of-sites-viewer', 'crew-manager', 'safety-demo'] as const) {
        const response = await post(
          `/api/floors/${ground.id}/inventory/${anchor.id}`,
          at(0.5, 0.5),
          tokens[role],
        );
        expect(response.statusCode, role).toBe(403);
      }
      const otherAdmin = await t.login(other.email('group-of-sites-admin'));
      expect(
        (await post(`/api/floors/${ground.id}/inventory/${anchor.id}`, at(0.5, 0.5), otherAdmin)).statusCode,
      ).toBe(404);
    });
  });

  describe('GET /api/floors/{id}/inventory/{inventoryId}?timestamp', () => {
    it('answers the latest position at or before the instant, and null before the first', async () => {
      const helmet = await device('HLM-0003');
      const [worker] = await t.db.select().from(workers).where(eq(workers.id, helmet.workerId!));
      const row = (ts: string, x: number, active: boolean) => ({
        siteId,
        inventoryItemId: helmet.id,
        workerId: worker.id,
        floorId: ground.id,
        ...at(x, 0.5),
        isOnline: true,
        isActive: active,
        ts: new Date(ts),
      });
      // positions is partitioned by day: that day's partition first (the ingest makes its own).
      await ensurePositionPartitions(t.db, [Date.parse('2025-03-03T08:00:00Z')]);
      await t.db
        .insert(positions)
        .values([row('2025-03-03T08:00:00Z', 0.2, true), row('2025-03-03T08:05:00Z', 0.4, false)]);
      const url = (ts: string) =>
        `/api/floors/${ground.id}/inventory/${helmet.id}?timestamp=${encodeURIComponent(ts)}`;

      const between = await get(url('2025-03-03T08:04:59Z'));
      expect(between.statusCode).toBe(200);
      expect(between.json.data).toEqual({
        inventory_id: helmet.id,
        coordinates: at(0.2, 0.5),
        floor_id: ground.id,
        zone_id: null,
        is_online: true,
        is_active: true,
        ts: '2025-03-03T08:00:00.000Z',
      });
      // 12:05 in Dubai is 08:05 UTC: the second position, exactly at the instant.
      expect((await get(url('2025-03-03T12:05:00+04:00'))).json.data).toMatchObject({
        ts: '2025-03-03T08:05:00.000Z',
        is_active: false,
      });
      const before = await get(url('2025-03-03T07:59:59Z'));
      expect(before.statusCode).toBe(200);
      expect(before.json).toEqual({ status: 'success', data: null });
    });

    it('refuses a missing or malformed timestamp and hides other tenants', async () => {
      const helmet = await device('HLM-0003');
      for (const query of ['', '?timestamp=', '?timestamp=yesterday', '?timestamp=2025-02-30T10:00:00Z']) {
        const response = await get(`/api/floors/${ground.id}/inventory/${helmet.id}${query}`);
        expect(response.statusCode, query).toBe(422);
        expect(response.json.message).toBe('Timestamp is invalid');
      }
      const ts = '?timestamp=2025-03-03T08:00:00Z';
      expect((await get(`/api/floors/${ground.id}/inventory/${otherDeviceId}${ts}`)).statusCode).toBe(404);
      expect((await get(`/api/floors/${other.floorId}/inventory/${helmet.id}${ts}`)).statusCode).toBe(404);
    });
  });

  describe('GET /api/floors/{id}/workers', () => {
    it('lists the helmets on the floor with their wearer, and no other floor', async () => {
      expect((await get(`/api/floors/${levelOneId}/workers`)).json.data).toEqual([]);
      const helmet = await device('HLM-0005');
      await t.db
        .update(inventoryItems)
        .set({ floorId: levelOneId, ...at(0.5, 0.5), isOnline: true, isActive: true, lastSeen: new Date() })
        .where(eq(inventoryItems.id, helmet.id));
      const [worker] = await t.db.select().from(workers).where(eq(workers.id, helmet.workerId!));
      const response = await get(`/api/floors/${levelOneId}/workers`, tokens['group-of-sites-viewer']);
      expect(response.statusCode).toBe(200);
      const onMap = response.json.data as WorkerOnMap[];
      expect(onMap).toHaveLength(1);
      expect(onMap[0]).toMatchObject({
        id: worker.id,
        inventory_id: helmet.id,
        wnt_inventory_id: 'HLM-0005',
        name: worker.name,
        worker_tag_id: worker.workerTagId,
        is_online: true,
        is_active: true,
        blueprint_id: levelOneId,
        blueprint_name: 'Level 1',
      });
      expect(onMap[0].role_name).toEqual(expect.any(String));
      expect((await get(`/api/floors/${ground.id}/workers`)).json.data).toEqual([]);
      expect((await get(`/api/floors/${other.floorId}/workers`)).statusCode).toBe(404);
    });
  });

  describe('network and site inventories', () => {
    it("lists a network's devices, of one type if asked, and hides other tenants' networks", async () => {
      const items = (await get(`/api/networks/${northMeshId}/inventory`)).json.data as InventoryItem[];
      expect(items.every((i) => i.network_id === northMeshId)).toBe(true);
      expect(items.filter((i) => i.type === 'helmet')).toHaveLength(100);
      // 3 × 3 anchors on each of North Block's floors, and Level 1's three installed, unapproved ones.
      expect(items.filter((i) => i.type === 'anchor')).toHaveLength(30);
      const ids = items.map((i) => i.wnt_inventory_id);
      expect(ids).toEqual([...ids].sort());
      const sinks = (await get(`/api/networks/${northMeshId}/inventory?type=sink`)).json
        .data as InventoryItem[];
      expect(sinks.map((i) => i.wnt_inventory_id)).toEqual(['SNK-0001', 'SNK-0002', 'SNK-0003']);
      expect((await get(`/api/networks/${other.networkId}/inventory`)).statusCode).toBe(404);
      const [spare] = await t.db.select().from(networks).where(eq(networks.name, 'Spare gateway kit'));
      expect((await get(`/api/networks/${spare.id}/inventory`)).statusCode).toBe(404);
    });

    it('lists a whole site, by type and by page', async () => {
      // The nodes area's list: a site engineer reads it (personalData.test.ts: who may not).
      const all = await get(`/api/sites/${siteId}/inventories`, tokens['site-engineer']);
      expect(all.statusCode).toBe(200);
      expect(all.json.data).toHaveLength(all.json.meta.total);
      expect(
        (all.json.data as InventoryItem[]).filter((i) => i.type === 'helmet').length,
      ).toBeGreaterThanOrEqual(200);
      const anchors = await get(`/api/sites/${siteId}/inventories?type=anchor`);
      expect(anchors.json.data).toHaveLength(57);
      const page = await get(`/api/sites/${siteId}/inventories?type=helmet&page=2&perPage=50`);
      expect(page.json.meta).toEqual({ page: 2, perPage: 50, total: all.json.meta.total - 63 });
      expect((page.json.data as InventoryItem[]).map((i) => i.wnt_inventory_id)[0]).toBe('HLM-0051');
      expect((await get(`/api/sites/${siteId}/inventories?perPage=1001`)).statusCode).toBe(422);
      expect((await get(`/api/sites/${other.siteId}/inventories`)).statusCode).toBe(404);
    });

    it('offers unassigned helmets of a network sorted by inventory id, and assigned ones on request', async () => {
      const url = `/api/networks/${northMeshId}/inventory/assets`;
      expect((await get(url)).json.data).toEqual([]);
      const registered = await post(`/api/sites/${siteId}/inventories`, {
        items: [
          { wnt_inventory_id: 'HLM-9002', type: 'helmet', network_id: northMeshId },
          { wnt_inventory_id: 'HLM-9001', type: 'helmet', network_id: northMeshId },
          { wnt_inventory_id: 'ANC-9001', type: 'anchor', network_id: northMeshId },
        ],
      });
      expect(registered.statusCode).toBe(200);
      const unassigned = (await get(`${url}?assigned=0`)).json.data as AssetOption[];
      expect(unassigned).toEqual([
        { value: (await device('HLM-9001')).id, label: 'HLM-9001' },
        { value: (await device('HLM-9002')).id, label: 'HLM-9002' },
      ]);
      const assigned = (await get(`${url}?assigned=1`)).json.data as AssetOption[];
      expect(assigned).toHaveLength(100);
      expect(assigned[0].label).toBe('HLM-0001');
      expect(assigned.map((a) => a.label)).toEqual(assigned.map((a) => a.label).sort());
      expect((await get(`${url}?assigned=2`)).statusCode).toBe(422);
      expect((await get(`/api/networks/${other.networkId}/inventory/assets`)).statusCode).toBe(404);
    });
  });

  describe('POST /api/sites/{id}/inventories', () => {
    const url = () => `/api/sites/${siteId}/inventories`;

    it('registers new ids and leaves known ones as they are', async () => {
      const before = await device('HLM-0001');
      const body = {
        items: [
          { wnt_inventory_id: 'HLM-0001', type: 'helmet' },
          { wnt_inventory_id: 'SIM-00001', type: 'helmet' },
          { wnt_inventory_id: 'SIM-00002', type: 'helmet', network_id: northMeshId },
        ],
      };
      const first = await post(url(), body, tokens['site-engineer']);
      expect(first.statusCode).toBe(200);
      expect(first.json.data).toEqual({ created: 2, existing: 1 });
      expect(await device('HLM-0001')).toEqual(before);
      expect(await device('SIM-00002')).toMatchObject({ siteId, type: 'helmet', networkId: northMeshId });
      expect((await post(url(), body)).json.data).toEqual({ created: 0, existing: 3 });
    });

    it('takes 20,000 devices in one call and refuses more', async () => {
      const items = (count: number) =>
        Array.from({ length: count }, (_, i) => ({ wnt_inventory_id: `BULK-${i}`, type: 'helmet' }));
      const many = await post(url(), { items: items(20_000) });
      expect(many.statusCode).toBe(200);
      expect(many.json.data).toEqual({ created: 20_000, existing: 0 });
      expect((await post(url(), { items: items(20_001) })).statusCode).toBe(422);
    });

    it('refuses bad items, foreign networks, other tenants and roles without nodes', async () => {
      const duplicate = await post(url(), {
        items: [
          { wnt_inventory_id: 'DUP-1', type: 'helmet' },
          { wnt_inventory_id: 'DUP-1', type: 'anchor' },
        ],
      });
      expect(duplicate.statusCode).toBe(422);
      expect(duplicate.json.errors).toEqual({ items: 'Each wnt_inventory_id may appear only once' });
      const foreign = await post(url(), {
        items: [{ wnt_inventory_id: 'X-1', type: 'helmet', network_id: other.networkId }],
      });
      expect(foreign.json.errors).toEqual({ network_id: 'The network does not belong to this site' });
      expect((await post(url(), { items: [{ wnt_inventory_id: 'X-2', type: 'drone' }] })).statusCode).toBe(
        422,
      );
      expect((await post(url(), { items: [{ wnt_inventory_id: '   ', type: 'helmet' }] })).statusCode).toBe(
        422,
      );
      expect((await post(url(), { items: [] })).statusCode).toBe(422);
      expect(await device('X-1')).toBeUndefined();
      const one = { items: [{ wnt_inventory_id: 'X-3', type: 'helmet' }] };
      expect((await post(`/api/sites/${other.siteId}/inventories`, one)).statusCode).toBe(404);
      for (const role of ['group-of-sites-viewer', 'crew-manager', 'safety-demo'] as const)
        expect((await post(url(), one, tokens[role])).statusCode, role).toBe(403);
    });
  });
});
