import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app';
import { inventoryItems, workerRoles } from '../../server/db/schema';
import type { Role } from '../../src/domain/roles';
import type { WorkerFlat, WorkerNested } from '../../src/domain/workers';
import { startDemoSiteSuite, suiteRequests } from './helpers/demoSiteSuite';
import type { TestApp } from './helpers/testApp';

// The list's total is counted once per filter and reused while the site's workforce revision
// stands; every change a user can make must still show in the next total, whichever server made it.
describe('worker list totals', () => {
  let t: TestApp;
  let siteId: number;
  let tokens: Record<Role, string>;
  /** A second server on the same database, as a second process would be. */
  let secondServer: FastifyInstance;

  beforeAll(async () => {
    ({ t, siteId, tokens } = await startDemoSiteSuite(['group-of-sites-admin']));
    secondServer = await buildApp({ db: t.db, config: t.config });
    await secondServer.ready();
  });
  afterAll(async () => {
    await secondServer.close();
    await t.close();
  });

  const { get, post, del } = suiteRequests(
    () => t,
    () => tokens['group-of-sites-admin'],
  );
  const base = () => `/api/sites/${siteId}/workers`;
  const totalOf = async (query: string) => {
    const reply = await get(`${base()}?${query}`);
    expect(reply.statusCode).toBe(200);
    return reply.json.meta.total as number;
  };

  it('counts again after a worker is created, renamed, re-tagged and deleted', async () => {
    // Totals stay above zero throughout: an empty page has no row to carry a total.
    await post(base(), { name: 'Ben Quillon' });
    expect(await totalOf('search=quillon')).toBe(1);
    const created = await post(base(), { name: 'Ada Quillon' });
    expect(created.statusCode).toBe(200);
    const worker = created.json.data as WorkerNested;
    expect(await totalOf('search=quillon')).toBe(2);
    expect(await totalOf('search=QUILLON&perPage=5')).toBe(2);
    expect(await totalOf('search=quillon&page=3&perPage=1')).toBe(2);

    await post(`${base()}/${worker.id}`, { name: 'Ada Lovel', worker_tag_id: 'QUILLON-7' });
    expect(await totalOf('search=quillon')).toBe(2);
    await post(`${base()}/${worker.id}`, { name: 'Ada Lovel', worker_tag_id: '' });
    expect(await totalOf('search=quillon')).toBe(1);
    await post(`${base()}/${worker.id}`, { name: 'Ada Quillon' });
    expect(await totalOf('search=quillon')).toBe(2);

    await del(`${base()}/${worker.id}`);
    expect(await totalOf('search=quillon')).toBe(1);
  });

  it('does not match a search across the end of the name and the start of the tag', async () => {
    await post(base(), { name: 'Brixab', worker_tag_id: 'CDE-1' });
    expect(await totalOf('search=brixab')).toBe(1);
    expect(await totalOf('search=cde-1')).toBe(1);
    expect(await totalOf('search=abcde')).toBe(0);
  });

  it('counts again after a helmet is taken off, put on or renamed', async () => {
    // HLM-0040 … HLM-0049: ten helmets, each worn.
    expect(await totalOf('search=hlm-004')).toBe(10);
    const [worn] = (await get(`${base()}?search=hlm-0042`)).json.data as WorkerFlat[];
    await post(`${base()}/${worn.id}/inventories/unassign`, {});
    expect(await totalOf('search=hlm-004')).toBe(9);
    const helmetId = worn.inventory_id as number;
    await post(`${base()}/${worn.id}/inventories/assign/${helmetId}`, {});
    expect(await totalOf('search=hlm-004')).toBe(10);
    await t.db
      .update(inventoryItems)
      .set({ wntInventoryId: 'HLM-9042' })
      .where(eq(inventoryItems.id, helmetId));
    expect(await totalOf('search=hlm-004')).toBe(9);
  });

  it('finds a worker by the helmet worn now, through hand-overs and a move to another helmet', async () => {
    const idsFound = async (search: string) =>
      ((await get(`${base()}?search=${search}`)).json.data as WorkerFlat[]).map((w) => w.id);
    const first = (await post(base(), { name: 'Olga Handover' })).json.data as WorkerNested;
    const second = (await post(base(), { name: 'Piet Handover' })).json.data as WorkerNested;
    const [helmet, spare] = await t.db
      .insert(inventoryItems)
      .values([
        { siteId, wntInventoryId: 'HLM-HANDA', type: 'helmet' },
        { siteId, wntInventoryId: 'HLM-HANDB', type: 'helmet' },
      ])
      .returning();
    expect(await idsFound('hlm-hand')).toEqual([]);

    await post(`${base()}/${first.id}/inventories/assign/${helmet.id}`, {});
    expect(await idsFound('hlm-handa')).toEqual([first.id]);
    await post(`${base()}/${first.id}/inventories/unassign`, {});
    await post(`${base()}/${second.id}/inventories/assign/${helmet.id}`, {});
    expect(await idsFound('hlm-handa')).toEqual([second.id]);

    // The second worker moves to the spare: the old helmet finds nobody, the spare finds them.
    await post(`${base()}/${second.id}/inventories/assign/${spare.id}`, {});
    expect(await idsFound('hlm-handa')).toEqual([]);
    expect(await idsFound('hlm-handb')).toEqual([second.id]);
    await t.db.delete(inventoryItems).where(eq(inventoryItems.id, spare.id));
    expect(await idsFound('hlm-hand')).toEqual([]);
  });

  it('counts again after a worker changes role', async () => {
    const roles = await t.db.select().from(workerRoles).where(eq(workerRoles.siteId, siteId));
    const [first, second] = roles;
    const before = await totalOf(`roleId=${first.id}`);
    const [member] = (await get(`${base()}?roleId=${first.id}&perPage=1`)).json.data as WorkerFlat[];
    await post(`${base()}/${member.id}`, { name: member.name, worker_role_id: second.id });
    expect(await totalOf(`roleId=${first.id}`)).toBe(before - 1);
  });

  it("shows in this server's totals what another server on the same database changed", async () => {
    await post(base(), { name: 'Ida Verrin' });
    expect(await totalOf('search=verrin')).toBe(1);
    const created = await secondServer.inject({
      method: 'POST',
      url: base(),
      headers: { authorization: `Bearer ${tokens['group-of-sites-admin']}` },
      payload: { name: 'Tomas Verrin' },
    });
    expect(created.statusCode).toBe(200);
    expect(await totalOf('search=verrin')).toBe(2);
  });
});
