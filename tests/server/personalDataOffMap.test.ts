import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crewAssignments, networks } from '../../server/db/schema';
import type { Role } from '../../src/domain/roles';
import type { DemoFloorFixture } from './helpers/ingestFixture';
import {
  daysFromToday,
  expectAnonymous,
  markerOf,
  type Person,
  type PersonalDataSuite,
  startPersonalDataSuite,
} from './helpers/personalDataSuite';
import { evacuationOf, groundFloorAssembly, type SafetyServer } from './helpers/safetyServer';
import type { TestApp } from './helpers/testApp';

describe("workers' personal data follows the access table", () => {
  let suite: PersonalDataSuite;
  let t: TestApp;
  let safety: SafetyServer;
  let fixture: DemoFloorFixture;
  let managedCrewId: number;
  let tokens: PersonalDataSuite['tokens'];
  let member: Person;
  let leaver: Person;
  let joiner: Person;
  let stranger: Person;
  let get: PersonalDataSuite['get'];

  beforeAll(async () => {
    suite = await startPersonalDataSuite();
    ({ t, safety, fixture, managedCrewId, tokens, member, leaver, joiner, stranger, get } = suite);
  });
  afterAll(() => suite?.close());

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
