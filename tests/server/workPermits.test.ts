import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crews, workPermits } from '../../server/db/schema';
import type { Role } from '../../src/domain/roles';
import type { WorkPermit } from '../../src/domain/workPermits';
import { startDemoSiteSuite } from './helpers/demoSiteSuite';
import type { OtherTenant } from './helpers/otherTenant';
import { type DemoPermitFloor, demoPermitFloor } from './helpers/permitFixture';
import type { TestApp } from './helpers/testApp';

/**
 * Work permit routes (issue 19, spec §7 "Work permits and grid"): issued on the demo's North
 * Block ground floor, listed with holder and grid reference, edited through their status
 * changes, deleted; every validation message, the `installation` roles and the tenancy chain.
 */

const HOUR = 3_600_000;
const iso = (ms: number) => new Date(ms).toISOString();

let t: TestApp;
let other: OtherTenant;
let tokens: Record<Role, string>;
let f: DemoPermitFloor;
let admin: string;

const post = (url: string, payload: unknown, token = admin) =>
  t.call(token, { method: 'POST', url, payload: payload as object });
const get = (url: string, token = admin) => t.call(token, { method: 'GET', url });
const del = (url: string, token = admin) => t.call(token, { method: 'DELETE', url });

function permitBody(overrides: Record<string, unknown> = {}) {
  const now = Date.now();
  return {
    number: 'PTW-900',
    type: 'hotWork',
    area: f.box(0.1, 0.1, 0.3, 0.3),
    holder_crew_id: f.crewIds[0],
    valid_from: iso(now - HOUR),
    valid_to: iso(now + 8 * HOUR),
    status: 'active',
    ...overrides,
  };
}

beforeAll(async () => {
  ({ t, other, tokens } = await startDemoSiteSuite([
    'super-admin',
    'client-admin',
    'group-of-sites-admin',
    'group-of-sites-viewer',
    'crew-manager',
    'site-engineer',
    'safety-demo',
  ]));
  admin = tokens['group-of-sites-admin'];
  const [site] = await t.db.select().from(crews).limit(1);
  f = await demoPermitFloor(t.db, site.siteId);
}, 180_000);
afterAll(() => t.close());

describe('issuing and listing permits', () => {
  it('creates a permit, replies it with the holder crew named, and lists it', async () => {
    const created = await post(f.path, permitBody({ number: ' PTW-901 ' }));
    expect(created.statusCode).toBe(200);
    expect(created.json.message).toBe('Permit is created successfully');
    const permit = created.json.data as WorkPermit;
    const [crew] = await t.db.select().from(crews).where(eq(crews.id, f.crewIds[0]));
    expect(permit).toMatchObject({
      number: 'PTW-901',
      type: 'hotWork',
      status: 'active',
      floor_id: f.floorId,
      site_id: f.siteId,
      holder_crew_id: f.crewIds[0],
      holder_subcontractor_id: null,
      holder_name: crew.name,
    });
    expect(permit.area).toHaveLength(4);
    const list = await get(f.path);
    expect(list.statusCode).toBe(200);
    expect((list.json.data as WorkPermit[]).map((p) => p.number)).toContain('PTW-901');
  });

  it('filters the list by status and type', async () => {
    await post(f.path, permitBody({ number: 'PTW-902', status: 'draft', type: 'excavation' }));
    const drafts = (await get(`${f.path}?status=draft`)).json.data as WorkPermit[];
    expect(drafts.length).toBeGreaterThan(0);
    expect(drafts.every((p) => p.status === 'draft')).toBe(true);
    expect(drafts.map((p) => p.number)).toContain('PTW-902');
    const excavations = (await get(`${f.path}?type=excavation`)).json.data as WorkPermit[];
    expect(excavations.every((p) => p.type === 'excavation')).toBe(true);
  });

  it('takes a subcontractor as the holder', async () => {
    const created = await post(
      f.path,
      permitBody({
        number: 'PTW-903',
        holder_crew_id: undefined,
        holder_subcontractor_id: f.subcontractorIds[0],
      }),
    );
    expect(created.statusCode).toBe(200);
    expect(created.json.data).toMatchObject({
      holder_crew_id: null,
      holder_subcontractor_id: f.subcontractorIds[0],
    });
  });
});

describe('holder choices', () => {
  it("lists the site's crews and subcontractors by name, to the Site Engineer too", async () => {
    const url = `/api/clients/${f.clientId}/sites/${f.siteId}/work-permit-holders`;
    const holders = await get(url, tokens['site-engineer']);
    expect(holders.statusCode).toBe(200);
    const crewIds = (holders.json.data.crews as { id: number; name: string }[]).map((c) => c.id);
    expect([...crewIds].sort((a, b) => a - b)).toEqual(f.crewIds);
    const names = (holders.json.data.subcontractors as { name: string }[]).map((s) => s.name);
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));
    expect(
      (await get(`/api/clients/${other.clientId}/sites/${f.siteId}/work-permit-holders`)).statusCode,
    ).toBe(404);
    expect((await get(url, tokens['crew-manager'])).statusCode).toBe(403);
  });
});

describe('validation', () => {
  it('refuses a number already used on the site, whatever its case', async () => {
    await post(f.path, permitBody({ number: 'PTW-910' }));
    const again = await post(f.path, permitBody({ number: 'ptw-910' }));
    expect(again.statusCode).toBe(409);
    expect(again.json.message).toBe('Permit number already exists!');
  });

  it('names a missing or blank number, a bad type and a missing area', async () => {
    const blank = await post(f.path, permitBody({ number: '   ' }));
    expect(blank.statusCode).toBe(422);
    expect(blank.json.errors).toMatchObject({ number: 'Permit number is required' });
    const { area: _area, ...withoutArea } = permitBody({ number: 'PTW-911' });
    const noArea = await post(f.path, withoutArea);
    expect(noArea.statusCode).toBe(422);
    expect(noArea.json.errors).toMatchObject({ area: 'Area is required' });
    const badType = await post(f.path, permitBody({ number: 'PTW-911', type: 'welding' }));
    expect(badType.statusCode).toBe(422);
    expect(badType.json.errors).toMatchObject({ type: 'Type is invalid' });
  });

  it('refuses an area that is not a polygon inside the floor', async () => {
    const cases: [unknown, string][] = [
      [[f.at(0.1, 0.1), f.at(0.2, 0.2)], 'A permit area needs at least 3 points that are not on one line'],
      [
        [f.at(0.1, 0.1), f.at(0.3, 0.3), f.at(0.3, 0.1), f.at(0.1, 0.3)],
        "A permit area's edges must not cross each other",
      ],
      [f.box(0.8, 0.8, 1.2, 0.9), 'Every point of a permit area must be inside the floor'],
    ];
    for (const [area, message] of cases) {
      const response = await post(f.path, permitBody({ number: 'PTW-912', area }));
      expect(response.statusCode, message).toBe(422);
      expect(response.json.errors?.area).toBe(message);
    }
  });

  it('wants exactly one holder, of this site', async () => {
    const none = await post(f.path, permitBody({ number: 'PTW-913', holder_crew_id: null }));
    expect(none.json.errors?.holder).toBe('Choose either a crew or a subcontractor as the holder');
    const both = await post(
      f.path,
      permitBody({ number: 'PTW-913', holder_subcontractor_id: f.subcontractorIds[0] }),
    );
    expect(both.json.errors?.holder).toBe('Choose either a crew or a subcontractor as the holder');
    const [foreignCrew] = await t.db
      .insert(crews)
      .values({ siteId: other.siteId, name: 'Depot crew' })
      .returning();
    const foreign = await post(f.path, permitBody({ number: 'PTW-913', holder_crew_id: foreignCrew.id }));
    // Another client's crew is as unknown as a missing one.
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json.message).toBe('Crew not found');
  });

  it('wants valid_from before valid_to, both dates', async () => {
    const now = Date.now();
    const backwards = await post(
      f.path,
      permitBody({ number: 'PTW-914', valid_from: iso(now), valid_to: iso(now) }),
    );
    expect(backwards.statusCode).toBe(422);
    expect(backwards.json.errors).toMatchObject({ valid_to: 'Valid to must be after valid from' });
    const garbled = await post(f.path, permitBody({ number: 'PTW-914', valid_from: 'tomorrow' }));
    expect(garbled.json.errors).toMatchObject({ valid_from: 'Enter a valid date and time' });
  });

  it('starts a permit as draft or active only', async () => {
    const closed = await post(f.path, permitBody({ number: 'PTW-915', status: 'closed' }));
    expect(closed.statusCode).toBe(422);
    expect(closed.json.errors?.status).toBe('A new permit starts as draft or active');
    const draft = await post(f.path, permitBody({ number: 'PTW-915', status: undefined }));
    expect(draft.json.data.status).toBe('draft');
  });
});

describe('editing and status changes', () => {
  it('follows draft → active → suspended → active → closed, and a closed permit is final', async () => {
    const created = await post(f.path, permitBody({ number: 'PTW-920', status: 'draft' }));
    const url = `${f.path}/${created.json.data.id}`;
    for (const status of ['active', 'suspended', 'active', 'closed']) {
      const changed = await post(url, { status });
      expect(changed.statusCode, status).toBe(200);
      expect(changed.json.data.status).toBe(status);
    }
    expect((await post(url, { status: 'active' })).json.errors?.status).toBe(
      'A closed permit cannot be changed',
    );
    expect((await post(url, { number: 'PTW-920b' })).statusCode).toBe(422);
  });

  it('refuses a change the transitions do not allow', async () => {
    const created = await post(f.path, permitBody({ number: 'PTW-921', status: 'draft' }));
    const refused = await post(`${f.path}/${created.json.data.id}`, { status: 'suspended' });
    expect(refused.statusCode).toBe(422);
    expect(refused.json.errors?.status).toBe('This status change is not allowed');
  });

  it('edits the fields sent and keeps the others; a holder sent replaces the other', async () => {
    const created = await post(f.path, permitBody({ number: 'PTW-922' }));
    const url = `${f.path}/${created.json.data.id}`;
    const edited = await post(url, {
      holder_subcontractor_id: f.subcontractorIds[0],
      area: f.box(0.5, 0.5, 0.6, 0.6),
    });
    expect(edited.statusCode).toBe(200);
    expect(edited.json.message).toBe('Permit is updated successfully');
    expect(edited.json.data).toMatchObject({
      number: 'PTW-922',
      type: 'hotWork',
      holder_crew_id: null,
      holder_subcontractor_id: f.subcontractorIds[0],
    });
    expect(edited.json.data.area[0]).toEqual(f.at(0.5, 0.5));
    await post(f.path, permitBody({ number: 'PTW-923' }));
    const clash = await post(url, { number: 'PTW-923' });
    expect(clash.statusCode).toBe(409);
    expect(clash.json.message).toBe('Permit number already exists!');
    const backwards = await post(url, { valid_to: created.json.data.valid_from });
    expect(backwards.json.errors?.valid_to).toBe('Valid to must be after valid from');
  });

  it('deletes a permit', async () => {
    const created = await post(f.path, permitBody({ number: 'PTW-924' }));
    const url = `${f.path}/${created.json.data.id}`;
    const deleted = await del(url);
    expect(deleted.statusCode).toBe(200);
    expect(deleted.json.message).toBe('Permit is deleted successfully');
    expect((await del(url)).statusCode).toBe(404);
    expect(await t.db.select().from(workPermits).where(eq(workPermits.id, created.json.data.id))).toEqual([]);
  });
});

describe('roles (DESIGN §4 installation row)', () => {
  it('lets super-admin, client-admin, Site Admin and Site Engineer read and write', async () => {
    for (const [index, role] of (
      ['super-admin', 'client-admin', 'group-of-sites-admin', 'site-engineer'] as const
    ).entries()) {
      expect((await get(f.path, tokens[role])).statusCode, role).toBe(200);
      const created = await post(f.path, permitBody({ number: `PTW-93${index}` }), tokens[role]);
      expect(created.statusCode, role).toBe(200);
      expect(
        (await post(`${f.path}/${created.json.data.id}`, { status: 'closed' }, tokens[role])).statusCode,
      ).toBe(200);
      expect((await del(`${f.path}/${created.json.data.id}`, tokens[role])).statusCode).toBe(200);
    }
  });

  it('refuses every other role with 403, reading included', async () => {
    const created = await post(f.path, permitBody({ number: 'PTW-940' }));
    const url = `${f.path}/${created.json.data.id}`;
    for (const role of ['group-of-sites-viewer', 'crew-manager', 'safety-demo'] as const) {
      expect((await get(f.path, tokens[role])).statusCode, role).toBe(403);
      expect((await post(f.path, permitBody({ number: 'PTW-941' }), tokens[role])).statusCode, role).toBe(
        403,
      );
      expect((await post(url, { status: 'closed' }, tokens[role])).statusCode, role).toBe(403);
      expect((await del(url, tokens[role])).statusCode, role).toBe(403);
    }
    expect(
      (await get(url.replace(/\/\d+$/, ''))).json.data.some((p: WorkPermit) => p.number === 'PTW-940'),
    ).toBe(true);
  });
});

describe("tenancy: the client/site/floor chain must be the caller's", () => {
  it("answers 404 for another client's floor, a floor of another site and a mixed chain", async () => {
    const otherPath = `/api/clients/${other.clientId}/sites/${other.siteId}/floors/${other.floorId}/work-permits`;
    expect((await get(otherPath)).statusCode).toBe(404);
    expect((await post(otherPath, permitBody({ number: 'PTW-950' }))).statusCode).toBe(404);
    const mixed = [
      `/api/clients/${f.clientId}/sites/${f.siteId}/floors/${other.floorId}/work-permits`,
      `/api/clients/${other.clientId}/sites/${f.siteId}/floors/${f.floorId}/work-permits`,
      `/api/clients/${f.clientId}/sites/${other.siteId}/floors/${f.floorId}/work-permits`,
    ];
    for (const url of mixed) expect((await get(url)).statusCode, url).toBe(404);
    // Even a super-admin, who sees every client, needs the chain to hold.
    expect((await get(mixed[0], tokens['super-admin'])).statusCode).toBe(404);
  });

  it("answers 404 for another client's permit named under one's own floor", async () => {
    const otherAdmin = await t.login(other.email('client-admin'));
    const otherPath = `/api/clients/${other.clientId}/sites/${other.siteId}/floors/${other.floorId}/work-permits`;
    const [depotCrew] = await t.db
      .insert(crews)
      .values({ siteId: other.siteId, name: 'Depot welders' })
      .returning();
    const depotFloorBox: [number, number][] = [
      [-0.099, 51.499],
      [-0.091, 51.499],
      [-0.091, 51.491],
      [-0.099, 51.491],
    ];
    const foreign = await post(
      otherPath,
      permitBody({ number: 'PTW-960', area: depotFloorBox, holder_crew_id: depotCrew.id }),
      otherAdmin,
    );
    expect(foreign.statusCode).toBe(200);
    const foreignId = foreign.json.data.id as number;
    expect((await post(`${f.path}/${foreignId}`, { status: 'closed' })).statusCode).toBe(404);
    expect((await del(`${f.path}/${foreignId}`)).statusCode).toBe(404);
    expect((await get(otherPath)).statusCode).toBe(404);
    // The other client does not see ours either.
    expect((await get(f.path, otherAdmin)).statusCode).toBe(404);
  });
});
