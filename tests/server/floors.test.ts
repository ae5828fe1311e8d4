import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { greatCircleDistance } from '../../src/domain/distance';
import type { Floor } from '../../src/domain/floor';
import {
  CORNERS,
  type FloorSuite,
  floorFields,
  floorRequests,
  multipart,
  smallPng,
  startFloorSuite,
} from './helpers/floorSuite';
import type { OtherTenant } from './helpers/otherTenant';
import type { TestApp } from './helpers/testApp';

const IMAGE_MESSAGE = "PNG, JPEG, JPG formats are allowed, image can't exceed 3MB";
const MB3 = 3 * 1024 * 1024;

/** The smallest JPEG header this server reads: SOI, an APP0 segment, then SOF0 with the size. */
function jpegHeader(width: number, height: number): Buffer {
  const app0 = Buffer.from([0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0, 1, 1, 0, 0, 1, 0, 1, 0, 0]);
  const sof = Buffer.from([
    0xff,
    0xc0,
    0x00,
    0x11,
    0x08,
    height >> 8,
    height & 255,
    width >> 8,
    width & 255,
    3,
  ]);
  return Buffer.concat([Buffer.from([0xff, 0xd8]), app0, sof, Buffer.alloc(9), Buffer.from([0xff, 0xd9])]);
}

describe('floors', () => {
  let suite: FloorSuite;
  let t: TestApp;
  let other: OtherTenant;
  let siteId: number;
  let northId: number;
  let otherFloorId: number;
  let tokens: FloorSuite['tokens'];

  beforeAll(async () => {
    suite = await startFloorSuite();
    ({ t, other, siteId, northId, otherFloorId, tokens } = suite);
  });
  afterAll(() => suite.close());

  const { admin, get, send, create, storedFiles } = floorRequests(() => suite);

  describe('demo floors', () => {
    it('gives each demo building three floors, altitude descending, with generated blueprints', async () => {
      const response = await get(`/api/buildings/${northId}/floors`);
      expect(response.statusCode).toBe(200);
      const list = response.json.data as Floor[];
      expect(list.map((f) => f.name)).toEqual(['Level 2', 'Level 1', 'Ground Floor']);
      for (const floor of list) {
        expect(floor.media_url).toBe(`/api/buildings/${northId}/floors/${floor.id}/blueprint`);
        expect(floor.image_properties).toEqual({ width: 1600, height: 1000 });
        expect(floor.online_active_worker_count).toBe(0);
        expect(floor.building_id).toBe(northId);
      }
    });

    it('serves six decodable PNG blueprints with no-cache', async () => {
      const response = await get(`/api/sites/${siteId}/floors?sort=altitude`);
      const list = response.json.data as Floor[];
      expect(list).toHaveLength(6);
      for (const floor of list) {
        const image = await get(floor.media_url!);
        expect(image.statusCode).toBe(200);
        expect(image.headers['content-type']).toBe('image/png');
        expect(image.headers['cache-control']).toBe('no-cache');
        const bytes = image.rawPayload;
        expect([...bytes.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
        expect(bytes.toString('ascii', 12, 16)).toBe('IHDR');
        expect([bytes.readUInt32BE(16), bytes.readUInt32BE(20)]).toEqual([1600, 1000]);
      }
    });

    it('lists a site floors by altitude descending then id, and refuses an unknown sort', async () => {
      const list = (await get(`/api/sites/${siteId}/floors?sort=altitude`)).json.data as Floor[];
      const sorted = [...list].sort((a, b) => b.altitude - a.altitude || a.id - b.id);
      expect(list.map((f) => f.id)).toEqual(sorted.map((f) => f.id));
      const ascending = (await get(`/api/sites/${siteId}/floors?sort=altitude,asc`)).json.data as Floor[];
      expect(ascending[0].altitude).toBe(0);
      expect((await get(`/api/sites/${siteId}/floors?sort=name`)).statusCode).toBe(422);
      expect((await get(`/api/sites/${other.siteId}/floors`)).statusCode).toBe(404);
    });
  });

  describe('create', () => {
    it('stores the form and the image, and answers the floor', async () => {
      const before = await storedFiles();
      const png = smallPng(64, 48);
      const response = await create(floorFields({ name: ' Roof ' }), { filename: 'roof.PNG', content: png });
      expect(response.statusCode).toBe(200);
      expect(response.json.message).toBe('Floor Created Successfully');
      const floor = response.json.data as Floor;
      expect(floor).toMatchObject({
        name: 'Roof',
        altitude: 12.5,
        category: 'Roof',
        building_id: northId,
        image_properties: { width: 64, height: 48 },
        coordinates: CORNERS,
        online_active_worker_count: 0,
      });
      expect(floor.media_url).toBe(`/api/buildings/${northId}/floors/${floor.id}/blueprint`);
      expect((await storedFiles()).length).toBe(before.length + 1);
      const image = await get(floor.media_url!);
      expect(image.rawPayload.equals(png)).toBe(true);
      expect((await get(`/api/buildings/${northId}/floors/${floor.id}`)).json.data).toEqual(floor);
    });

    it('reads a JPEG size from its frame header', async () => {
      const response = await create(floorFields({ name: 'Basement' }), {
        filename: 'basement.jpeg',
        type: 'image/jpeg',
        content: jpegHeader(1200, 800),
      });
      expect(response.statusCode).toBe(200);
      expect(response.json.data.image_properties).toEqual({ width: 1200, height: 800 });
      const image = await get(response.json.data.media_url);
      expect(image.headers['content-type']).toBe('image/jpeg');
    });

    it('refuses a text file renamed .png with 415 and writes nothing', async () => {
      const before = await storedFiles();
      const response = await create(floorFields(), {
        filename: 'notes.png',
        content: Buffer.from('just some text\n'),
      });
      expect(response.statusCode).toBe(415);
      expect(response.json.message).toBe(IMAGE_MESSAGE);
      expect(await storedFiles()).toEqual(before);
    });

    it('refuses a real PNG named .gif with 415', async () => {
      const response = await create(floorFields(), { filename: 'plan.gif', content: smallPng() });
      expect(response.statusCode).toBe(415);
    });

    it('takes exactly 3 MB and refuses 3 MB + 1 byte with 413', async () => {
      const header = smallPng();
      const exact = Buffer.concat([header, Buffer.alloc(MB3 - header.length)]);
      expect(
        (await create(floorFields({ name: 'Big' }), { filename: 'big.png', content: exact })).statusCode,
      ).toBe(200);
      const before = await storedFiles();
      const tooBig = Buffer.concat([exact, Buffer.alloc(1)]);
      const response = await create(floorFields(), { filename: 'big.png', content: tooBig });
      expect(response.statusCode).toBe(413);
      expect(response.json.message).toBe(IMAGE_MESSAGE);
      expect(await storedFiles()).toEqual(before);
    });

    it('answers latitude 91 with the spec message, keyed by corner', async () => {
      const response = await create(floorFields({ 'coordinates[a][lat]': '91' }));
      expect(response.statusCode).toBe(422);
      expect(response.json.errors).toEqual({
        'coordinates.a.lat': 'Latitude should be number between -90 and 90',
      });
      expect(response.json.message).toBe('Latitude should be number between -90 and 90');
    });

    it('answers a bad longitude and a missing corner with 422', async () => {
      const response = await create(
        floorFields({
          'coordinates[b][long]': '12abc',
          'coordinates[c][lat]': undefined,
          'coordinates[d][long]': '  ',
        }),
      );
      expect(response.statusCode).toBe(422);
      expect(response.json.errors).toEqual({
        'coordinates.b.long': 'Longitude should be number between -180 and 180',
        'coordinates.c.lat': 'Latitude is required',
        'coordinates.d.long': 'Longitude is required',
      });
    });

    it('refuses crossed corners, a missing name, altitude and image, and unknown fields', async () => {
      const crossed = await create(
        floorFields({
          'coordinates[b][lat]': String(CORNERS.c.lat),
          'coordinates[c][lat]': String(CORNERS.b.lat),
        }),
      );
      expect(crossed.statusCode).toBe(422);
      expect(crossed.json.errors).toEqual({ coordinates: 'Corners a, b, c and d must form a quadrilateral' });

      const response = await create(floorFields({ name: '  ', altitude: undefined, colour: 'red' }), null);
      expect(response.statusCode).toBe(422);
      expect(response.json.errors).toEqual({
        name: 'Name is required',
        altitude: 'Altitude is required',
        blueprint: 'Blueprint is required',
        colour: 'Colour is not allowed',
      });
      expect((await create(floorFields({ altitude: 'high' }))).json.errors).toEqual({
        altitude: 'Altitude should be a number',
      });
      expect((await create(floorFields({ name: 'x'.repeat(101) }))).json.errors).toEqual({
        name: 'Name accepts a maximum of 100 characters',
      });
    });

    it('checks an optional a–b distance against the corners to two decimals', async () => {
      const metres = greatCircleDistance(CORNERS.a, CORNERS.b);
      const good = await create(floorFields({ name: 'Measured', distance: metres.toFixed(2) }));
      expect(good.statusCode).toBe(200);
      const bad = await create(floorFields({ distance: (metres + 0.02).toFixed(2) }));
      expect(bad.statusCode).toBe(422);
      expect(Object.keys(bad.json.errors ?? {})).toEqual(['distance']);
    });

    it('answers a JSON body with 415, never 500', async () => {
      const response = await t.call(admin(), {
        method: 'POST',
        url: `/api/buildings/${northId}/floors`,
        payload: { name: 'Roof', altitude: 1 },
      });
      expect(response.statusCode).toBe(415);
      const garbage = await t.call(admin(), {
        method: 'POST',
        url: `/api/buildings/${northId}/floors`,
        payload: '--nope\r\nrubbish',
        headers: { 'content-type': 'multipart/form-data; boundary=nope' },
      });
      expect(garbage.statusCode).toBeGreaterThanOrEqual(400);
      expect(garbage.statusCode).toBeLessThan(500);
    });

    it('answers 403 to a Site Viewer and 404 outside the tenant', async () => {
      const viewer = await send(
        `/api/buildings/${northId}/floors`,
        multipart(floorFields(), { filename: 'a.png', content: smallPng() }),
        tokens['group-of-sites-viewer'],
      );
      expect(viewer.statusCode).toBe(403);
      expect(
        (await get(`/api/buildings/${northId}/floors`, tokens['group-of-sites-viewer'])).statusCode,
      ).toBe(200);
      expect((await get(`/api/buildings/${northId}/floors`, tokens['crew-manager'])).statusCode).toBe(403);
      expect((await create(floorFields(), undefined, other.buildingId)).statusCode).toBe(404);
      expect((await get(`/api/buildings/${other.buildingId}/floors`)).statusCode).toBe(404);
      expect((await get(`/api/buildings/${other.buildingId}/floors/${otherFloorId}`)).statusCode).toBe(404);
      expect((await get(`/api/buildings/${northId}/floors/${otherFloorId}`)).statusCode).toBe(404);
      expect(
        (await get(`/api/buildings/${other.buildingId}/floors/${otherFloorId}/blueprint`)).statusCode,
      ).toBe(404);
      // Another client's own admin sees it.
      const otherToken = await t.login(other.email('client-admin'));
      expect(
        (await get(`/api/buildings/${other.buildingId}/floors/${otherFloorId}`, otherToken)).statusCode,
      ).toBe(200);
      expect(
        (await get(`/api/buildings/${other.buildingId}/floors/${otherFloorId}/blueprint`, otherToken))
          .statusCode,
      ).toBe(404);
    });
  });
});
