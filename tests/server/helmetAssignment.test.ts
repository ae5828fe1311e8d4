import { and, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_SITE } from '../../server/db/demoSeed';
import { helmetAssignments, inventoryItems, sites, workers } from '../../server/db/schema';
import type { WorkerNested } from '../../src/domain/workers';
import { type OtherTenant, seedOtherTenant } from './helpers/otherTenant';
import { startTestApp, type TestApp } from './helpers/testApp';

describe('helmet assignment', () => {
  let t: TestApp;
  let other: OtherTenant;
  let siteId: number;
  let admin: string;
  let freeHelmet: number;
  let otherHelmet: number;
  let workerA: number;
  let workerB: number;

  beforeAll(async () => {
    t = await startTestApp();
    other = await seedOtherTenant(t.db);
    [{ id: siteId }] = await t.db.select().from(sites).where(eq(sites.name, DEMO_SITE));
    admin = await t.loginAs('group-of-sites-admin');
    [{ id: freeHelmet }] = await t.db
      .insert(inventoryItems)
      .values({ siteId, wntInventoryId: 'HLM-FREE', type: 'helmet' })
      .returning();
    [{ id: otherHelmet }] = await t.db
      .insert(inventoryItems)
      .values({ siteId: other.siteId, wntInventoryId: 'HLM-OTHER', type: 'helmet' })
      .returning();
    [{ id: workerA }, { id: workerB }] = await t.db
      .insert(workers)
      .values([
        { siteId, name: 'Helmetless A' },
        { siteId, name: 'Helmetless B' },
      ])
      .returning();
  });
  afterAll(() => t.close());

  const post = (url: string) => t.call(admin, { method: 'POST', url });
  const assign = (worker: number, helmet: number) =>
    post(`/api/sites/${siteId}/workers/${worker}/inventories/assign/${helmet}`);
  const unassign = (worker: number) => post(`/api/sites/${siteId}/workers/${worker}/inventories/unassign`);
  const openRows = (helmet: number) =>
    t.db
      .select()
      .from(helmetAssignments)
      .where(and(eq(helmetAssignments.inventoryItemId, helmet), isNull(helmetAssignments.unassignedAt)));

  it('the demo seed records an open history row for every worn helmet', async () => {
    const worn = await t.db.select().from(inventoryItems).where(eq(inventoryItems.siteId, siteId));
    const open = await t.db.select().from(helmetAssignments).where(isNull(helmetAssignments.unassignedAt));
    expect(open.length).toBe(worn.filter((i) => i.workerId !== null).length);
    expect(open.length).toBe(200);
  });

  it('assigns, refuses a second wearer with 409 and keeps the history', async () => {
    const first = await assign(workerA, freeHelmet);
    expect(first.statusCode).toBe(200);
    expect(first.json.message).toBe('The helmet is assigned successfully');
    const [item] = await t.db.select().from(inventoryItems).where(eq(inventoryItems.id, freeHelmet));
    expect(item.workerId).toBe(workerA);
    expect(item.assignedAt).not.toBeNull();

    const second = await assign(workerB, freeHelmet);
    expect(second.statusCode).toBe(409);
    expect(second.json.message).toBe('The helmet is already assigned to another worker');
    expect(await openRows(freeHelmet)).toHaveLength(1);

    const off = await unassign(workerA);
    expect(off.statusCode).toBe(200);
    expect(off.json.message).toBe('The helmet is unassigned successfully');
    expect((await unassign(workerA)).statusCode).toBe(422);
    expect(await openRows(freeHelmet)).toHaveLength(0);

    expect((await assign(workerB, freeHelmet)).statusCode).toBe(200);
    const nested = (await t.call(admin, { method: 'GET', url: `/api/sites/${siteId}/workers/${workerB}` }))
      .json.data as WorkerNested;
    expect(nested.Inventory?.wnt_inventory_id).toBe('HLM-FREE');
    expect(nested.inventory_assigned_at).not.toBeNull();
    expect(nested.HelmetHistory).toHaveLength(1);
    const history = await t.db
      .select()
      .from(helmetAssignments)
      .where(eq(helmetAssignments.inventoryItemId, freeHelmet));
    expect(history.map((h) => [h.workerId, h.unassignedAt === null])).toEqual([
      [workerA, false],
      [workerB, true],
    ]);
    expect((await unassign(workerB)).statusCode).toBe(200);
  });

  it('is safe under concurrent assignment: exactly one wins, one open row', async () => {
    const racers = await t.db
      .insert(workers)
      .values(Array.from({ length: 6 }, (_, i) => ({ siteId, name: `Racer ${i}` })))
      .returning();
    const replies = await Promise.all(racers.map((w) => assign(w.id, freeHelmet)));
    const codes = replies.map((r) => r.statusCode).sort();
    expect(codes.filter((c) => c === 200)).toHaveLength(1);
    expect(codes.filter((c) => c === 409)).toHaveLength(5);
    expect(await openRows(freeHelmet)).toHaveLength(1);
    const winner = racers[replies.findIndex((r) => r.statusCode === 200)];
    expect((await unassign(winner.id)).statusCode).toBe(200);
  });

  it('moving a worker to another helmet closes the old one', async () => {
    const [spare] = await t.db
      .insert(inventoryItems)
      .values({ siteId, wntInventoryId: 'HLM-SPARE', type: 'helmet' })
      .returning();
    expect((await assign(workerA, freeHelmet)).statusCode).toBe(200);
    expect((await assign(workerA, spare.id)).statusCode).toBe(200);
    expect(await openRows(freeHelmet)).toHaveLength(0);
    expect(await openRows(spare.id)).toHaveLength(1);
    const [old] = await t.db.select().from(inventoryItems).where(eq(inventoryItems.id, freeHelmet));
    expect(old.workerId).toBeNull();
  });

  it("answers 404 for another client's helmet or worker, and for a non-helmet device", async () => {
    expect((await assign(workerB, otherHelmet)).statusCode).toBe(404);
    const [otherWorker] = await t.db
      .insert(workers)
      .values({ siteId: other.siteId, name: 'Far' })
      .returning();
    expect((await assign(otherWorker.id, freeHelmet)).statusCode).toBe(404);
    expect((await unassign(otherWorker.id)).statusCode).toBe(404);
    const [anchor] = await t.db
      .select()
      .from(inventoryItems)
      .where(and(eq(inventoryItems.siteId, siteId), eq(inventoryItems.type, 'anchor')))
      .limit(1);
    expect((await assign(workerB, anchor.id)).statusCode).toBe(404);
  });
});
