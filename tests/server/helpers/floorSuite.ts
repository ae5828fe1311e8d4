import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { encodePng, Raster } from '../../../server/db/blueprintImage';
import { DEMO_SITE } from '../../../server/db/demoSeed';
import { buildings, sites } from '../../../server/db/schema';
import type { Role } from '../../../src/domain/roles';
import { type OtherTenant, seedOtherTenant } from './otherTenant';
import { startTestApp, type TestApp } from './testApp';

export interface FilePart {
  field?: string;
  filename: string;
  type?: string;
  content: Buffer;
}

/** A multipart/form-data body built by hand, as a browser's FormData would send it. */
export function multipart(fields: Record<string, string>, file?: FilePart) {
  const boundary = `----sitewatch${Math.random().toString(16).slice(2)}`;
  const chunks: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    chunks.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`),
    );
  }
  if (file) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${file.field ?? 'blueprint'}"; filename="${file.filename}"\r\nContent-Type: ${file.type ?? 'image/png'}\r\n\r\n`,
      ),
      file.content,
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    payload: Buffer.concat(chunks),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

export const smallPng = (width = 40, height = 25) =>
  encodePng(new Raster(width, height, [255, 255, 255, 255]));

export const CORNERS = {
  a: { lat: 25.21, long: 55.31 },
  b: { lat: 25.21, long: 55.3108 },
  c: { lat: 25.2095, long: 55.3108 },
  d: { lat: 25.2095, long: 55.31 },
};

/** The form of a new floor ("Roof", 12.5 m, CORNERS), with fields changed or (undefined) left out. */
export function floorFields(overrides: Record<string, string | undefined> = {}): Record<string, string> {
  const fields: Record<string, string | undefined> = {
    name: 'Roof',
    altitude: '12.5',
    category: 'Roof',
    ...Object.fromEntries(
      Object.entries(CORNERS).flatMap(([corner, { lat, long }]) => [
        [`coordinates[${corner}][lat]`, ` ${lat} `],
        [`coordinates[${corner}][long]`, `${long}`],
      ]),
    ),
    ...overrides,
  };
  return Object.fromEntries(
    Object.entries(fields).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
}

export interface FloorSuite {
  t: TestApp;
  other: OtherTenant;
  /** Where the server stores the blueprints (under `blueprints/`). */
  dataDir: string;
  siteId: number;
  /** The demo site's buildings. */
  northId: number;
  southId: number;
  /** The other tenant's floor. */
  otherFloorId: number;
  /** Tokens of the demo admins, the Site Viewer and the crew manager. */
  tokens: Record<Role, string>;
  /** Closes the server and removes its data directory. */
  close(): Promise<void>;
}

/** A test server storing blueprints in a directory of its own, with the demo site and another tenant. */
export async function startFloorSuite(): Promise<FloorSuite> {
  const dataDir = await mkdtemp(join(tmpdir(), 'sitewatch-floors-'));
  const t = await startTestApp({ dataDir });
  const other = await seedOtherTenant(t.db);
  const [{ id: siteId }] = await t.db.select().from(sites).where(eq(sites.name, DEMO_SITE));
  const [{ id: northId }] = await t.db.select().from(buildings).where(eq(buildings.name, 'North Block'));
  const [{ id: southId }] = await t.db.select().from(buildings).where(eq(buildings.name, 'South Block'));
  const tokens = {} as Record<Role, string>;
  for (const role of [
    'super-admin',
    'client-admin',
    'group-of-sites-admin',
    'group-of-sites-viewer',
    'crew-manager',
  ] as const)
    tokens[role] = await t.loginAs(role);
  return {
    t,
    other,
    dataDir,
    siteId,
    northId,
    southId,
    otherFloorId: other.floorId,
    tokens,
    async close() {
      await t.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * GET and multipart POST through the suite's server as the site admin unless told otherwise,
 * creating a floor (a small PNG into North Block unless told otherwise), and the stored blueprint files.
 */
export function floorRequests(suite: () => FloorSuite) {
  const admin = () => suite().tokens['group-of-sites-admin'];
  const get = (url: string, token = admin()) => suite().t.call(token, { method: 'GET', url });
  const send = (url: string, body: ReturnType<typeof multipart>, token = admin()) =>
    suite().t.call(token, { method: 'POST', url, payload: body.payload, headers: body.headers });
  const create = (
    fields = floorFields(),
    file: FilePart | null = { filename: 'plan.png', content: smallPng() },
    building = suite().northId,
  ) => send(`/api/buildings/${building}/floors`, multipart(fields, file ?? undefined));
  const storedFiles = async () => (await readdir(join(suite().dataDir, 'blueprints')).catch(() => [])).sort();
  return { admin, get, send, create, storedFiles };
}
