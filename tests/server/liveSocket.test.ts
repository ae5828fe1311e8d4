import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_SITE, demoEmail } from '../../server/db/demoSeed';
import { buildings, floors, inventoryItems, sites, userSites, users, workers } from '../../server/db/schema';
import type { LiveChannel } from '../../server/live/socketServer';
import { selectWorkersOnMap } from '../../server/live/workersOnMap';
import { buildSafetyApp, startLive } from '../../server/safety/safetyApp';
import type { WorkerOnMap } from '../../src/domain/inventory';
import { LIVE_EVENTS } from '../../src/domain/live';
import { connectLive, type LiveClient, type LiveClientOptions } from './helpers/liveClient';
import { type OtherTenant, seedOtherTenant } from './helpers/otherTenant';
import { startTestApp, type TestApp } from './helpers/testApp';

/** Long enough for a stray broadcast to have arrived had it been sent. */
const QUIET_MS = 300;
const REVOCATION_DEADLINE_MS = 5000;

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface SafetyServer {
  app: FastifyInstance;
  live: LiveChannel;
  url: string;
  close(): Promise<void>;
}

async function startSafetyServer(
  t: TestApp,
  redis?: { url: string; keyPrefix: string },
): Promise<SafetyServer> {
  const app = await buildSafetyApp({ db: t.db, config: t.config });
  const live = await startLive({
    app,
    db: t.db,
    config: { redisUrl: redis?.url },
    redisKeyPrefix: redis?.keyPrefix,
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;
  return {
    app,
    live,
    url: `http://127.0.0.1:${port}`,
    async close() {
      await live.close();
      await app.close();
    },
  };
}

describe('live socket channel', () => {
  let t: TestApp;
  let safety: SafetyServer;
  let other: OtherTenant;
  let siteId: number;
  let floorA: number;
  let floorB: number;
  let helmetOnA: number;
  let helmetOnB: number;
  let adminToken: string;
  const clients: LiveClient[] = [];

  const connect = (options: Partial<LiveClientOptions> & { token?: string }) => {
    const client = connectLive(safety.url, { siteId, ...options });
    clients.push(client);
    return client;
  };

  async function addHelmet(wnt: string, workerName: string, floorId: number): Promise<number> {
    const [worker] = await t.db.insert(workers).values({ siteId, name: workerName }).returning();
    const [helmet] = await t.db
      .insert(inventoryItems)
      .values({
        siteId,
        wntInventoryId: wnt,
        type: 'helmet',
        floorId,
        lat: 25.2,
        long: 55.27,
        isOnline: true,
        isActive: true,
        workerId: worker.id,
        lastSeen: new Date(),
      })
      .returning();
    return helmet.id;
  }

  /** What the ingest does: commit the helmet's new state, then publish it. */
  async function commitAndPublish(
    hubOf: SafetyServer,
    inventoryId: number,
    values: Partial<typeof inventoryItems.$inferInsert>,
  ): Promise<WorkerOnMap> {
    const [before] = await t.db
      .select({ floorId: inventoryItems.floorId })
      .from(inventoryItems)
      .where(eq(inventoryItems.id, inventoryId));
    await t.db.update(inventoryItems).set(values).where(eq(inventoryItems.id, inventoryId));
    const [worker] = await selectWorkersOnMap(t.db, { inventoryIds: [inventoryId] });
    await hubOf.live.hub.publish({ siteId, changes: [{ worker, previousFloorId: before.floorId }] });
    return worker;
  }

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
      )[0].id;
    floorA = await floorNamed('Level 1');
    floorB = await floorNamed('Level 2');
    helmetOnA = await addHelmet('LIVE-A1', 'Amal Haddad', floorA);
    helmetOnB = await addHelmet('LIVE-B1', 'Bilal Nasser', floorB);
    adminToken = await t.loginAs('group-of-sites-admin');
    safety = await startSafetyServer(t);
  });

  afterAll(async () => {
    for (const client of clients) client.close();
    await safety?.close();
    await t?.close();
  });

  it('sends the floor snapshot first: every helmet on the floor, with its worker', async () => {
    const onA = connect({ token: adminToken, floorId: floorA });
    const snapshot = await onA.firstSnapshot();
    expect(snapshot).toMatchObject({ siteId, floorId: floorA });
    expect(snapshot.stream).toEqual(expect.any(String));
    const ids = snapshot.workers.map((w) => w.inventory_id);
    expect(ids).toContain(helmetOnA);
    expect(ids).not.toContain(helmetOnB);
    expect(snapshot.workers.every((w) => w.blueprint_id === floorA)).toBe(true);
    expect(snapshot.workers.find((w) => w.inventory_id === helmetOnA)).toMatchObject({
      name: 'Amal Haddad',
      wnt_inventory_id: 'LIVE-A1',
      blueprint_id: floorA,
      blueprint_name: 'Level 1',
      is_online: true,
    });

    const siteWide = connect({ token: adminToken });
    const siteSnapshot = await siteWide.firstSnapshot();
    expect(siteSnapshot.floorId).toBeNull();
    expect(siteSnapshot.workers.map((w) => w.inventory_id)).toEqual(
      expect.arrayContaining([helmetOnA, helmetOnB]),
    );
  });

  it("sends an update with the next seq only to the helmet's floor room and the site room", async () => {
    const onA = connect({ token: adminToken, floorId: floorA });
    const onB = connect({ token: adminToken, floorId: floorB });
    const siteWide = connect({ token: adminToken });
    const [snapA, , snapSite] = await Promise.all([
      onA.firstSnapshot(),
      onB.firstSnapshot(),
      siteWide.firstSnapshot(),
    ]);

    await commitAndPublish(safety, helmetOnA, { lat: 25.21, long: 55.28 });

    const update = await onA.update(1);
    expect(update).toMatchObject({ stream: snapA.stream, seq: snapA.seq + 1, siteId, floorId: floorA });
    expect(update.workers).toHaveLength(1);
    expect(update.workers[0]).toMatchObject({
      inventory_id: helmetOnA,
      coordinates: { lat: 25.21, long: 55.28 },
    });
    const siteUpdate = await siteWide.update(1);
    expect(siteUpdate).toMatchObject({ seq: snapSite.seq + 1, floorId: null });
    expect(siteUpdate.workers.map((w) => w.inventory_id)).toEqual([helmetOnA]);
    await pause(QUIET_MS);
    expect(onB.updates).toEqual([]);
  });

  it('tells the floor a helmet left that it is now on another floor, and the new floor that it arrived', async () => {
    const moving = await addHelmet('LIVE-MOVE', 'Carim Odeh', floorA);
    const onA = connect({ token: adminToken, floorId: floorA });
    const onB = connect({ token: adminToken, floorId: floorB });
    const [snapA, snapB] = await Promise.all([onA.firstSnapshot(), onB.firstSnapshot()]);
    expect(snapA.workers.map((w) => w.inventory_id)).toContain(moving);

    await commitAndPublish(safety, moving, { floorId: floorB });

    const left = await onA.update(1);
    expect(left.seq).toBe(snapA.seq + 1);
    expect(left.workers).toEqual([expect.objectContaining({ inventory_id: moving, blueprint_id: floorB })]);
    const arrived = await onB.update(1);
    expect(arrived.seq).toBe(snapB.seq + 1);
    expect(arrived.workers).toEqual([
      expect.objectContaining({ inventory_id: moving, blueprint_id: floorB, blueprint_name: 'Level 2' }),
    ]);
  });

  it('answers requestSnapshot with the state and cursor as they are now', async () => {
    const onB = connect({ token: adminToken, floorId: floorB });
    const first = await onB.firstSnapshot();
    await commitAndPublish(safety, helmetOnB, { isActive: false });
    await onB.update(1);

    const fresh = await onB.requestSnapshot();
    expect(fresh).toMatchObject({ stream: first.stream, seq: first.seq + 1, siteId, floorId: floorB });
    expect(fresh.workers.find((w) => w.inventory_id === helmetOnB)).toMatchObject({ is_active: false });
  });

  it('refuses a handshake without a valid token, or for a site or floor the user may not see', async () => {
    const refusals = [
      { options: {}, status: 401, message: 'Unauthenticated' },
      { options: { token: 'not-a-session' }, status: 401, message: 'Unauthenticated' },
      {
        options: { token: adminToken, siteId: 'abc' },
        status: 400,
        message: 'siteId must be a positive whole number',
      },
      {
        options: { token: adminToken, floorId: '-3' },
        status: 400,
        message: 'floorId must be a positive whole number',
      },
      { options: { token: adminToken, siteId: other.siteId }, status: 404, message: 'Site not found' },
      { options: { token: adminToken, floorId: other.floorId }, status: 404, message: 'Floor not found' },
    ];
    for (const { options, status, message } of refusals) {
      const client = connect(options);
      expect(await client.refused(), JSON.stringify(options)).toEqual({ message, status });
    }

    // The other client's admin sees its own site, but a floor of ours is still not one of its floors.
    const otherAdmin = await t.login(other.email('group-of-sites-admin'));
    const ownSiteForeignFloor = connect({ token: otherAdmin, siteId: other.siteId, floorId: floorA });
    expect(await ownSiteForeignFloor.refused()).toEqual({ message: 'Floor not found', status: 404 });
    const ownFloor = connect({ token: otherAdmin, siteId: other.siteId, floorId: other.floorId });
    expect((await ownFloor.firstSnapshot()).workers).toEqual([]);

    await commitAndPublish(safety, helmetOnA, { lat: 25.205 });
    await pause(QUIET_MS);
    for (const client of clients.slice(-refusals.length - 2))
      expect(client.snapshots.length + client.updates.length, 'a refused socket heard nothing').toBe(
        client === ownFloor ? 1 : 0,
      );
  });

  it('closes the socket within 5 s of a logout', async () => {
    const token = await t.loginAs('group-of-sites-viewer');
    const client = connect({ token, floorId: floorA });
    await client.firstSnapshot();
    const disconnected = client.disconnected(REVOCATION_DEADLINE_MS);
    expect((await t.call(token, { method: 'GET', url: '/api/logout' })).statusCode).toBe(200);
    expect(await disconnected).toBe('io server disconnect');

    await commitAndPublish(safety, helmetOnA, { lat: 25.206 });
    await pause(QUIET_MS);
    expect(client.updates).toEqual([]);
  });

  it('closes the socket within 5 s of a deactivation, and the token no longer connects', async () => {
    const token = await t.login(other.email('group-of-sites-viewer'));
    const client = connect({ token, siteId: other.siteId });
    await client.firstSnapshot();
    const disconnected = client.disconnected(REVOCATION_DEADLINE_MS);
    const superAdmin = await t.loginAs('super-admin');
    const response = await t.call(superAdmin, {
      method: 'POST',
      url: `/api/users/${other.userIds['group-of-sites-viewer']}/deactivate`,
    });
    expect(response.statusCode).toBe(200);
    expect(await disconnected).toBe('io server disconnect');
    expect(await connect({ token, siteId: other.siteId }).refused()).toEqual({
      message: 'Unauthenticated',
      status: 401,
    });
  });

  it('closes the socket within 5 s of a role change', async () => {
    const email = 'live-role@other.test';
    await t.db.update(users).set({ email }).where(eq(users.id, other.userIds['group-of-sites-admin']));
    const token = await t.login(email);
    const client = connect({ token, siteId: other.siteId });
    await client.firstSnapshot();
    const disconnected = client.disconnected(REVOCATION_DEADLINE_MS);
    await t.db
      .update(users)
      .set({ role: 'group-of-sites-viewer' })
      .where(eq(users.id, other.userIds['group-of-sites-admin']));
    expect(await disconnected).toBe('io server disconnect');
  });

  it('closes the socket within 5 s of the user losing the site', async () => {
    const token = await t.login(demoEmail('crew-manager'));
    const client = connect({ token, floorId: floorA });
    await client.firstSnapshot();
    const disconnected = client.disconnected(REVOCATION_DEADLINE_MS);
    const [crewManager] = await t.db
      .select()
      .from(users)
      .where(eq(users.email, demoEmail('crew-manager')));
    await t.db.delete(userSites).where(eq(userSites.userId, crewManager.id));
    await t.db.update(users).set({ groupOfSitesId: null }).where(eq(users.id, crewManager.id));
    expect(await disconnected).toBe('io server disconnect');
    expect(await connect({ token, floorId: floorA }).refused()).toEqual({
      message: 'Site not found',
      status: 404,
    });
  });

  /** Drops the client's connection the way a network outage does, and waits until the server noticed. */
  async function dropConnection(client: LiveClient): Promise<void> {
    const id = client.socket.id as string;
    client.socket.io.engine.close();
    for (let waited = 0; safety.live.io.of('/').sockets.has(id); waited += 20) {
      if (waited > 5000) throw new Error('the server never noticed the dropped connection');
      await pause(20);
    }
  }

  it('recovers a dropped connection: the update sent meanwhile arrives, then a fresh snapshot', async () => {
    const client = connect({ token: adminToken, floorId: floorA, reconnect: true });
    const first = await client.firstSnapshot();
    await dropConnection(client);

    await commitAndPublish(safety, helmetOnA, { lat: 25.209 });

    const second = await client.snapshot(2);
    expect(client.socket.recovered).toBe(true);
    expect(client.updates).toEqual([expect.objectContaining({ seq: first.seq + 1, floorId: floorA })]);
    expect(second).toMatchObject({ stream: first.stream, seq: first.seq + 1 });
    expect(second.workers.find((w) => w.inventory_id === helmetOnA)?.coordinates?.lat).toBe(25.209);
  });

  it('does not replay what a socket missed once its token was revoked', async () => {
    const token = await t.login(demoEmail('site-engineer'));
    const client = connect({ token, floorId: floorA, reconnect: true });
    await client.firstSnapshot();
    await dropConnection(client);
    expect((await t.call(token, { method: 'GET', url: '/api/logout' })).statusCode).toBe(200);
    await commitAndPublish(safety, helmetOnA, { lat: 25.2091 });

    expect(await client.refused()).toEqual({ message: 'Unauthenticated', status: 401 });
    await pause(QUIET_MS);
    expect(client.framesHeard).toEqual([LIVE_EVENTS.snapshot]);
  });

  it('keeps the health check of the safety listener', async () => {
    const response = await fetch(`${safety.url}/api/safety/health`);
    // No ingest runs beside this safety app, so it has no counters to show.
    expect(await response.json()).toEqual({ status: 'success', data: { ok: true, ingest: null } });
  });

  it('tells the console which port the live channel listens on, and the MQTT topic root', async () => {
    const response = await t.call(null, { method: 'GET', url: '/api/live-settings' });
    expect(response.statusCode).toBe(200);
    expect(response.json).toEqual({
      status: 'success',
      data: { safetyPort: t.config.safetyPort, mqttTopicRoot: t.config.mqttTopicRoot },
    });
  });

  const redisUrl = process.env.TEST_REDIS_URL;
  it.skipIf(!redisUrl)(
    'shares one sequence per room across processes on Redis, and fans out to the other server (needs TEST_REDIS_URL)',
    async () => {
      const keyPrefix = `sw-test-${randomBytes(6).toString('hex')}`;
      const first = await startSafetyServer(t, { url: redisUrl as string, keyPrefix });
      const second = await startSafetyServer(t, { url: redisUrl as string, keyPrefix });
      try {
        const onSecond = connectLive(second.url, { token: adminToken, siteId, floorId: floorA });
        clients.push(onSecond);
        const snapshot = await onSecond.firstSnapshot();

        await commitAndPublish(first, helmetOnA, { lat: 25.207 });
        const fromFirst = await onSecond.update(1);
        expect(fromFirst).toMatchObject({ stream: snapshot.stream, seq: snapshot.seq + 1, floorId: floorA });
        expect(fromFirst.workers[0]).toMatchObject({ inventory_id: helmetOnA, coordinates: { lat: 25.207 } });

        await commitAndPublish(second, helmetOnA, { lat: 25.208 });
        const fromSecond = await onSecond.update(2);
        expect(fromSecond).toMatchObject({ stream: snapshot.stream, seq: snapshot.seq + 2 });

        const onFirst = connectLive(first.url, { token: adminToken, siteId, floorId: floorA });
        clients.push(onFirst);
        expect(await onFirst.firstSnapshot()).toMatchObject({
          stream: snapshot.stream,
          seq: snapshot.seq + 2,
        });
      } finally {
        await first.close();
        await second.close();
      }
    },
  );
});
