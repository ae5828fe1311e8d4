import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { encodePng, Raster } from '../../../server/db/blueprintImage';
import { crewAssignments, crewManagers, crews, inventoryItems, workers } from '../../../server/db/schema';
import type { WorkerOnMap } from '../../../src/domain/inventory';
import type { Role } from '../../../src/domain/roles';
import { type DemoFloorFixture, demoFloor, seedWorkerWithHelmet } from './ingestFixture';
import { type SafetyServer, startSafetyServer } from './safetyServer';
import { demoIds } from './sessionFor';
import { startTestApp, type TestApp } from './testApp';

/** A date this many days from today (UTC), far enough from midnight to be the same side of today on site. */
export const daysFromToday = (days: number) =>
  new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

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
export function expectAnonymous(marker: WorkerOnMap | undefined, floorId: number) {
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

export interface Person {
  workerId: number;
  inventoryId: number;
  name: string;
}

/** The marker of a person's helmet in a list of the map's workers. */
export const markerOf = (list: WorkerOnMap[], person: Person) =>
  list.find((m) => m.inventory_id === person.inventoryId);

export interface PersonalDataSuite {
  t: TestApp;
  /** The safety app with its live channel, listening. */
  safety: SafetyServer;
  fixture: DemoFloorFixture;
  /** The crew the demo crew manager manages ("Personal data crew"). */
  managedCrewId: number;
  /** Tokens of the demo site admin, Site Viewer, crew manager, site engineer and Safety Demo user. */
  tokens: Record<Role, string>;
  /** In the crew manager's crew since three days ago. */
  member: Person;
  /** Was in it, moved to another crew three days ago. */
  leaver: Person;
  /** In another crew, joins the crew manager's in three days. */
  joiner: Person;
  /** Never in the crew manager's crews. */
  stranger: Person;
  /** GET through the test server as the demo user of a role. */
  get(role: Role, url: string): ReturnType<TestApp['call']>;
  close(): Promise<void>;
}

/**
 * Four workers with helmets online on the demo floor, in or out of the demo crew manager's crew
 * (see `PersonalDataSuite`), with contact numbers, badges and, for the member and the stranger, a
 * picture; and the safety server on the same database.
 */
export async function startPersonalDataSuite(): Promise<PersonalDataSuite> {
  const dataDir = await mkdtemp(join(tmpdir(), 'sitewatch-personal-'));
  const t = await startTestApp({ dataDir });
  const fixture = await demoFloor(t.db);
  const { userIds } = await demoIds(t.db);
  const tokens = {} as Record<Role, string>;
  for (const role of [
    'group-of-sites-admin',
    'group-of-sites-viewer',
    'crew-manager',
    'site-engineer',
    'safety-demo',
  ] as const)
    tokens[role] = await t.loginAs(role);

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

  const [managed, elsewhere] = await t.db
    .insert(crews)
    .values([
      { siteId: fixture.siteId, name: 'Personal data crew' },
      { siteId: fixture.siteId, name: 'Someone else’s crew' },
    ])
    .returning();
  await t.db.insert(crewManagers).values({ crewId: managed.id, userId: userIds['crew-manager'] });

  const member = await person('PD-MEMBER', 0.2);
  const leaver = await person('PD-LEAVER', 0.4);
  const joiner = await person('PD-JOINER', 0.6);
  const stranger = await person('PD-STRANGER', 0.8);
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
  const safety = await startSafetyServer(t);
  return {
    t,
    safety,
    fixture,
    managedCrewId: managed.id,
    tokens,
    member,
    leaver,
    joiner,
    stranger,
    get: (role, url) => t.call(tokens[role], { method: 'GET', url }),
    async close() {
      await safety.close();
      await t.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
