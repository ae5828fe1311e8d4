import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodePng, Raster } from '../../server/db/blueprintImage';
import { DEMO_SITE } from '../../server/db/demoSeed';
import { sites, workers } from '../../server/db/schema';
import type { WorkerFlat } from '../../src/domain/workers';
import { type OtherTenant, seedOtherTenant } from './helpers/otherTenant';
import { startTestApp, type TestApp } from './helpers/testApp';

const IMAGE_MESSAGE = "PNG, JPEG, JPG formats are allowed, image can't exceed 3MB";
const MB3 = 3 * 1024 * 1024;

/** A multipart/form-data body built by hand, as a browser's FormData would send it. */
function form(file: { field?: string; filename: string; type?: string; content: Buffer }) {
  const boundary = `----sitewatch${Math.random().toString(16).slice(2)}`;
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${file.field ?? 'picture'}"; filename="${file.filename}"\r\nContent-Type: ${file.type ?? 'image/png'}\r\n\r\n`,
    ),
    file.content,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

const png = () => encodePng(new Raster(16, 16, [10, 200, 30, 255]));
// The smallest JPEG header the sniffer accepts: SOI, then a SOF0 frame of 8×8.
const jpeg = () =>
  Buffer.from([
    0xff, 0xd8, 0xff, 0xc0, 0x00, 0x11, 0x08, 0x00, 0x08, 0x00, 0x08, 0x03, 0x01, 0x22, 0x00, 0x02, 0x11,
    0x01, 0x03, 0x11, 0x01, 0xff, 0xd9,
  ]);

describe('worker pictures', () => {
  let t: TestApp;
  let other: OtherTenant;
  let dataDir: string;
  let siteId: number;
  let admin: string;
  let workerId: number;
  let otherWorkerId: number;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'sitewatch-workers-'));
    t = await startTestApp({ dataDir });
    other = await seedOtherTenant(t.db);
    [{ id: siteId }] = await t.db.select().from(sites).where(eq(sites.name, DEMO_SITE));
    admin = await t.loginAs('group-of-sites-admin');
    [{ id: workerId }] = await t.db.insert(workers).values({ siteId, name: 'Pictured' }).returning();
    [{ id: otherWorkerId }] = await t.db
      .insert(workers)
      .values({ siteId: other.siteId, name: 'Far' })
      .returning();
  });
  afterAll(async () => {
    await t.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  const url = (worker = workerId, site = siteId) => `/api/sites/${site}/workers/${worker}/picture`;
  const upload = (body: ReturnType<typeof form>, worker = workerId, token = admin) =>
    t.call(token, { method: 'POST', url: url(worker), ...body });
  const stored = async () => (await readdir(join(dataDir, 'workers')).catch(() => [])).sort();

  it('stores a PNG, serves it back and puts media_url on the worker', async () => {
    expect((await t.call(admin, { method: 'GET', url: url() })).statusCode).toBe(404);
    const reply = await upload(form({ filename: 'me.png', content: png() }));
    expect(reply.statusCode).toBe(200);
    expect(reply.json.data.media_url).toBe(url());
    expect(await stored()).toHaveLength(1);
    const served = await t.call(admin, { method: 'GET', url: url() });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.rawPayload.equals(png())).toBe(true);
    const list = await t.call(admin, { method: 'GET', url: `/api/sites/${siteId}/workers?search=pictured` });
    expect((list.json.data as WorkerFlat[])[0].media_url).toBe(url());
  });

  it('replaces the picture with a JPEG and removes the old file', async () => {
    const before = await stored();
    const reply = await upload(form({ filename: 'me.jpeg', type: 'image/jpeg', content: jpeg() }));
    expect(reply.statusCode).toBe(200);
    const after = await stored();
    expect(after).toHaveLength(1);
    expect(after[0]).not.toBe(before[0]);
    expect(after[0]).toMatch(/\.jpg$/);
    const served = await t.call(admin, { method: 'GET', url: url() });
    expect(served.headers['content-type']).toBe('image/jpeg');
  });

  it('refuses by content: a renamed text file is 415, over 3 MB is 413, with the spec message', async () => {
    const fake = await upload(
      form({ filename: 'evil.png', content: Buffer.from('<svg>not an image</svg>') }),
    );
    expect(fake.statusCode).toBe(415);
    expect(fake.json.message).toBe(IMAGE_MESSAGE);
    const gif = await upload(
      form({ filename: 'x.gif', type: 'image/gif', content: Buffer.from('GIF89a....') }),
    );
    expect(gif.statusCode).toBe(415);
    const wrongName = await upload(form({ filename: 'x.bmp', content: png() }));
    expect(wrongName.statusCode).toBe(415);
    const big = Buffer.concat([png(), Buffer.alloc(MB3 + 1)]);
    const tooBig = await upload(form({ filename: 'big.png', content: big }));
    expect(tooBig.statusCode).toBe(413);
    expect(tooBig.json.message).toBe(IMAGE_MESSAGE);
    const notMultipart = await t.call(admin, { method: 'POST', url: url(), payload: { picture: 'x' } });
    expect(notMultipart.statusCode).toBe(415);
    const none = await upload(form({ field: 'other', filename: 'a.png', content: png() }));
    expect(none.statusCode).toBe(422);
    expect(none.json.message).toBe('Picture is required');
    expect(await stored()).toHaveLength(1);
  });

  it("answers 404 for another client's worker; deleting the worker removes the file", async () => {
    expect((await upload(form({ filename: 'a.png', content: png() }), otherWorkerId)).statusCode).toBe(404);
    expect((await t.call(admin, { method: 'GET', url: url(otherWorkerId) })).statusCode).toBe(404);
    expect((await t.call(admin, { method: 'GET', url: url(otherWorkerId, other.siteId) })).statusCode).toBe(
      404,
    );
    const removed = await t.call(admin, {
      method: 'DELETE',
      url: `/api/sites/${siteId}/workers/${workerId}`,
    });
    expect(removed.statusCode).toBe(200);
    expect(await stored()).toHaveLength(0);
  });
});
