import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensurePositionPartitions } from '../../server/analytics/positionPartitions';
import {
  anchorApprovals,
  buildings,
  floors,
  inventoryItems,
  nodeDiagnostics,
  planningAnchors,
  walls,
} from '../../server/db/schema';
import type { Role } from '../../src/domain/roles';
import type {
  MeasuredLink,
  PlanningAnchor,
  RadioSettings,
  Simulation,
  Suggestion,
  UnapprovedAnchor,
  Wall,
} from '../../src/domain/schemas/installation';
import type { InventoryItemReply } from '../../src/domain/schemas/inventory';
import type { NodeNeighbor } from '../../src/domain/schemas/nodes';
import { startDemoSiteSuite } from './helpers/demoSiteSuite';
import type { OtherTenant } from './helpers/otherTenant';
import type { TestApp } from './helpers/testApp';

/**
 * Installation planning and anchor approval (issue 19) on a floor of its own in the demo site:
 * walls, planning anchors, the coverage simulation and suggestions, measured links, the site's
 * radio settings, and approving installed anchors on evidence or with a recorded reason.
 */

let t: TestApp;
let other: OtherTenant;
let siteId: number;
let tokens: Record<Role, string>;
let floorId: number;
let otherWallId: number;
let otherAnchorId: number;

/** A 30 m × 33 m floor: 0.0003° of longitude at 25.2° N is ~30.2 m, 0.0003° of latitude ~33.4 m. */
const A = { lat: 25.25, long: 55.25 };
const SPAN = 0.0003;
/** The point at fractions (x along a→b eastwards, y along a→d southwards) of the floor. */
const at = (x: number, y: number) => ({ lat: A.lat - y * SPAN, long: A.long + x * SPAN });
const ll = (x: number, y: number): [number, number] => {
  const p = at(x, y);
  return [p.long, p.lat];
};

const post = (url: string, payload: unknown, as: Role = 'site-engineer') =>
  t.call(tokens[as], { method: 'POST', url: `/api${url}`, payload: payload as object });
const get = (url: string, as: Role = 'site-engineer') =>
  t.call(tokens[as], { method: 'GET', url: `/api${url}` });
const put = (url: string, payload: unknown, as: Role = 'site-engineer') =>
  t.call(tokens[as], { method: 'PUT', url: `/api${url}`, payload: payload as object });

async function addAnchorItem(tag: string, extra: Partial<typeof inventoryItems.$inferInsert> = {}) {
  const [row] = await t.db
    .insert(inventoryItems)
    .values({ siteId, wntInventoryId: tag, type: 'anchor', floorId, ...extra })
    .returning();
  return row;
}

async function report(
  item: { id: number; wntInventoryId: string },
  where: { lat: number; long: number },
  more: { linkQuality?: number; neighbors?: NodeNeighbor[]; ms?: number } = {},
) {
  const ms = more.ms ?? Date.now() - 10_000;
  await ensurePositionPartitions(t.db, [ms], 'node_diagnostics');
  await t.db.insert(nodeDiagnostics).values({
    siteId,
    inventoryItemId: item.id,
    floorId,
    networkId: null,
    nodeId: item.wntInventoryId,
    type: 'anchor',
    bufferUsage: 10,
    linkQuality: more.linkQuality ?? 80,
    batteryVoltage: 3.6,
    displacementError: null,
    lat: where.lat,
    long: where.long,
    neighbors: more.neighbors ?? [],
    ts: new Date(ms),
  });
  await t.db
    .update(inventoryItems)
    .set({ lastSeen: new Date(ms) })
    .where(eq(inventoryItems.id, item.id));
}

beforeAll(async () => {
  ({ t, other, siteId, tokens } = await startDemoSiteSuite([
    'super-admin',
    'group-of-sites-admin',
    'group-of-sites-viewer',
    'crew-manager',
    'site-engineer',
    'safety-demo',
  ]));
  const [building] = await t.db.insert(buildings).values({ siteId, name: 'Planning block' }).returning();
  const [floor] = await t.db
    .insert(floors)
    .values({
      buildingId: building.id,
      name: 'Planning floor',
      altitude: 0,
      aLat: A.lat,
      aLong: A.long,
      bLat: A.lat,
      bLong: A.long + SPAN,
      cLat: A.lat - SPAN,
      cLong: A.long + SPAN,
      dLat: A.lat - SPAN,
      dLong: A.long,
    })
    .returning();
  floorId = floor.id;
  const [foreignWall] = await t.db
    .insert(walls)
    .values({
      floorId: other.floorId,
      name: 'Depot wall',
      material: 'brick',
      points: [
        [-0.099, 51.499],
        [-0.098, 51.499],
      ],
    })
    .returning();
  otherWallId = foreignWall.id;
  const [foreignAnchor] = await t.db
    .insert(planningAnchors)
    .values({ floorId: other.floorId, anchorId: 'Depot P-1', lat: 51.499, long: -0.099 })
    .returning();
  otherAnchorId = foreignAnchor.id;
});
afterAll(() => t.close());

describe('walls', () => {
  it('adds, lists by name (with search), edits and deletes a wall with its material attenuation', async () => {
    const added = await post('/installation/wall/add', {
      floor_id: floorId,
      name: 'Core wall',
      material: 'concrete',
      points: [ll(0.5, 0), ll(0.5, 0.4), ll(0.6, 0.4)],
    });
    expect(added.statusCode, added.body).toBe(200);
    expect(added.json.message).toBe('Wall is created successfully');
    const wall = added.json.data as Wall;
    expect(wall).toMatchObject({
      floor_id: floorId,
      name: 'Core wall',
      material: 'concrete',
      attenuation_db: 12,
    });
    expect(wall.points).toEqual([ll(0.5, 0), ll(0.5, 0.4), ll(0.6, 0.4)]);
    await post('/installation/wall/add', {
      floor_id: floorId,
      name: 'Atrium glass',
      material: 'glass',
      points: [ll(0.1, 0.8), ll(0.4, 0.8)],
    });

    const listed = (await post('/installation/wall/getAll', { floor_id: floorId })).json.data as Wall[];
    expect(listed.map((w) => w.name)).toEqual(['Atrium glass', 'Core wall']);
    const found = (await post('/installation/wall/getAll', { floor_id: floorId, search: 'CORE' })).json
      .data as Wall[];
    expect(found.map((w) => w.name)).toEqual(['Core wall']);

    const moved = await post('/installation/wall/edit', { id: wall.id, points: [ll(0.5, 0), ll(0.5, 0.5)] });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json.message).toBe('Wall is updated successfully');
    expect(moved.json.data).toMatchObject({
      name: 'Core wall',
      material: 'concrete',
      points: [ll(0.5, 0), ll(0.5, 0.5)],
    });
    const renamed = await post('/installation/wall/edit', {
      id: wall.id,
      name: 'Shaft wall',
      material: 'metal',
    });
    expect(renamed.json.data).toMatchObject({ name: 'Shaft wall', material: 'metal', attenuation_db: 26 });

    const scratch = (
      await post('/installation/wall/add', {
        floor_id: floorId,
        name: 'Temporary',
        material: 'drywall',
        points: [ll(0.2, 0.2), ll(0.3, 0.2)],
      })
    ).json.data as Wall;
    const deleted = await post('/installation/wall/delete', { id: scratch.id });
    expect(deleted.statusCode).toBe(200);
    expect(deleted.json).toMatchObject({ message: 'Wall is deleted successfully', data: { id: scratch.id } });
    expect(await t.db.select().from(walls).where(eq(walls.id, scratch.id))).toEqual([]);
    expect((await post('/installation/wall/delete', { id: scratch.id })).statusCode).toBe(404);
  });

  it('refuses a duplicate name, a blank name, points outside the floor or repeated, and bad bodies', async () => {
    const body = {
      floor_id: floorId,
      name: 'Stair wall',
      material: 'brick',
      points: [ll(0.1, 0.1), ll(0.2, 0.1)],
    };
    expect((await post('/installation/wall/add', body)).statusCode).toBe(200);
    const duplicate = await post('/installation/wall/add', { ...body, name: 'STAIR WALL' });
    expect(duplicate.statusCode).toBe(409);
    expect(duplicate.json.message).toBe('Wall name already exists!');

    const blank = await post('/installation/wall/add', { ...body, name: '   ' });
    expect(blank.statusCode).toBe(422);
    expect(blank.json.errors).toEqual({ name: 'Name is required' });

    const outside = await post('/installation/wall/add', {
      ...body,
      name: 'Out',
      points: [ll(0.1, 0.1), ll(1.2, 0.1)],
    });
    expect(outside.statusCode).toBe(422);
    expect(outside.json.errors).toEqual({ points: 'Every point of a wall must be inside the floor' });

    const repeated = await post('/installation/wall/add', {
      ...body,
      name: 'Twice',
      points: [ll(0.1, 0.1), ll(0.1, 0.1), ll(0.2, 0.2)],
    });
    expect(repeated.json.errors).toEqual({
      points: 'Two consecutive points of a wall must not be the same point',
    });

    const onePoint = await post('/installation/wall/add', { ...body, name: 'Dot', points: [ll(0.1, 0.1)] });
    expect(onePoint.statusCode).toBe(422);
    expect(Object.keys(onePoint.json.errors ?? {})).toEqual(['points']);
    const material = await post('/installation/wall/add', { ...body, name: 'Cheese', material: 'cheese' });
    expect(material.statusCode).toBe(422);
    expect(Object.keys(material.json.errors ?? {})).toEqual(['material']);
    const missing = await post('/installation/wall/add', {
      floor_id: floorId,
      material: 'brick',
      points: body.points,
    });
    expect(missing.json.errors).toEqual({ name: 'Name is required' });
    const tooMany = await post('/installation/wall/add', {
      ...body,
      name: 'Long',
      points: Array.from({ length: 201 }, (_, i) => ll(0.001 * i, 0.5)),
    });
    expect(tooMany.statusCode).toBe(422);

    const [first] = (await post('/installation/wall/getAll', { floor_id: floorId, search: 'Stair' })).json
      .data as Wall[];
    const clash = await post('/installation/wall/edit', { id: first.id, name: 'atrium GLASS' });
    expect(clash.statusCode).toBe(409);
    const movedOut = await post('/installation/wall/edit', {
      id: first.id,
      points: [ll(-0.1, 0), ll(0.2, 0)],
    });
    expect(movedOut.json.errors).toEqual({ points: 'Every point of a wall must be inside the floor' });
  });

  it("answers 404 for another client's floor or wall and 403 to roles without installation", async () => {
    const points = [ll(0.1, 0.3), ll(0.2, 0.3)];
    expect((await post('/installation/wall/getAll', { floor_id: other.floorId })).statusCode).toBe(404);
    expect(
      (
        await post('/installation/wall/add', {
          floor_id: other.floorId,
          name: 'X',
          material: 'brick',
          points,
        })
      ).statusCode,
    ).toBe(404);
    expect((await post('/installation/wall/edit', { id: otherWallId, name: 'Mine now' })).statusCode).toBe(
      404,
    );
    expect((await post('/installation/wall/delete', { id: otherWallId })).statusCode).toBe(404);
    expect(await t.db.select().from(walls).where(eq(walls.id, otherWallId))).toHaveLength(1);
    expect(
      (await post('/installation/wall/getAll', { floor_id: other.floorId }, 'super-admin')).statusCode,
    ).toBe(200);

    for (const role of ['group-of-sites-viewer', 'crew-manager', 'safety-demo'] as const) {
      expect((await post('/installation/wall/getAll', { floor_id: floorId }, role)).statusCode, role).toBe(
        403,
      );
      expect(
        (
          await post(
            '/installation/wall/add',
            { floor_id: floorId, name: 'X', material: 'brick', points },
            role,
          )
        ).statusCode,
        role,
      ).toBe(403);
    }
    expect(
      (
        await post(
          '/installation/wall/add',
          { floor_id: floorId, name: 'Admin wall', material: 'brick', points },
          'group-of-sites-admin',
        )
      ).statusCode,
    ).toBe(200);
  });
});

describe('planning anchors', () => {
  it('adds, lists by anchor_id, moves, renames and deletes, refusing duplicates and points outside', async () => {
    const add = (anchorId: string, x: number, y: number) =>
      post('/installation/anchor/add', { floor_id: floorId, anchor_id: anchorId, metadata: at(x, y) });
    const p2 = await add('P-02', 0.9, 0.1);
    expect(p2.statusCode, p2.body).toBe(200);
    expect(p2.json.data).toMatchObject({ floor_id: floorId, anchor_id: 'P-02', metadata: at(0.9, 0.1) });
    expect((await add('P-01', 0.1, 0.1)).statusCode).toBe(200);
    const duplicate = await add('p-01', 0.5, 0.5);
    expect(duplicate.statusCode).toBe(409);
    expect(duplicate.json.message).toBe('Anchor name already exists!');
    const outside = await add('P-09', 1.5, 0.5);
    expect(outside.json.errors).toEqual({ metadata: 'The anchor must be placed inside the floor' });
    const blank = await add(' ', 0.5, 0.5);
    expect(blank.json.errors).toEqual({ anchor_id: 'Anchor ID is required' });
    const noMetadata = await post('/installation/anchor/add', {
      floor_id: floorId,
      anchor_id: 'P-10',
      metadata: { lat: 25.2 },
    });
    expect(noMetadata.statusCode).toBe(422);

    const listed = (await post('/installation/anchor/getAll', { floor_id: floorId })).json
      .data as PlanningAnchor[];
    expect(listed.map((a) => a.anchor_id)).toEqual(['P-01', 'P-02']);

    const id = (p2.json.data as PlanningAnchor).id;
    const moved = await post('/installation/anchor/edit', { id, metadata: at(0.9, 0.15) });
    expect(moved.json).toMatchObject({
      message: 'Planning anchor is updated successfully',
      data: { anchor_id: 'P-02', metadata: at(0.9, 0.15) },
    });
    expect((await post('/installation/anchor/edit', { id, anchor_id: 'P-01' })).statusCode).toBe(409);
    const temporary = (await add('P-99', 0.5, 0.5)).json.data as PlanningAnchor;
    const deleted = await post('/installation/anchor/delete', { id: temporary.id });
    expect(deleted.json).toMatchObject({
      message: 'Planning anchor is deleted successfully',
      data: { id: temporary.id },
    });

    for (const call of [
      post('/installation/anchor/getAll', { floor_id: other.floorId }),
      post('/installation/anchor/add', {
        floor_id: other.floorId,
        anchor_id: 'X',
        metadata: { lat: 51.495, long: -0.095 },
      }),
      post('/installation/anchor/edit', { id: otherAnchorId, anchor_id: 'Mine' }),
      post('/installation/anchor/delete', { id: otherAnchorId }),
    ])
      expect((await call).statusCode).toBe(404);
    expect(
      (await post('/installation/anchor/getAll', { floor_id: floorId }, 'crew-manager')).statusCode,
    ).toBe(403);
    expect(
      (
        await post(
          '/installation/anchor/add',
          { floor_id: floorId, anchor_id: 'V', metadata: at(0.5, 0.5) },
          'group-of-sites-viewer',
        )
      ).statusCode,
    ).toBe(403);
  });
});

describe('radio settings', () => {
  it('answers the defaults, refuses values out of range in words, stores a change and uses it', async () => {
    const defaults = await get(`/sites/${siteId}/radio-settings`, 'group-of-sites-admin');
    expect(defaults.statusCode).toBe(200);
    const settings = defaults.json.data as RadioSettings;
    expect(settings.approval).toEqual({ tolerance_m: 0.5, min_link_quality: 50 });
    expect(settings.model).toMatchObject({ frequencyMHz: 2440, wallAttenuationDb: { concrete: 12 } });

    const bad = await put(`/sites/${siteId}/radio-settings`, {
      approval: { tolerance_m: 0, min_link_quality: 120 },
      model: { ...settings.model, frequencyMHz: 5 },
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.json.errors).toEqual({
      'model.frequencyMHz': 'Frequency must be a number from 300 to 100000 MHz',
      'approval.tolerance_m': 'The tolerance must be from 0.05 to 10 metres',
      'approval.min_link_quality': 'The minimum link quality must be from 0 to 100',
    });

    const saved = await put(`/sites/${siteId}/radio-settings`, {
      model: { ...settings.model, wallAttenuationDb: { ...settings.model.wallAttenuationDb, brick: 10 } },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json.message).toBe('Radio settings saved');
    const again = (await get(`/sites/${siteId}/radio-settings`)).json.data as RadioSettings;
    expect(again.model.wallAttenuationDb.brick).toBe(10);
    expect(again.approval).toEqual(settings.approval);
    const brickWalls = (await post('/installation/wall/getAll', { floor_id: floorId, search: 'Stair' })).json
      .data as Wall[];
    expect(brickWalls[0].attenuation_db).toBe(10);

    expect((await get(`/sites/${other.siteId}/radio-settings`)).statusCode).toBe(404);
    expect(
      (await put(`/sites/${other.siteId}/radio-settings`, { approval: settings.approval })).statusCode,
    ).toBe(404);
    expect((await get(`/sites/${siteId}/radio-settings`, 'group-of-sites-viewer')).statusCode).toBe(403);
    expect(
      (await put(`/sites/${siteId}/radio-settings`, { approval: settings.approval }, 'crew-manager'))
        .statusCode,
    ).toBe(403);
  });
});

describe('coverage', () => {
  it('simulates the floor: a grid of cells, the planned anchors, what-if anchors raising coverage', async () => {
    const response = await post('/installation/anchor/simulate', { floor_id: floorId, cell_size_m: 2 });
    expect(response.statusCode, response.body).toBe(200);
    const grid = response.json.data as Simulation;
    expect(grid.columns).toBe(Math.ceil(grid.width_m / 2));
    expect(grid.rows).toBe(Math.ceil(grid.height_m / 2));
    expect(grid.width_m).toBeCloseTo(30.2, 0);
    expect(grid.height_m).toBeCloseTo(33.4, 0);
    expect(grid.heard).toHaveLength(grid.columns * grid.rows);
    expect(grid.dop).toHaveLength(grid.columns * grid.rows);
    expect(grid.anchors.map((a) => a.kind)).toEqual(['planned', 'planned']);
    // Two anchors: heard, but never enough to position.
    expect(Math.max(...grid.heard)).toBe(2);
    expect(grid.covered_percent).toBe(0);
    expect(grid.positioned.every((p) => p === 0)).toBe(true);

    const withExtra = (
      await post('/installation/anchor/simulate', {
        floor_id: floorId,
        cell_size_m: 2,
        extra_anchors: [at(0.1, 0.9), at(0.9, 0.9), at(0.5, 0.5)],
      })
    ).json.data as Simulation;
    expect(withExtra.anchors.filter((a) => a.kind === 'extra').map((a) => a.key)).toEqual([
      'extra:0',
      'extra:1',
      'extra:2',
    ]);
    expect(withExtra.covered_percent).toBeGreaterThan(0);
    for (let i = 0; i < grid.heard.length; i++)
      expect(withExtra.heard[i]).toBeGreaterThanOrEqual(grid.heard[i]);
  });

  it("lowers the cells behind a wall by its material's attenuation", async () => {
    const floorWithWall = async (material: string | null) => {
      const [building] = await t.db
        .insert(buildings)
        .values({ siteId, name: `Wall test ${material}` })
        .returning();
      const [floor] = await t.db
        .insert(floors)
        .values({
          buildingId: building.id,
          name: 'Wall test floor',
          altitude: 0,
          aLat: A.lat,
          aLong: A.long,
          bLat: A.lat,
          bLong: A.long + SPAN,
          cLat: A.lat - SPAN,
          cLong: A.long + SPAN,
          dLat: A.lat - SPAN,
          dLong: A.long,
        })
        .returning();
      await post('/installation/anchor/add', {
        floor_id: floor.id,
        anchor_id: 'W-1',
        metadata: at(0.25, 0.5),
      });
      if (material)
        await post('/installation/wall/add', {
          floor_id: floor.id,
          name: 'Divider',
          material,
          points: [ll(0.5, 0), ll(0.5, 1)],
        });
      return (await post('/installation/anchor/simulate', { floor_id: floor.id, cell_size_m: 3 })).json
        .data as Simulation;
    };
    const open = await floorWithWall(null);
    const walled = await floorWithWall('concrete');
    const row = Math.floor(open.rows / 2);
    const cell = (grid: Simulation, x: number) => grid.best_rssi_dbm[row * grid.columns + x];
    // The anchor's side (x < 15 m) is unchanged; beyond the wall 12 dB lower (where still heard).
    expect(cell(walled, 1)).toBe(cell(open, 1));
    const far = open.columns - 2;
    expect(cell(open, far)).not.toBeNull();
    if (cell(walled, far) !== null)
      expect((cell(open, far) ?? 0) - (cell(walled, far) ?? 0)).toBeCloseTo(12, 0);
  });

  it('refuses a cell size that would make too many cells, or out of range, in words', async () => {
    const [building] = await t.db.insert(buildings).values({ siteId, name: 'Warehouse' }).returning();
    const [huge] = await t.db
      .insert(floors)
      .values({
        buildingId: building.id,
        name: 'Warehouse floor',
        altitude: 0,
        aLat: 25.3,
        aLong: 55.3,
        bLat: 25.3,
        bLong: 55.31,
        cLat: 25.29,
        cLong: 55.31,
        dLat: 25.29,
        dLong: 55.3,
      })
      .returning();
    const tooFine = await post('/installation/anchor/simulate', { floor_id: huge.id, cell_size_m: 0.5 });
    expect(tooFine.statusCode).toBe(422);
    expect(tooFine.json.errors).toEqual({
      cell_size_m: 'The cell size is too small for this floor: a simulation holds at most 250,000 cells',
    });
    const tiny = await post('/installation/anchor/simulate', { floor_id: floorId, cell_size_m: 0.1 });
    expect(tiny.statusCode).toBe(422);
    expect(Object.keys(tiny.json.errors ?? {})).toEqual(['cell_size_m']);
    const tooManyExtras = await post('/installation/anchor/simulate', {
      floor_id: floorId,
      extra_anchors: Array.from({ length: 51 }, () => at(0.5, 0.5)),
    });
    expect(tooManyExtras.statusCode).toBe(422);
    const suggestFine = await post('/installation/anchor/suggest', {
      floor_id: huge.id,
      count: 2,
      cell_size_m: 1,
    });
    expect(suggestFine.json.errors).toEqual({
      cell_size_m: 'The cell size is too small to suggest placements on this floor: at most 10,000 cells',
    });
    expect((await post('/installation/anchor/suggest', { floor_id: floorId, count: 21 })).statusCode).toBe(
      422,
    );
    expect((await post('/installation/anchor/simulate', { floor_id: other.floorId })).statusCode).toBe(404);
    expect(
      (await post('/installation/anchor/suggest', { floor_id: other.floorId, count: 1 })).statusCode,
    ).toBe(404);
    expect((await post('/installation/node/measured', { floor_id: other.floorId })).statusCode).toBe(404);
    expect(
      (await post('/installation/anchor/simulate', { floor_id: floorId }, 'safety-demo')).statusCode,
    ).toBe(403);
  });

  it('suggests places inside the floor, each raising coverage as they are accepted in turn', async () => {
    const response = await post('/installation/anchor/suggest', {
      floor_id: floorId,
      count: 3,
      cell_size_m: 2,
    });
    expect(response.statusCode, response.body).toBe(200);
    const suggestions = response.json.data as Suggestion[];
    expect(suggestions).toHaveLength(3);
    for (const s of suggestions) {
      expect(s.lat).toBeLessThanOrEqual(A.lat);
      expect(s.lat).toBeGreaterThanOrEqual(A.lat - SPAN);
      expect(s.long).toBeGreaterThanOrEqual(A.long);
      expect(s.long).toBeLessThanOrEqual(A.long + SPAN);
    }
    const after = suggestions.map((s) => s.covered_percent_after);
    expect(after).toEqual([...after].sort((x, y) => x - y));
    const accepted = (
      await post('/installation/anchor/simulate', {
        floor_id: floorId,
        cell_size_m: 2,
        extra_anchors: suggestions.map(({ lat, long }) => ({ lat, long })),
      })
    ).json.data as Simulation;
    expect(accepted.covered_percent).toBeCloseTo(after[2], 1);
  });

  it('compares the links the nodes measured with the prediction, walls crossed counted', async () => {
    const left = await addAnchorItem('MEAS-L', {
      lat: at(0.2, 0.3).lat,
      long: at(0.2, 0.3).long,
      isApproved: true,
    });
    const right = await addAnchorItem('MEAS-R', {
      lat: at(0.8, 0.3).lat,
      long: at(0.8, 0.3).long,
      isApproved: true,
    });
    await report(left, at(0.2, 0.3), { neighbors: [{ nodeId: 'MEAS-R', linkQuality: 60, rssi: -70 }] });
    await report(right, at(0.8, 0.3), {
      neighbors: [
        { nodeId: 'MEAS-L', linkQuality: 55 },
        { nodeId: 'NOT-HERE', linkQuality: 90 },
      ],
    });
    const response = await post('/installation/node/measured', { floor_id: floorId });
    expect(response.statusCode, response.body).toBe(200);
    const links = (response.json.data as MeasuredLink[]).filter((l) =>
      [left.id, right.id].includes(l.from_node_id),
    );
    expect(links).toHaveLength(2);
    const [fromLeft, fromRight] = links;
    expect(fromLeft).toMatchObject({
      from_node_id: left.id,
      to_node_id: right.id,
      measured_rssi_dbm: -70,
      measured_link_quality: 60,
    });
    expect(fromLeft.distance_m).toBeCloseTo(0.6 * 30.2, 0);
    // The shaft wall (metal, x = 0.5 from y 0 to 0.5) stands between them.
    expect(fromLeft.walls_crossed).toBe(1);
    expect(fromLeft.difference_db).toBeCloseTo(-70 - fromLeft.predicted_rssi_dbm, 1);
    expect(fromRight).toMatchObject({
      from_node_id: right.id,
      to_node_id: left.id,
      measured_rssi_dbm: null,
      difference_db: null,
    });
    expect(fromRight.predicted_rssi_dbm).toBe(fromLeft.predicted_rssi_dbm);
    await t.db
      .update(inventoryItems)
      .set({ floorId: null, isApproved: false, lat: null, long: null })
      .where(eq(inventoryItems.wntInventoryId, 'MEAS-L'));
    await t.db
      .update(inventoryItems)
      .set({ floorId: null, isApproved: false, lat: null, long: null })
      .where(eq(inventoryItems.wntInventoryId, 'MEAS-R'));
  });
});

describe('anchor approval', () => {
  let p1: PlanningAnchor;
  let p2: PlanningAnchor;

  beforeAll(async () => {
    const anchors = (await post('/installation/anchor/getAll', { floor_id: floorId })).json
      .data as PlanningAnchor[];
    [p1, p2] = anchors;
  });

  const unapproved = async () =>
    (await get(`/sites/${siteId}/anchors/unapproved?floor_id=${floorId}`)).json.data as UnapprovedAnchor[];

  it('lists reporting unapproved anchors with the nearest planning anchor, approves one from it and counts it once', async () => {
    const near = await addAnchorItem('ANC-NEAR');
    // 0.2 m east of P-01.
    await report(near, { lat: p1.metadata.lat, long: p1.metadata.long + 0.000002 }, { linkQuality: 72 });
    await addAnchorItem('ANC-SILENT');

    const listed = await unapproved();
    const entry = listed.find((a) => a.wnt_inventory_id === 'ANC-NEAR');
    expect(entry).toMatchObject({
      inventory_id: near.id,
      floor_id: floorId,
      link_quality: 72,
      planning_anchor: { id: p1.id, anchor_id: 'P-01' },
    });
    expect(entry?.planning_anchor?.distance_m).toBeCloseTo(0.2, 1);
    expect(listed.map((a) => a.wnt_inventory_id)).not.toContain('ANC-SILENT');

    const approved = await post('/installation/anchor/approve', {
      inventory_id: near.id,
      floor_id: floorId,
      planning_anchor_id: p1.id,
    });
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json.message).toBe('Anchor is approved');
    expect(approved.json.data).toMatchObject({
      is_approved: true,
      floor_id: floorId,
      coordinates: p1.metadata,
    });
    expect((await unapproved()).map((a) => a.wnt_inventory_id)).not.toContain('ANC-NEAR');
    const [audit] = await t.db
      .select()
      .from(anchorApprovals)
      .where(eq(anchorApprovals.inventoryItemId, near.id));
    expect(audit).toMatchObject({
      action: 'approve',
      planningAnchorId: p1.id,
      linkQuality: 72,
      overrideReason: null,
    });
    expect(audit.distanceM).toBeCloseTo(0.2, 1);

    const grid = (await post('/installation/anchor/simulate', { floor_id: floorId, cell_size_m: 2 })).json
      .data as Simulation;
    expect(grid.anchors.map((a) => a.key)).toEqual([`planned:${p2.id}`, `installed:${near.id}`]);

    const undone = await post('/installation/anchor/unapprove', { inventory_id: near.id });
    expect(undone.statusCode).toBe(200);
    expect(undone.json).toMatchObject({
      message: 'Anchor is unapproved',
      data: { is_approved: false, coordinates: null, floor_id: floorId },
    });
    expect((await unapproved()).map((a) => a.wnt_inventory_id)).toContain('ANC-NEAR');
    const actions = await t.db
      .select({ action: anchorApprovals.action })
      .from(anchorApprovals)
      .where(eq(anchorApprovals.inventoryItemId, near.id));
    expect(actions.map((a) => a.action)).toEqual(['approve', 'unapprove']);
  });

  it('refuses an approval whose evidence fails, naming each check, and takes it with a recorded reason', async () => {
    const far = await addAnchorItem('ANC-FAR');
    // 1.2 m south of P-02, with a weak link.
    await report(far, { lat: p2.metadata.lat - 1.2 / 111_195, long: p2.metadata.long }, { linkQuality: 22 });
    const body = { inventory_id: far.id, floor_id: floorId, planning_anchor_id: p2.id };
    const refused = await post('/installation/anchor/approve', body);
    expect(refused.statusCode).toBe(422);
    expect(refused.json.errors).toEqual({
      position: 'ANC-FAR is 1.2 m from P-02; the tolerance is 0.5 m',
      link_quality: "Link quality 22 is below the site's 50",
      override_reason: 'An override reason is required when a check fails',
    });
    expect(refused.json.message).toBe('ANC-FAR is 1.2 m from P-02; the tolerance is 0.5 m');
    const [item] = await t.db.select().from(inventoryItems).where(eq(inventoryItems.id, far.id));
    expect(item.isApproved).toBe(false);
    expect((await post('/installation/anchor/approve', { ...body, override_reason: '   ' })).statusCode).toBe(
      422,
    );
    expect(
      (await post('/installation/anchor/approve', { ...body, override_reason: 'x'.repeat(501) })).statusCode,
    ).toBe(422);

    const overridden = await post('/installation/anchor/approve', {
      ...body,
      override_reason: 'Mounted on the column beside P-02; surveyed by hand',
    });
    expect(overridden.statusCode, overridden.body).toBe(200);
    const [audit] = await t.db
      .select()
      .from(anchorApprovals)
      .where(eq(anchorApprovals.inventoryItemId, far.id));
    expect(audit.overrideReason).toBe('Mounted on the column beside P-02; surveyed by hand');
    expect(audit.distanceM).toBeCloseTo(1.2, 1);
  });

  it('needs coordinates, refuses points outside, sinks, a foreign planning anchor, and checks a stale link', async () => {
    const quiet = await addAnchorItem('ANC-QUIET');
    await report(quiet, at(0.5, 0.7), { ms: Date.now() - 3_600_000 });
    const none = await post('/installation/anchor/approve', { inventory_id: quiet.id, floor_id: floorId });
    expect(none.statusCode).toBe(422);
    expect(none.json.errors).toEqual({ coordinates: 'Coordinates are required' });
    const half = await post('/installation/anchor/approve', {
      inventory_id: quiet.id,
      floor_id: floorId,
      lat: 25.25,
    });
    expect(half.json.errors).toEqual({ long: 'Latitude and longitude go together' });
    const outside = await post('/installation/anchor/approve', {
      inventory_id: quiet.id,
      floor_id: floorId,
      ...at(1.5, 0.5),
    });
    expect(outside.json.errors).toEqual({ coordinates: 'The device must be placed inside the floor' });
    const placed = await post('/installation/anchor/approve', {
      inventory_id: quiet.id,
      floor_id: floorId,
      ...at(0.5, 0.7),
    });
    expect(placed.statusCode).toBe(422);
    expect(placed.json.errors).toEqual({
      link_quality: 'ANC-QUIET has reported no link quality in the last 15 minutes',
      override_reason: 'An override reason is required when a check fails',
    });
    const silent = await addAnchorItem('ANC-MUTE');
    const mute = await post('/installation/anchor/approve', {
      inventory_id: silent.id,
      floor_id: floorId,
      ...at(0.5, 0.7),
    });
    expect(mute.json.errors).toMatchObject({ position: 'ANC-MUTE has reported no position' });

    const [sink] = await t.db
      .insert(inventoryItems)
      .values({ siteId, wntInventoryId: 'SNK-PLAN', type: 'sink', floorId })
      .returning();
    const notAnchor = await post('/installation/anchor/approve', {
      inventory_id: sink.id,
      floor_id: floorId,
      ...at(0.5, 0.5),
    });
    expect(notAnchor.json.errors).toEqual({ inventory_id: 'Only an anchor can be approved' });
    expect(
      (
        await post('/installation/anchor/approve', {
          inventory_id: quiet.id,
          floor_id: floorId,
          planning_anchor_id: otherAnchorId,
        })
      ).statusCode,
    ).toBe(404);
  });

  it("hides another client's anchors and floors, and refuses roles without installation", async () => {
    const [foreign] = await t.db
      .insert(inventoryItems)
      .values({ siteId: other.siteId, wntInventoryId: 'DEPOT-ANC-9', type: 'anchor', floorId: other.floorId })
      .returning();
    const [mine] = await t.db
      .select()
      .from(inventoryItems)
      .where(and(eq(inventoryItems.siteId, siteId), eq(inventoryItems.wntInventoryId, 'ANC-NEAR')));
    expect(
      (
        await post('/installation/anchor/approve', {
          inventory_id: foreign.id,
          floor_id: floorId,
          ...at(0.5, 0.5),
        })
      ).statusCode,
    ).toBe(404);
    expect(
      (
        await post('/installation/anchor/approve', {
          inventory_id: mine.id,
          floor_id: other.floorId,
          lat: 51.495,
          long: -0.095,
        })
      ).statusCode,
    ).toBe(404);
    expect((await post('/installation/anchor/unapprove', { inventory_id: foreign.id })).statusCode).toBe(404);
    expect((await get(`/sites/${other.siteId}/anchors/unapproved`)).statusCode).toBe(404);
    expect((await get(`/sites/${siteId}/anchors/unapproved?floor_id=${other.floorId}`)).statusCode).toBe(404);
    for (const role of ['group-of-sites-viewer', 'crew-manager', 'safety-demo'] as const) {
      expect((await get(`/sites/${siteId}/anchors/unapproved`, role)).statusCode, role).toBe(403);
      expect(
        (await post('/installation/anchor/unapprove', { inventory_id: mine.id }, role)).statusCode,
        role,
      ).toBe(403);
      expect(
        (
          await post(
            '/installation/anchor/approve',
            { inventory_id: mine.id, floor_id: floorId, planning_anchor_id: p1.id },
            role,
          )
        ).statusCode,
        role,
      ).toBe(403);
    }
  });

  it('does not let the placement route approve around the evidence', async () => {
    const hand = await addAnchorItem('ANC-HAND');
    await report(hand, at(0.3, 0.6), { linkQuality: 90 });
    const off = await post(`/floors/${floorId}/inventory/${hand.id}`, {
      ...at(0.3, 0.62),
      is_approved: true,
    });
    expect(off.statusCode).toBe(422);
    expect(off.json.errors?.position).toMatch(
      /^ANC-HAND is 0\.6\d? m from where it is placed; the tolerance is 0\.5 m$/,
    );
    const onSpot = await post(`/floors/${floorId}/inventory/${hand.id}`, {
      ...at(0.3, 0.6),
      is_approved: true,
    });
    expect(onSpot.statusCode, onSpot.body).toBe(200);
    expect((onSpot.json.data as InventoryItemReply).is_approved).toBe(true);
    // Moving it while approved is confirming a new place: checked again.
    const moved = await post(`/floors/${floorId}/inventory/${hand.id}`, at(0.3, 0.7));
    expect(moved.statusCode).toBe(422);
    const forced = await post(`/floors/${floorId}/inventory/${hand.id}`, {
      ...at(0.3, 0.7),
      override_reason: 'Moved to the column',
    });
    expect(forced.statusCode).toBe(200);
    const audits = await t.db
      .select()
      .from(anchorApprovals)
      .where(eq(anchorApprovals.inventoryItemId, hand.id));
    expect(audits.map((a) => a.overrideReason)).toEqual([null, 'Moved to the column']);
  });
});
