import { eq } from 'drizzle-orm';
import { firstValueFrom, type Observable, filter as where } from 'rxjs';
import { io } from 'socket.io-client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { inventoryItems } from '../../server/db/schema';
import { selectWorkersOnMap } from '../../server/live/workersOnMap';
import { createApiClient } from '../../src/api/client';
import { SAFETY_EVENTS } from '../../src/domain/evacuation';
import { LIVE_EVENTS } from '../../src/domain/live';
import type { SafetyChannelEvent } from '../../src/domain/liveEvents';
import { createLiveClient, type LiveClient } from '../../src/streams/liveClient';
import { type DemoFloorFixture, demoFloor, seedWorkerWithHelmet } from './helpers/ingestFixture';
import { type OtherTenant, seedOtherTenant } from './helpers/otherTenant';
import { type SafetyServer, startSafetyServer } from './helpers/safetyServer';
import { startTestApp, type TestApp } from './helpers/testApp';

const WAIT_MS = 8000;

/** Everything a feed says, recorded, and a wait for the first event that fits. */
function record(feed$: Observable<SafetyChannelEvent>) {
  const heard: SafetyChannelEvent[] = [];
  const subscription = feed$.subscribe((event) => heard.push(event));
  return {
    heard,
    subscription,
    async next<E extends SafetyChannelEvent>(fits: (event: SafetyChannelEvent) => event is E): Promise<E> {
      const deadline = Date.now() + WAIT_MS;
      for (;;) {
        const found = heard.find(fits);
        if (found) return found;
        if (Date.now() > deadline) throw new Error(`never heard it; heard ${JSON.stringify(heard)}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
  };
}

const isLive = (event: SafetyChannelEvent): event is Extract<SafetyChannelEvent, { type: 'connection' }> =>
  event.type === 'connection' && event.state === 'live';
const isOffline = (event: SafetyChannelEvent): event is Extract<SafetyChannelEvent, { type: 'connection' }> =>
  event.type === 'connection' && event.state === 'offline';
const isSnapshot = (event: SafetyChannelEvent): event is Extract<SafetyChannelEvent, { type: 'snapshot' }> =>
  event.type === 'snapshot';
const isUpdate = (event: SafetyChannelEvent): event is Extract<SafetyChannelEvent, { type: 'update' }> =>
  event.type === 'update';

describe("the console's live client on a real socket.io connection", () => {
  let t: TestApp;
  let safety: SafetyServer;
  let fixture: DemoFloorFixture;
  let other: OtherTenant;
  /** A helmet standing on the fixture's floor. */
  let helmetId: number;
  const clients: LiveClient[] = [];

  /** The console's client as a tab makes it: the live settings through the API, one socket to the safety listener. */
  function liveClientFor(token: string): LiveClient {
    const api = createApiClient({
      baseUrl: 'http://console.test/api',
      getToken: () => token,
      fetch: async (input, init) => {
        const url = new URL(String(input));
        const reply = await t.app.inject({
          method: 'GET',
          url: url.pathname,
          headers: init?.headers as Record<string, string>,
        });
        return new Response(reply.body, {
          status: reply.statusCode,
          headers: { 'content-type': 'application/json' },
        });
      },
    });
    const client = createLiveClient({
      api,
      getToken: () => token,
      location: { protocol: 'http:', hostname: '127.0.0.1' },
      connect: (_url, options) => io(safety.url, { ...options, reconnection: false }),
    });
    clients.push(client);
    return client;
  }

  async function publishMove(inventoryId: number) {
    await t.db.update(inventoryItems).set({ lastSeen: new Date() }).where(eq(inventoryItems.id, inventoryId));
    const [worker] = await selectWorkersOnMap(t.db, { inventoryIds: [inventoryId] });
    await safety.live.hub.publish({
      siteId: fixture.siteId,
      changes: [{ worker, previousFloorId: worker.blueprint_id }],
    });
  }

  beforeAll(async () => {
    t = await startTestApp();
    fixture = await demoFloor(t.db);
    other = await seedOtherTenant(t.db);
    ({ inventoryId: helmetId } = await seedWorkerWithHelmet(t.db, fixture.siteId, 'LIVE-CLIENT-1'));
    await t.db
      .update(inventoryItems)
      .set({
        floorId: fixture.floor.id,
        ...fixture.at(0.5, 0.5),
        isOnline: true,
        isActive: true,
        lastSeen: new Date(),
      })
      .where(eq(inventoryItems.id, helmetId));
    safety = await startSafetyServer(t);
  });
  afterEach(() => {
    for (const client of clients.splice(0)) client.close();
  });
  afterAll(async () => {
    await safety?.close();
    await t?.close();
  });

  it('multiplexes the site, floor, evacuation and incident feeds over one socket, each starting with its snapshot', async () => {
    const client = liveClientFor(await t.loginAs('group-of-sites-admin'));
    const site = record(client.site(fixture.siteId));
    const floor = record(client.floor(fixture.siteId, fixture.floor.id));
    const evacuation = record(client.evacuation(fixture.siteId));
    const incidents = record(client.incidents(fixture.siteId));

    const siteSnapshot = await site.next(isSnapshot);
    expect(siteSnapshot.snapshot).toMatchObject({ siteId: fixture.siteId, floorId: null });
    const floorSnapshot = await floor.next(isSnapshot);
    expect(floorSnapshot.snapshot).toMatchObject({ siteId: fixture.siteId, floorId: fixture.floor.id });
    for (const feed of [site, floor, evacuation, incidents]) await feed.next(isLive);
    // The snapshot comes before the feed is live: a subscriber never sees deltas without it.
    expect(floor.heard.findIndex(isSnapshot)).toBeLessThan(floor.heard.findIndex(isLive));
    expect(client.socketsOpened()).toBe(1);
    expect(safety.live.io.of('/').sockets.size).toBe(1);

    // A second subscriber of a feed joins the same feed and starts from its snapshot.
    const late = record(client.floor(fixture.siteId, fixture.floor.id));
    expect(late.heard.filter(isSnapshot)).toHaveLength(1);
    expect(client.socketsOpened()).toBe(1);
  });

  it('delivers a committed move to the floor and site feeds of the helmet', async () => {
    const client = liveClientFor(await t.loginAs('group-of-sites-admin'));
    const floor = record(client.floor(fixture.siteId, fixture.floor.id));
    const site = record(client.site(fixture.siteId));
    const snapshot = await floor.next(isSnapshot);
    expect(snapshot.snapshot.workers.map((w) => w.inventory_id)).toContain(helmetId);
    await floor.next(isLive);
    await site.next(isLive);
    await publishMove(helmetId);
    const onFloor = await floor.next(isUpdate);
    expect(onFloor.update.workers.map((w) => w.inventory_id)).toContain(helmetId);
    const onSite = await site.next(isUpdate);
    expect(onSite.update.workers.map((w) => w.inventory_id)).toContain(helmetId);
  });

  it('counts and drops a payload that does not fit its schema, and goes on delivering the next', async () => {
    const client = liveClientFor(await t.loginAs('group-of-sites-admin'));
    const floor = record(client.floor(fixture.siteId, fixture.floor.id));
    await floor.next(isLive);
    const before = floor.heard.length;
    // What a faulty or hostile server could send, past the typed emitter.
    const untyped = safety.live.io as unknown as { emit(event: string, payload: unknown): boolean };
    untyped.emit(LIVE_EVENTS.locationUpdate, {
      siteId: fixture.siteId,
      floorId: 'not a floor',
      workers: 'nope',
    });
    untyped.emit(SAFETY_EVENTS.evacuating, null);
    await expect.poll(() => client.malformedCount(), { timeout: WAIT_MS }).toBe(2);
    expect(floor.heard.slice(before).some((event) => event.type === 'update')).toBe(false);
    await publishMove(helmetId);
    await floor.next(isUpdate);
  });

  it('gives each refused feed its reason and leaves the other feeds live', async () => {
    const client = liveClientFor(await t.loginAs('site-engineer'));
    const own = record(client.floor(fixture.siteId, fixture.floor.id));
    const foreign = record(client.site(other.siteId));
    const evacuation = record(client.evacuation(fixture.siteId));
    await own.next(isLive);
    expect((await foreign.next(isOffline)).reason).toBe('Site not found');
    expect((await evacuation.next(isOffline)).reason).toBe('Not Authorized');
    expect(foreign.heard.some((event) => event.type === 'snapshot')).toBe(false);
  });

  it('closes every feed at once when the session is revoked', async () => {
    const token = await t.loginAs('group-of-sites-admin');
    const client = liveClientFor(token);
    const feeds = [
      record(client.site(fixture.siteId)),
      record(client.floor(fixture.siteId, fixture.floor.id)),
      record(client.evacuation(fixture.siteId)),
      record(client.incidents(fixture.siteId)),
    ];
    for (const feed of feeds) await feed.next(isLive);
    expect((await t.call(token, { method: 'GET', url: '/api/logout' })).statusCode).toBe(200);
    for (const feed of feeds) await feed.next(isOffline);
    expect(safety.live.io.of('/').sockets.size).toBe(0);
    // A feed asked for afterwards gets no data on the revoked token.
    const after = record(client.site(fixture.siteId));
    await after.next(isOffline);
    expect(after.heard.some((event) => event.type === 'snapshot')).toBe(false);
  });

  it('leaves a feed on the server once its last subscriber has gone', async () => {
    const client = liveClientFor(await t.loginAs('group-of-sites-admin'));
    const site = record(client.site(fixture.siteId));
    const floor = record(client.floor(fixture.siteId, fixture.floor.id));
    await site.next(isLive);
    await floor.next(isLive);
    const [socket] = [...safety.live.io.of('/').sockets.values()];
    const roomsWithFloor = socket.rooms.size;
    floor.subscription.unsubscribe();
    await expect.poll(() => socket.rooms.size, { timeout: WAIT_MS }).toBeLessThan(roomsWithFloor);
    expect(socket.data.feeds.map((feed) => feed.feed)).toEqual(['site']);
    await firstValueFrom(client.site(fixture.siteId).pipe(where(isLive)));
  });
});
