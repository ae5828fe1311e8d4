import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inventoryItems } from '../../server/db/schema';
import type { LivePublisher } from '../../server/live/liveChanges';
import { selectWorkersOnMap } from '../../server/live/workersOnMap';
import { buildSafetyApp, startLive } from '../../server/safety/safetyApp';
import type { WorkerOnMap } from '../../src/domain/inventory';
import type { Role } from '../../src/domain/roles';
import type { DemoFloorFixture } from './helpers/ingestFixture';
import { connectLive, type LiveClient } from './helpers/liveClient';
import {
  expectAnonymous,
  markerOf,
  type Person,
  type PersonalDataSuite,
  startPersonalDataSuite,
} from './helpers/personalDataSuite';
import type { SafetyServer } from './helpers/safetyServer';
import type { TestApp } from './helpers/testApp';

describe("workers' personal data follows the access table", () => {
  let suite: PersonalDataSuite;
  let t: TestApp;
  let safety: SafetyServer;
  let fixture: DemoFloorFixture;
  let tokens: PersonalDataSuite['tokens'];
  let member: Person;
  let leaver: Person;
  let joiner: Person;
  let stranger: Person;
  let get: PersonalDataSuite['get'];

  beforeAll(async () => {
    suite = await startPersonalDataSuite();
    ({ t, safety, fixture, tokens, member, leaver, joiner, stranger, get } = suite);
  });
  afterAll(() => suite?.close());

  const floorWorkers = async (role: Role) => {
    const response = await get(role, `/api/floors/${fixture.floor.id}/workers`);
    expect(response.statusCode, role).toBe(200);
    return response.json.data as WorkerOnMap[];
  };

  /** What the ingest does after a commit: publish the helmets' new state to the live channel. */
  async function moveAndPublish(
    people: Person[],
    lat: number,
    publisher: LivePublisher = safety.live.publisher,
  ) {
    for (const p of people)
      await t.db
        .update(inventoryItems)
        .set({ lat, lastSeen: new Date() })
        .where(eq(inventoryItems.id, p.inventoryId));
    const changed = await selectWorkersOnMap(t.db, { inventoryIds: people.map((p) => p.inventoryId) });
    await publisher.publish({
      siteId: fixture.siteId,
      changes: changed.map((worker) => ({ worker, previousFloorId: fixture.floor.id })),
    });
  }

  it('GET /floors/{id}/workers: everything to an admin, anonymous markers to a site engineer', async () => {
    const forAdmin = await floorWorkers('group-of-sites-admin');
    expect(markerOf(forAdmin, stranger)).toMatchObject({
      id: stranger.workerId,
      name: stranger.name,
      worker_tag_id: 'BADGE-PD-STRANGER',
      contact_number: expect.stringMatching(/^\+9715/),
      role_name: 'Rigger PD-STRANGER',
      subcontractor_name: 'Steel Co PD-STRANGER',
      profile_picture_path: `/api/sites/${fixture.siteId}/workers/${stranger.workerId}/picture`,
    });

    const forEngineer = await floorWorkers('site-engineer');
    expect(forEngineer).toHaveLength(forAdmin.length);
    for (const p of [member, leaver, joiner, stranger]) {
      expectAnonymous(markerOf(forEngineer, p), fixture.floor.id);
      // The helmet's colour is not personal: an anonymous marker keeps it.
      expect(markerOf(forEngineer, p)?.helmet_color).toBe('#ffcc00');
    }
  });

  it("GET /floors/{id}/workers: a crew manager sees the names of its crews' current members only", async () => {
    const forCrewManager = await floorWorkers('crew-manager');
    expect(markerOf(forCrewManager, member)).toMatchObject({
      id: member.workerId,
      name: member.name,
      contact_number: expect.stringMatching(/^\+9715/),
      profile_picture_path: expect.stringContaining(`/workers/${member.workerId}/picture`),
    });
    for (const p of [leaver, joiner, stranger])
      expectAnonymous(markerOf(forCrewManager, p), fixture.floor.id);
  });

  it('live snapshot and deltas: named, anonymous or crew members only, one gap-free sequence each', async () => {
    const connect = (role: Role) =>
      safety.connect({ token: tokens[role], siteId: fixture.siteId, floorId: fixture.floor.id });
    const admin = connect('group-of-sites-admin');
    const engineer = connect('site-engineer');
    const crewManager = connect('crew-manager');
    const [adminSnap, engineerSnap, managerSnap] = await Promise.all(
      [admin, engineer, crewManager].map((client) => client.firstSnapshot()),
    );
    expect(markerOf(adminSnap.workers, stranger)?.name).toBe(stranger.name);
    for (const p of [member, stranger]) expectAnonymous(markerOf(engineerSnap.workers, p), fixture.floor.id);
    expect(markerOf(managerSnap.workers, member)?.name).toBe(member.name);
    for (const p of [leaver, joiner, stranger])
      expectAnonymous(markerOf(managerSnap.workers, p), fixture.floor.id);

    await moveAndPublish([member, stranger], fixture.at(0.5, 0.5).lat);
    const [adminUpdate, engineerUpdate, managerUpdate] = await Promise.all(
      [admin, engineer, crewManager].map((client) => client.update(1)),
    );
    for (const [update, snapshot] of [
      [adminUpdate, adminSnap],
      [engineerUpdate, engineerSnap],
      [managerUpdate, managerSnap],
    ] as const)
      expect(update).toMatchObject({ stream: snapshot.stream, seq: snapshot.seq + 1 });
    expect(markerOf(adminUpdate.workers, member)?.contact_number).toMatch(/^\+9715/);
    expect(markerOf(adminUpdate.workers, stranger)?.name).toBe(stranger.name);
    for (const p of [member, stranger])
      expectAnonymous(markerOf(engineerUpdate.workers, p), fixture.floor.id);
    expect(markerOf(managerUpdate.workers, member)).toMatchObject({ name: member.name, id: member.workerId });
    expectAnonymous(markerOf(managerUpdate.workers, stranger), fixture.floor.id);

    // A batch with none of its members: the crew manager still hears it, in sequence, anonymous.
    await moveAndPublish([stranger], fixture.at(0.5, 0.6).lat);
    const strangerOnly = await crewManager.update(2);
    expect(strangerOnly.seq).toBe(managerSnap.seq + 2);
    expect(strangerOnly.workers).toHaveLength(1);
    expectAnonymous(strangerOnly.workers[0], fixture.floor.id);
    expect((await engineer.requestSnapshot()).workers.every((m) => m.name === null)).toBe(true);
  });

  const redisUrl = process.env.TEST_REDIS_URL;
  it.skipIf(!redisUrl)(
    'fans each audience its own payload across processes on Redis (needs TEST_REDIS_URL)',
    async () => {
      const keyPrefix = `sw-test-${randomBytes(6).toString('hex')}`;
      const startOnRedis = async () => {
        const app = await buildSafetyApp({ db: t.db, config: t.config });
        const live = await startLive({ app, db: t.db, config: { redisUrl }, redisKeyPrefix: keyPrefix });
        await app.listen({ port: 0, host: '127.0.0.1' });
        const url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
        return { live, url, close: () => live.close().then(() => app.close()) };
      };
      const first = await startOnRedis();
      const second = await startOnRedis();
      const clients: LiveClient[] = [];
      try {
        const connect = (role: Role) => {
          const client = connectLive(second.url, {
            token: tokens[role],
            siteId: fixture.siteId,
            floorId: fixture.floor.id,
          });
          clients.push(client);
          return client;
        };
        const [engineer, crewManager] = [connect('site-engineer'), connect('crew-manager')];
        const [, managerSnap] = await Promise.all([engineer.firstSnapshot(), crewManager.firstSnapshot()]);

        await moveAndPublish([member, stranger], fixture.at(0.5, 0.55).lat, first.live.publisher);
        const managerUpdate = await crewManager.update(1);
        expect(managerUpdate.seq).toBe(managerSnap.seq + 1);
        expect(markerOf(managerUpdate.workers, member)?.name).toBe(member.name);
        expectAnonymous(markerOf(managerUpdate.workers, stranger), fixture.floor.id);
        for (const p of [member, stranger])
          expectAnonymous(markerOf((await engineer.update(1)).workers, p), fixture.floor.id);

        await moveAndPublish([stranger], fixture.at(0.5, 0.65).lat, first.live.publisher);
        const strangerOnly = await crewManager.update(2);
        expect(strangerOnly.seq).toBe(managerSnap.seq + 2);
        expectAnonymous(strangerOnly.workers[0], fixture.floor.id);
        expect(crewManager.updates).toHaveLength(2);
      } finally {
        for (const client of clients) client.close();
        await first.close();
        await second.close();
      }
    },
  );
});
