import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_SITE } from '../../server/db/demoSeed';
import { buildings, floors, sites } from '../../server/db/schema';
import type { Zone } from '../../src/domain/floor';
import type { Role } from '../../src/domain/roles';
import { type OtherTenant, seedOtherTenant } from './helpers/otherTenant';
import { startTestApp, type TestApp } from './helpers/testApp';

describe('zones', () => {
  let t: TestApp;
  let other: OtherTenant;
  let siteId: number;
  let floor: typeof floors.$inferSelect;
  let otherDemoFloorId: number;
  let otherFloorId: number;
  const tokens = {} as Record<Role, string>;

  /** A point of the floor, as fractions of its width and height: [long, lat]. */
  const at = (x: number, y: number): [number, number] => [
    floor.aLong + x * (floor.bLong - floor.aLong),
    floor.aLat - y * (floor.aLat - floor.dLat),
  ];

  beforeAll(async () => {
    t = await startTestApp();
    other = await seedOtherTenant(t.db);
    [{ id: siteId }] = await t.db.select().from(sites).where(eq(sites.name, DEMO_SITE));
    const [north] = await t.db.select().from(buildings).where(eq(buildings.name, 'North Block'));
    [floor] = await t.db
      .select()
      .from(floors)
      .where(and(eq(floors.buildingId, north.id), eq(floors.name, 'Level 1')));
    [{ id: otherDemoFloorId }] = await t.db
      .select()
      .from(floors)
      .where(and(eq(floors.buildingId, north.id), eq(floors.name, 'Level 2')));
    otherFloorId = other.floorId;
    for (const role of ['group-of-sites-admin', 'group-of-sites-viewer', 'crew-manager'] as const)
      tokens[role] = await t.loginAs(role);
  });
  afterAll(() => t.close());

  const admin = () => tokens['group-of-sites-admin'];
  const get = (url: string, token = admin()) => t.call(token, { method: 'GET', url });
  const post = (url: string, payload: unknown, token = admin()) =>
    t.call(token, { method: 'POST', url, payload: payload as object });
  const square = (x0: number, y0: number, x1: number, y1: number) => [
    at(x0, y0),
    at(x1, y0),
    at(x1, y1),
    at(x0, y1),
  ];

  it('lists the demo zones of a floor and of a site, with one assembly zone per building', async () => {
    const response = await get(`/api/floors/${floor.id}/zones`);
    expect(response.statusCode).toBe(200);
    expect((response.json.data as Zone[]).map((z) => z.name)).toEqual([
      'East wing',
      'Fit-out area',
      'Stair core',
    ]);
    const site = (await get(`/api/sites/${siteId}/zones`)).json.data as Zone[];
    expect(site.filter((z) => z.kind === 'assembly')).toHaveLength(2);
    const search = (await get(`/api/sites/${siteId}/zones?search=ASSEMBLY`)).json.data as Zone[];
    expect(search.map((z) => z.name)).toEqual(['Assembly point', 'Assembly point']);
    expect((await get(`/api/floors/${floor.id}/zones`, tokens['group-of-sites-viewer'])).statusCode).toBe(
      200,
    );
    expect((await get(`/api/floors/${floor.id}/zones`, tokens['crew-manager'])).statusCode).toBe(403);
    expect((await get(`/api/floors/${otherFloorId}/zones`)).statusCode).toBe(404);
    expect((await get(`/api/sites/${other.siteId}/zones`)).statusCode).toBe(404);
  });

  it('creates a zone, storing the ring open', async () => {
    const ring = square(0.2, 0.5, 0.3, 0.6);
    const response = await post(`/api/floors/${floor.id}/zones`, {
      name: ' Loading bay ',
      kind: 'work',
      coordinates: [...ring, ring[0]],
    });
    expect(response.statusCode).toBe(200);
    expect(response.json.message).toBe('Zone is created successfully');
    expect(response.json.data).toMatchObject({
      name: 'Loading bay',
      kind: 'work',
      floor_id: floor.id,
      coordinates: ring,
    });
  });

  it('accepts a zone drawn up to the floor edge', async () => {
    const response = await post(`/api/floors/${floor.id}/zones`, {
      name: 'Whole floor',
      kind: 'restricted',
      coordinates: square(0, 0, 1, 1),
    });
    expect(response.statusCode).toBe(200);
  });

  it('refuses invalid polygons with 422', async () => {
    const cases: [unknown, string][] = [
      [[at(0.1, 0.1), at(0.2, 0.2)], 'A zone needs at least 3 points that are not on one line'],
      [[at(0.1, 0.1), at(0.2, 0.2), at(0.3, 0.3)], 'A zone needs at least 3 points that are not on one line'],
      [[at(0.1, 0.1), at(0.3, 0.3), at(0.3, 0.1), at(0.1, 0.3)], "A zone's edges must not cross each other"],
      [[at(0.1, 0.1), at(1.2, 0.1), at(0.5, 0.5)], 'Every point of a zone must be inside the floor'],
    ];
    for (const [coordinates, message] of cases) {
      const response = await post(`/api/floors/${floor.id}/zones`, {
        name: 'Bad',
        kind: 'work',
        coordinates,
      });
      expect(response.statusCode).toBe(422);
      expect(response.json.errors).toEqual({ coordinates: message });
    }
    const badKind = await post(`/api/floors/${floor.id}/zones`, {
      name: 'K',
      kind: 'party',
      coordinates: square(0.1, 0.1, 0.2, 0.2),
    });
    expect(badKind.statusCode).toBe(422);
    expect(Object.keys(badKind.json.errors ?? {})).toEqual(['kind']);
    const badPoint = await post(`/api/floors/${floor.id}/zones`, {
      name: 'P',
      kind: 'work',
      coordinates: [
        [200, 25],
        [55, 25],
        [55, 26],
      ],
    });
    expect(badPoint.statusCode).toBe(422);
    const blank = await post(`/api/floors/${floor.id}/zones`, {
      name: '  ',
      kind: 'work',
      coordinates: square(0.1, 0.1, 0.2, 0.2),
    });
    expect(blank.json.errors).toEqual({ name: 'Name is required' });
    const missing = await post(`/api/floors/${floor.id}/zones`, {});
    expect(missing.statusCode).toBe(422);
  });

  it('answers 409 to a duplicate name on the same floor, in any case, but not on another floor', async () => {
    const response = await post(`/api/floors/${floor.id}/zones`, {
      name: 'FIT-OUT AREA',
      kind: 'work',
      coordinates: square(0.1, 0.1, 0.2, 0.2),
    });
    expect(response.statusCode).toBe(409);
    expect(response.json.message).toBe('Zone name already exists!');
    const elsewhere = await post(`/api/floors/${otherDemoFloorId}/zones`, {
      name: 'Loading bay',
      kind: 'work',
      coordinates: square(0.1, 0.1, 0.2, 0.2),
    });
    expect(elsewhere.statusCode).toBe(200);
  });

  it('edits a zone: rename alone, reshape, and refuses a taken name or a bad ring', async () => {
    const created = (
      await post(`/api/floors/${floor.id}/zones`, {
        name: 'Temp',
        kind: 'work',
        coordinates: square(0.6, 0.1, 0.7, 0.2),
      })
    ).json.data as Zone;
    const url = `/api/floors/${floor.id}/zones/${created.id}`;
    const renamed = await post(url, { name: 'Scaffold store' });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json.data).toMatchObject({
      name: 'Scaffold store',
      kind: 'work',
      coordinates: created.coordinates,
    });
    const reshaped = await post(url, { kind: 'restricted', coordinates: square(0.6, 0.1, 0.8, 0.3) });
    expect(reshaped.json.data).toMatchObject({
      name: 'Scaffold store',
      kind: 'restricted',
      coordinates: square(0.6, 0.1, 0.8, 0.3),
    });
    expect((await post(url, { name: 'scaffold STORE' })).statusCode).toBe(200);
    expect((await post(url, { name: 'stair core' })).statusCode).toBe(409);
    expect(
      (await post(url, { coordinates: [at(0.1, 0.1), at(0.3, 0.3), at(0.3, 0.1), at(0.1, 0.3)] })).statusCode,
    ).toBe(422);
    expect((await post(url, { name: 'X' }, tokens['group-of-sites-viewer'])).statusCode).toBe(403);
    // The zone id must belong to the floor in the path.
    expect(
      (await post(`/api/floors/${otherDemoFloorId}/zones/${created.id}`, { name: 'Y' })).statusCode,
    ).toBe(404);
  });

  it('deletes a zone of the floor in the path only', async () => {
    const created = (
      await post(`/api/floors/${floor.id}/zones`, {
        name: 'Short lived',
        kind: 'work',
        coordinates: square(0.4, 0.6, 0.5, 0.7),
      })
    ).json.data as Zone;
    const url = `/api/floors/${floor.id}/zones/${created.id}`;
    expect((await t.call(tokens['group-of-sites-viewer'], { method: 'DELETE', url })).statusCode).toBe(403);
    expect(
      (
        await t.call(admin(), {
          method: 'DELETE',
          url: `/api/floors/${otherDemoFloorId}/zones/${created.id}`,
        })
      ).statusCode,
    ).toBe(404);
    const response = await t.call(admin(), { method: 'DELETE', url });
    expect(response.statusCode).toBe(200);
    expect(response.json).toEqual({ status: 'success', message: 'Zone is deleted successfully' });
    expect((await t.call(admin(), { method: 'DELETE', url })).statusCode).toBe(404);
  });

  it('answers 404 for another client floor and 403 for a Site Viewer write', async () => {
    const body = {
      name: 'Intruder',
      kind: 'work',
      coordinates: [
        [-0.099, 51.499],
        [-0.095, 51.499],
        [-0.095, 51.495],
      ],
    };
    expect((await post(`/api/floors/${otherFloorId}/zones`, body)).statusCode).toBe(404);
    const viewer = await post(
      `/api/floors/${floor.id}/zones`,
      { ...body, coordinates: square(0.1, 0.1, 0.2, 0.2) },
      tokens['group-of-sites-viewer'],
    );
    expect(viewer.statusCode).toBe(403);
  });
});
