import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodePng, Raster } from '../../server/db/blueprintImage';
import {
  crewAssignments,
  crewManagers,
  crews,
  inventoryItems,
  networks,
  workers,
} from '../../server/db/schema';
import type { LivePublisher } from '../../server/live/liveChanges';
import { selectWorkersOnMap } from '../../server/live/workersOnMap';
import { buildSafetyApp, startLive } from '../../server/safety/safetyApp';
import type { WorkerOnMap } from '../../src/domain/inventory';
import type { Role } from '../../src/domain/roles';
import { type DemoFloorFixture, demoFloor, seedWorkerWithHelmet } from './helpers/ingestFixture';
import { connectLive, type LiveClient } from './helpers/liveClient';
import {
  evacuationOf,
  groundFloorAssembly,
  type SafetyServer,
  startSafetyServer,
} from './helpers/safetyServer';
import { demoIds } from './helpers/sessionFor';
import { startTestApp, type TestApp } from './helpers/testApp';

/** A date this many days from today (UTC), far enough from midnight to be the same side of today on site. */
const daysFromToday = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

const PERSONAL_FIELDS = [
  'id',
  'name',
  'worker_tag_id',
  'contact_number',
  'role_name',
  'subcontractor_name',
  'profile_picture_path',
] as const;

/** A helmet whose wearer the viewer may not see: where and how it is, but nobody's name. */
function expectAnonymous(marker: WorkerOnMap | undefined, floorId: number) {
  expect(marker).toBeDefined();
  for (const field of PERSONAL_FIELDS) expect(marker?.[field], field).toBeNull();
  expect(marker).toMatchObject({ blueprint_id: floorId, is_online: true });
  expect(marker?.wnt_inventory_id).toMatch(/^PD-/);
  expect(marker?.coordinates).not.toBeNull();
  expect(marker?.last_seen).not.toBeNull();
}

function png(): Buffer {
  return encodePng(new Raster(8, 8, [200, 30, 30, 255]));
}

function pictureForm(content: Buffer) {
  const boundary = '----sitewatchPersonalData';
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="picture"; filename="face.png"\r\nContent-Type: image/png\r\n\r\n`,
    ),
    content,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

interface Person {
  workerId: number;
  inventoryId: number;
  name: string;
}

describe("workers' personal data follows the access table", () => {
  let t: TestApp;
  let dataDir: string;
  let safety: SafetyServer;
  let fixture: DemoFloorFixture;
  let managedCrewId: number;
  const tokens = {} as Record<Role, string>;
  /** In the crew manager's crew since three days ago. */
  let member: Person;
  /** Was in it, moved to another crew three days ago. */
  let leaver: Person;
  /** In another crew, joins the crew manager's in three days. */
  let joiner: Person;
  /** Never in the crew manager's crews. */
  let stranger: Person;

  const get = (role: Role, url: string) => t.call(tokens[role], { method: 'GET', url });
  const floorWorkers = async (role: Role) => {
    const response = await get(role, `/api/floors/${fixture.floor.id}/workers`);
    expect(response.statusCode, role).toBe(200);
    return response.json.data as WorkerOnMap[];
  };
  const markerOf = (list: WorkerOnMap[], person: Person) =>
    list.find((m) => m.inventory_id === person.inventoryId);

  async function person(tag: string, x: number): Promise<Person> {
    const seeded = await seedWorkerWithHelmet(t.db, fixture.siteId, tag);
    await t.db
      .update(workers)
      .set({
        contactNumber: `+97150${x.toFixed(2).slice(2)}0000`,
        workerTagId: `BADGE-${tag}`,
        helmetColor: '#ffcc00',
      })
      .where(eq(workers.id, seeded.workerId));
    await t.db
      .update(inventoryItems)
      .set({
        floorId: fixture.floor.id,
        ...fixture.at(x, 0.4),
        isOnline: true,
        isActive: true,
        lastSeen: new Date(),
      })
      .where(eq(inventoryItems.id, seeded.inventoryId));
    return { workerId: seeded.workerId, inventoryId: seeded.inventoryId, name: seeded.workerName };
  }

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

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'sitewatch-personal-'));
    t = await startTestApp({ dataDir });
    fixture = await demoFloor(t.db);
    const { userIds } = await demoIds(t.db);
    for (const role of [
      'group-of-sites-admin',
      'group-of-sites-viewer',
      'crew-manager',
      'site-engineer',
      'safety-demo',
    ] as const)
      tokens[role] = await t.loginAs(role);

    const [managed, elsewhere] = await t.db
      .insert(crews)
      .values([
        { siteId: fixture.siteId, name: 'Personal data crew' },
        { siteId: fixture.siteId, name: 'Someone else’s crew' },
      ])
      .returning();
    managedCrewId = managed.id;
    await t.db.insert(crewManagers).values({ crewId: managed.id, userId: userIds['crew-manager'] });

    member = await person('PD-MEMBER', 0.2);
    leaver = await person('PD-LEAVER', 0.4);
    joiner = await person('PD-JOINER', 0.6);
    stranger = await person('PD-STRANGER', 0.8);
    await t.db.insert(crewAssignments).values([
      { crewId: managed.id, workerId: member.workerId, assignedAt: daysFromToday(-3) },
      { crewId: managed.id, workerId: leaver.workerId, assignedAt: daysFromToday(-10) },
      { crewId: elsewhere.id, workerId: leaver.workerId, assignedAt: daysFromToday(-3) },
      { crewId: elsewhere.id, workerId: joiner.workerId, assignedAt: daysFromToday(-10) },
      { crewId: managed.id, workerId: joiner.workerId, assignedAt: daysFromToday(3) },
      { crewId: elsewhere.id, workerId: stranger.workerId, assignedAt: daysFromToday(-10) },
    ]);
    for (const p of [member, stranger]) {
      const uploaded = await t.call(tokens['group-of-sites-admin'], {
        method: 'POST',
        url: `/api/sites/${fixture.siteId}/workers/${p.workerId}/picture`,
        ...pictureForm(png()),
      });
      expect(uploaded.statusCode).toBe(200);
    }
    safety = await startSafetyServer(t);
  });

  afterAll(async () => {
    await safety?.close();
    await t?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

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

  it('a crew manager may not assign a worker who left its crew or joins it only later', async () => {
    const assign = (workerIds: number[]) =>
      t.call(tokens['crew-manager'], {
        method: 'POST',
        url: `/api/sites/${fixture.siteId}/workers/crews/${managedCrewId}/assign`,
        payload: { workerIds, assigned_at: daysFromToday(0) },
      });
    for (const p of [leaver, joiner]) {
      const refused = await assign([p.workerId]);
      expect(refused.statusCode, p.name).toBe(403);
      expect(refused.json).toEqual({
        status: 'error',
        message: 'Worker is not a current member of your crews',
      });
    }
    expect((await assign([member.workerId, leaver.workerId])).statusCode).toBe(403);
    // Refused as a whole: the leaver still has its two assignments only.
    expect(
      (await t.db.select().from(crewAssignments).where(eq(crewAssignments.workerId, leaver.workerId))).length,
    ).toBe(2);
    expect((await assign([member.workerId])).statusCode).toBe(200);
  });

  it("serves a worker's picture to a crew manager only for its crews' current members", async () => {
    const picture = (role: Role, p: Person) =>
      get(role, `/api/sites/${fixture.siteId}/workers/${p.workerId}/picture`);
    const own = await picture('crew-manager', member);
    expect(own.statusCode).toBe(200);
    expect(own.headers['content-type']).toBe('image/png');
    const outside = await picture('crew-manager', stranger);
    expect(outside.statusCode).toBe(404);
    expect(outside.json).toEqual({ status: 'error', message: 'Worker not found' });
    expect((await picture('group-of-sites-viewer', stranger)).statusCode).toBe(200);
    expect((await picture('site-engineer', stranger)).statusCode).toBe(403);
  });

  it("the network and site device lists follow the access table's nodes row", async () => {
    const [mesh] = await t.db.select().from(networks).where(eq(networks.name, 'Tower A mesh'));
    const lists = [`/api/sites/${fixture.siteId}/inventories`, `/api/networks/${mesh.id}/inventory`];
    for (const url of lists) {
      for (const role of ['group-of-sites-viewer', 'crew-manager', 'safety-demo'] as const) {
        const refused = await get(role, url);
        expect(refused.statusCode, `${role} ${url}`).toBe(403);
        expect(refused.json).toEqual({ status: 'error', message: 'Not Authorized' });
      }
      const engineer = await get('site-engineer', url);
      expect(engineer.statusCode, url).toBe(200);
      expect(engineer.json.data.length).toBeGreaterThan(0);
    }
    // Assigning a helmet still offers the crew manager the helmets nobody wears, and nothing more.
    const picker = await get('crew-manager', `/api/sites/${fixture.siteId}/inventories/assets?assigned=0`);
    expect(picker.statusCode).toBe(200);
    for (const option of picker.json.data) expect(Object.keys(option).sort()).toEqual(['label', 'value']);
    expect(
      (await get('group-of-sites-viewer', `/api/sites/${fixture.siteId}/inventories/assets`)).statusCode,
    ).toBe(403);
  });

  it('the evacuation wall still names everyone for a Site Viewer and the Safety Demo user', async () => {
    const { assemblyZoneId } = await groundFloorAssembly(t.db, fixture);
    const viewer = safety.connect({ token: tokens['group-of-sites-viewer'], siteId: fixture.siteId });
    const demo = safety.connect({ token: tokens['safety-demo'], siteId: fixture.siteId });
    const demoMap = await demo.firstSnapshot();
    await viewer.firstSnapshot();
    // On the live map the Safety Demo user sees helmets, not people...
    expectAnonymous(markerOf(demoMap.workers, stranger), fixture.floor.id);

    const started = await demo.start(evacuationOf(fixture.siteId, [fixture.floor.id], [assemblyZoneId]));
    expect(started.status).toBe('success');
    // ...and on the evacuation wall, the people it is evacuating.
    for (const client of [viewer, demo]) {
      const wall = await client.until('evacuationInProgress', () => client.inProgress[0]);
      const included = wall.workers.find((w) => w.inventory_id === stranger.inventoryId);
      expect(included).toMatchObject({
        name: stranger.name,
        contact_number: expect.stringMatching(/^\+9715/),
        profile_picture_path: expect.stringContaining(`/workers/${stranger.workerId}/picture`),
      });
    }
    expect(
      (await get('safety-demo', `/api/sites/${fixture.siteId}/workers/${stranger.workerId}/picture`))
        .statusCode,
    ).toBe(200);
    const ended = await demo.end({
      siteId: fixture.siteId,
      evacuationSessionId: started.data?.evacuationSessionId,
    });
    expect(ended.status).toBe('success');
  });
});
