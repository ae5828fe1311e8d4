import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GridAxes, GridField } from '../../src/domain/gridFields';
import type { Role } from '../../src/domain/roles';
import type { WorkPermit } from '../../src/domain/workPermits';
import { startDemoSiteSuite } from './helpers/demoSiteSuite';
import type { OtherTenant } from './helpers/otherTenant';
import { type DemoPermitFloor, demoPermitFloor } from './helpers/permitFixture';
import type { TestApp } from './helpers/testApp';

/**
 * Grid fields (spec §7 "Work permits and grid"; docs/decisions.md): a floor's structural grid,
 * created and read back, its axes checked against the floor, the installation roles, tenancy, and
 * the permits of the floor named by it.
 */

let t: TestApp;
let other: OtherTenant;
let tokens: Record<Role, string>;
let f: DemoPermitFloor;
let siteId: number;

const AXES: GridAxes = {
  columns: [
    { label: 'A', offset_m: 0 },
    { label: 'B', offset_m: 40 },
    { label: 'C', offset_m: 80 },
  ],
  rows: [
    { label: '1', offset_m: 0 },
    { label: '2', offset_m: 25 },
    { label: '3', offset_m: 50 },
  ],
};
const post = (payload: unknown, role: Role = 'group-of-sites-admin') =>
  t.call(tokens[role], { method: 'POST', url: '/api/gridFields', payload: payload as object });
const get = (id: number, token: string = tokens['group-of-sites-admin']) =>
  t.call(token, { method: 'GET', url: `/api/gridFields/${id}` });

beforeAll(async () => {
  ({ t, other, tokens, siteId } = await startDemoSiteSuite([
    'group-of-sites-admin',
    'site-engineer',
    'group-of-sites-viewer',
    'crew-manager',
  ]));
  f = await demoPermitFloor(t.db, siteId);
}, 180_000);
afterAll(() => t.close());

describe('grid fields', () => {
  it('creates a grid field and reads it back', async () => {
    const created = await post({ floor_id: f.floorId, name: ' Coarse grid ', axes: AXES }, 'site-engineer');
    expect(created.statusCode).toBe(200);
    expect(created.json.message).toBe('Grid field is created successfully');
    const grid = created.json.data as GridField;
    expect(grid).toMatchObject({ floor_id: f.floorId, name: 'Coarse grid', axes: AXES });
    const read = await get(grid.id);
    expect(read.statusCode).toBe(200);
    expect(read.json.data).toEqual(grid);
    const duplicate = await post({ floor_id: f.floorId, name: 'coarse GRID', axes: AXES });
    expect(duplicate.statusCode).toBe(409);
    expect(duplicate.json.message).toBe('Grid field name already exists!');
  });

  it('checks the axes against the floor and the body', async () => {
    const refused = async (axes: unknown) =>
      (await post({ floor_id: f.floorId, name: 'Bad grid', axes })).json;
    expect((await refused({ ...AXES, columns: [] })).errors).toEqual({
      'axes.columns': 'A grid needs at least one column line and one row line',
    });
    expect(
      (
        await refused({
          ...AXES,
          rows: [
            { label: '1', offset_m: 0 },
            { label: '1 ', offset_m: 10 },
          ],
        })
      ).errors,
    ).toEqual({ 'axes.rows': 'Axis labels must be unique' });
    expect(
      (
        await refused({
          ...AXES,
          rows: [
            { label: '1', offset_m: 10 },
            { label: '2', offset_m: 5 },
          ],
        })
      ).errors,
    ).toEqual({ 'axes.rows': 'Axis offsets must increase from one line to the next' });
    expect((await refused({ ...AXES, columns: [{ label: 'A', offset_m: 120 }] })).errors).toEqual({
      'axes.columns': 'Axis offsets must be inside the floor',
    });
    const blank = await post({ floor_id: f.floorId, name: '  ', axes: AXES });
    expect(blank.statusCode).toBe(422);
    expect(blank.json.errors).toEqual({ name: 'Name is required' });
    const missing = await post({ floor_id: f.floorId, name: 'No axes' });
    expect(missing.statusCode).toBe(422);
    expect(missing.json.errors).toMatchObject({ axes: 'Axes is required' });
  });

  it('names each permit of the floor by the first grid field', async () => {
    // The demo's grid (A–I × 1–6 every 10 m) came first; PTW-104's area centres at 52.8 m, 12.5 m.
    const permits = (await t.call(tokens['group-of-sites-admin'], { method: 'GET', url: f.path })).json
      .data as WorkPermit[];
    expect(permits.find((p) => p.number === 'PTW-104')?.grid_ref).toBe('F-2');
  });

  it('lets the installation roles in and no one else', async () => {
    for (const role of ['group-of-sites-viewer', 'crew-manager'] as const) {
      expect((await post({ floor_id: f.floorId, name: `Grid ${role}`, axes: AXES }, role)).statusCode).toBe(
        403,
      );
    }
    const created = await post({ floor_id: f.floorId, name: 'Engineer grid', axes: AXES }, 'site-engineer');
    expect((await get(created.json.data.id, tokens['crew-manager'])).statusCode).toBe(403);
    expect((await get(created.json.data.id, tokens['site-engineer'])).statusCode).toBe(200);
  });

  it("answers 404 for another client's floor and grid field", async () => {
    const onOtherFloor = await post({ floor_id: other.floorId, name: 'Not mine', axes: AXES });
    expect(onOtherFloor.statusCode).toBe(404);
    const otherAdmin = await t.login(other.email('client-admin'));
    const theirs = await t.call(otherAdmin, {
      method: 'POST',
      url: '/api/gridFields',
      payload: { floor_id: other.floorId, name: 'Depot grid', axes: AXES },
    });
    expect(theirs.statusCode).toBe(200);
    const hidden = await get(theirs.json.data.id);
    expect(hidden.statusCode).toBe(404);
    expect(hidden.json.message).toBe('Grid field not found');
    expect((await get(999_999)).statusCode).toBe(404);
  });
});
