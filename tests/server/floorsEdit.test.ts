import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { floors, zones } from '../../server/db/schema';
import type { Floor } from '../../src/domain/floor';
import {
  type FloorSuite,
  floorFields,
  floorRequests,
  multipart,
  smallPng,
  startFloorSuite,
} from './helpers/floorSuite';
import type { OtherTenant } from './helpers/otherTenant';
import type { TestApp } from './helpers/testApp';

describe('floors', () => {
  let suite: FloorSuite;
  let t: TestApp;
  let other: OtherTenant;
  let northId: number;
  let southId: number;
  let otherFloorId: number;
  let tokens: FloorSuite['tokens'];

  beforeAll(async () => {
    suite = await startFloorSuite();
    ({ t, other, northId, southId, otherFloorId, tokens } = suite);
  });
  afterAll(() => suite.close());

  const { admin, get, send, create, storedFiles } = floorRequests(() => suite);

  describe('edit, duplicate and delete', () => {
    const newFloor = async (name: string) =>
      (await create(floorFields({ name }), { filename: 'p.png', content: smallPng() }, southId)).json
        .data as Floor;

    it('keeps the image when none is sent, and replaces it (removing the old file) when one is', async () => {
      const floor = await newFloor('Edit me');
      const url = `/api/buildings/${southId}/floors/${floor.id}`;
      const kept = await send(url, multipart(floorFields({ name: 'Edited', altitude: '3' })));
      expect(kept.statusCode).toBe(200);
      expect(kept.json.message).toBe('Floor Updated Successfully');
      expect(kept.json.data).toMatchObject({
        name: 'Edited',
        altitude: 3,
        image_properties: { width: 40, height: 25 },
      });
      const [before] = await t.db.select().from(floors).where(eq(floors.id, floor.id));

      const replaced = await send(
        url,
        multipart(floorFields({ name: 'Edited' }), { filename: 'n.png', content: smallPng(80, 50) }),
      );
      expect(replaced.json.data.image_properties).toEqual({ width: 80, height: 50 });
      const files = await storedFiles();
      expect(files).not.toContain(before.blueprintFile);
      const bad = await send(url, multipart(floorFields({ 'coordinates[d][lat]': '-90.5' })));
      expect(bad.statusCode).toBe(422);
      expect(bad.json.errors).toEqual({
        'coordinates.d.lat': 'Latitude should be number between -90 and 90',
      });
      expect((await send(url, multipart(floorFields()), tokens['group-of-sites-viewer'])).statusCode).toBe(
        403,
      );
      expect(
        (await send(`/api/buildings/${northId}/floors/${floor.id}`, multipart(floorFields()))).statusCode,
      ).toBe(404);
      expect(
        (await send(`/api/buildings/${other.buildingId}/floors/${otherFloorId}`, multipart(floorFields())))
          .statusCode,
      ).toBe(404);
    });

    it('takes the analytics cell size on create and edit, keeps it when blank, and refuses one out of range', async () => {
      const plain = await newFloor('Default cells');
      expect(plain.cellSizeMetres).toBe(1);
      const created = await create(
        floorFields({ name: 'Coarse cells', cellSizeMetres: '2.5' }),
        { filename: 'p.png', content: smallPng() },
        southId,
      );
      expect(created.json.data.cellSizeMetres).toBe(2.5);
      const url = `/api/buildings/${southId}/floors/${created.json.data.id}`;
      const kept = await send(url, multipart(floorFields({ name: 'Coarse cells' })));
      expect(kept.json.data.cellSizeMetres).toBe(2.5);
      const changed = await send(url, multipart(floorFields({ cellSizeMetres: ' 0.5 ' })));
      expect(changed.json.data.cellSizeMetres).toBe(0.5);
      for (const value of ['0.1', '11', 'wide']) {
        const bad = await send(url, multipart(floorFields({ cellSizeMetres: value })));
        expect(bad.statusCode).toBe(422);
        expect(bad.json.errors).toEqual({
          cellSizeMetres: 'Cell size should be a number of metres between 0.25 and 10',
        });
      }
      expect((await get(url)).json.data.cellSizeMetres).toBe(0.5);
    });

    it('duplicates a floor with its image and zones into the same building', async () => {
      const [ground] = await t.db
        .select()
        .from(floors)
        .where(eq(floors.name, 'Ground Floor'))
        .orderBy(floors.id)
        .limit(1);
      const response = await t.call(admin(), {
        method: 'POST',
        url: `/api/buildings/${ground.buildingId}/floors/${ground.id}/duplicate`,
      });
      expect(response.statusCode).toBe(200);
      expect(response.json.message).toBe('Floor Duplicated Successfully');
      const copy = response.json.data as Floor;
      expect(copy).toMatchObject({
        name: 'Ground Floor (copy)',
        building_id: ground.buildingId,
        altitude: 0,
      });
      expect(copy.id).not.toBe(ground.id);
      const [original, copied] = await Promise.all(
        [ground.id, copy.id].map((id) =>
          t.db.select().from(zones).where(eq(zones.floorId, id)).orderBy(zones.name),
        ),
      );
      expect(copied.map((z) => [z.name, z.kind, z.coordinates])).toEqual(
        original.map((z) => [z.name, z.kind, z.coordinates]),
      );
      expect(copied.some((z) => z.kind === 'assembly')).toBe(true);
      const originalImage = await get(`/api/buildings/${ground.buildingId}/floors/${ground.id}/blueprint`);
      const copyImage = await get(copy.media_url!);
      expect(copyImage.rawPayload.equals(originalImage.rawPayload)).toBe(true);
      const rows = await t.db.select().from(floors).where(eq(floors.id, copy.id));
      expect(rows[0].blueprintFile).not.toBe(ground.blueprintFile);

      const viewer = await t.call(tokens['group-of-sites-viewer'], {
        method: 'POST',
        url: `/api/buildings/${ground.buildingId}/floors/${ground.id}/duplicate`,
      });
      expect(viewer.statusCode).toBe(403);
      const foreign = await t.call(admin(), {
        method: 'POST',
        url: `/api/buildings/${other.buildingId}/floors/${otherFloorId}/duplicate`,
      });
      expect(foreign.statusCode).toBe(404);
    });

    it('deletes a floor with its zones and file, answering the remaining floors in order', async () => {
      const floor = await newFloor('Doomed');
      await t.db
        .insert(zones)
        .values({ floorId: floor.id, name: 'Z', kind: 'work', coordinates: [[55.31, 25.21]] });
      const [row] = await t.db.select().from(floors).where(eq(floors.id, floor.id));
      const url = `/api/buildings/${southId}/floors/${floor.id}`;
      expect((await t.call(tokens['group-of-sites-viewer'], { method: 'DELETE', url })).statusCode).toBe(403);
      const response = await t.call(admin(), { method: 'DELETE', url });
      expect(response.statusCode).toBe(200);
      expect(response.json.message).toBe('Floor deleted successfully');
      const remaining = response.json.data as Floor[];
      expect(remaining.map((f) => f.id)).toEqual(
        [...remaining].sort((a, b) => b.altitude - a.altitude || a.id - b.id).map((f) => f.id),
      );
      expect(remaining.map((f) => f.id)).not.toContain(floor.id);
      expect(remaining.every((f) => f.building_id === southId)).toBe(true);
      expect(await storedFiles()).not.toContain(row.blueprintFile);
      expect(await t.db.select().from(zones).where(eq(zones.floorId, floor.id))).toEqual([]);
      expect((await t.call(admin(), { method: 'DELETE', url })).statusCode).toBe(404);
      const foreign = await t.call(admin(), {
        method: 'DELETE',
        url: `/api/buildings/${other.buildingId}/floors/${otherFloorId}`,
      });
      expect(foreign.statusCode).toBe(404);
    });
  });
});
