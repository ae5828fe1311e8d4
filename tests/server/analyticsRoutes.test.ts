import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeCursor, encodeCursor, readHistoryChunk } from '../../server/analytics/historyQueries';
import { crewAssignments, crews } from '../../server/db/schema';
import { writePositions } from '../../server/ingest/positionWriter';
import { bucketStart, POSITION_SAMPLE_SECONDS } from '../../src/domain/analytics';
import { floorGrid } from '../../src/domain/geo';
import { decodeHistoryChunk } from '../../src/domain/historyChunk';
import type { PositionMessage } from '../../src/domain/live';
import type { Heatmap, HistoryChunk } from '../../src/domain/schemas/analytics';
import { startDemoSiteSuite } from './helpers/demoSiteSuite';
import {
  type DemoFloorFixture,
  demoFloor,
  type HelmetFixture,
  seedWorkerWithHelmet,
} from './helpers/ingestFixture';
import type { OtherTenant } from './helpers/otherTenant';
import type { TestApp } from './helpers/testApp';

/**
 * The analytics fast paths (issue 16): GET /api/floors/{id}/heatmap and …/history, on positions
 * stored by the ingest's writer, for three workers of the demo floor with known cells and times.
 */

let t: TestApp;
let other: OtherTenant;
let tokens: Record<string, string>;
let fixture: DemoFloorFixture;
let helmets: HelmetFixture[];
let crewId: number;
const messages: PositionMessage[] = [];
/** A whole minute half an hour ago: positions start 20 s into it. */
const T0 = bucketStart(Date.now()) - 30 * 60_000;
const iso = (ms: number) => new Date(ms).toISOString();

/** `count` positions of a helmet, one a second from `startSecond` after T0, at a point of the floor. */
function walk(tag: string, startSecond: number, count: number, point: (i: number) => [number, number]) {
  for (let i = 0; i < count; i++) {
    const [x, y] = point(i);
    messages.push({
      tag,
      ts: iso(T0 + (startSecond + i) * 1000),
      ...fixture.at(x, y),
      floorId: fixture.floor.id,
      online: true,
      active: i % 2 === 0,
    });
  }
}

/** The expected heatmap of [fromMs, toMs): positions counted in their cell, by `tags` (all when omitted). */
function expectedCells(fromMs: number, toMs: number, tags?: string[]) {
  const f = fixture.floor;
  const grid = floorGrid(
    {
      a: { lat: f.aLat, long: f.aLong },
      b: { lat: f.bLat, long: f.bLong },
      c: { lat: f.cLat, long: f.cLong },
      d: { lat: f.dLat, long: f.dLong },
    },
    f.cellSizeMetres,
  );
  const cells = new Map<string, number>();
  for (const m of messages) {
    const ms = Date.parse(m.ts);
    if (ms < fromMs || ms >= toMs || (tags && !tags.includes(m.tag))) continue;
    const cell = grid.cellOf(m);
    if (!cell) continue;
    const key = `${cell.x},${cell.y}`;
    cells.set(key, (cells.get(key) ?? 0) + POSITION_SAMPLE_SECONDS);
  }
  return { grid, cells };
}

const cellsOf = (heatmap: Heatmap) =>
  new Map(heatmap.x.map((x, i) => [`${x},${heatmap.y[i]}`, heatmap.workerSeconds[i]]));

const get = (url: string, token = tokens['group-of-sites-admin']) => t.call(token, { method: 'GET', url });
const heatmapUrl = (floorId: number, fromMs: number, toMs: number, extra = '') =>
  `/api/floors/${floorId}/heatmap?from=${iso(fromMs)}&to=${iso(toMs)}${extra}`;
const historyUrl = (floorId: number, fromMs: number, toMs: number, extra = '') =>
  `/api/floors/${floorId}/history?from=${iso(fromMs)}&to=${iso(toMs)}${extra}`;

beforeAll(async () => {
  const suite = await startDemoSiteSuite([
    'group-of-sites-admin',
    'group-of-sites-viewer',
    'crew-manager',
    'site-engineer',
  ]);
  ({ t, other } = suite);
  tokens = suite.tokens;
  tokens.otherAdmin = await t.login(other.email('client-admin'));
  fixture = await demoFloor(t.db);
  helmets = [];
  for (const tag of ['AN-A', 'AN-B', 'AN-C'])
    helmets.push(await seedWorkerWithHelmet(t.db, fixture.siteId, tag));
  const [crew] = await t.db
    .insert(crews)
    .values({ siteId: fixture.siteId, name: 'Analytics crew' })
    .returning();
  crewId = crew.id;
  // A is in the crew since 2020; B joins it only next year, so none of B's positions count for it.
  await t.db.insert(crewAssignments).values([
    { crewId, workerId: helmets[0].workerId, assignedAt: '2020-01-01' },
    { crewId, workerId: helmets[1].workerId, assignedAt: `${new Date().getUTCFullYear() + 1}-01-01` },
  ]);
  // A walks 150 s across the floor from T0+20 s; B stands 90 s from T0+30 s (same seconds as A);
  // C stands 60 s from T0, its last position outside the floor (stored, never in a heatmap cell).
  walk('AN-A', 20, 150, (i) => [0.05 + (i / 150) * 0.9, 0.3]);
  walk('AN-B', 30, 90, () => [0.7, 0.7]);
  walk('AN-C', 0, 60, (i) => (i === 59 ? [1.5, 1.5] : [0.2, 0.8]));
  const written = await writePositions(t.db, fixture.siteId, messages);
  expect(written.accepted).toBe(messages.length);
});

afterAll(() => t.close());

describe('GET /api/floors/{id}/heatmap', () => {
  it('sums the whole minutes from the rollup and the partial edge minutes from positions', async () => {
    const [fromMs, toMs] = [T0 + 25_000, T0 + 2 * 60_000 + 7_500];
    const response = await get(heatmapUrl(fixture.floor.id, fromMs, toMs));
    expect(response.statusCode).toBe(200);
    const heatmap = response.json.data as Heatmap;
    const { grid, cells } = expectedCells(fromMs, toMs);
    expect(heatmap).toMatchObject({
      source: 'rollup',
      columns: grid.columns,
      rows: grid.rows,
      floorId: fixture.floor.id,
    });
    expect(cellsOf(heatmap)).toEqual(cells);
    expect(heatmap.workerSeconds.reduce((a, b) => a + b, 0)).toBe(
      [...cells.values()].reduce((a, b) => a + b, 0),
    );
    expect(heatmap.maxWorkerSeconds).toBe(Math.max(...cells.values()));
    // The rollup does not hold the sub-minute edges: the answer would be larger if it read whole minutes.
    const whole = expectedCells(bucketStart(fromMs), bucketStart(toMs) + 60_000).cells;
    expect(cellsOf(heatmap)).not.toEqual(whole);
  });

  it('answers a window within one minute, and an empty window with no cells', async () => {
    const inside = await get(heatmapUrl(fixture.floor.id, T0 + 35_000, T0 + 45_000));
    expect(cellsOf(inside.json.data)).toEqual(expectedCells(T0 + 35_000, T0 + 45_000).cells);
    const before = await get(heatmapUrl(fixture.floor.id, T0 - 3_600_000, T0));
    expect(before.json.data).toMatchObject({ x: [], y: [], workerSeconds: [], maxWorkerSeconds: 0 });
  });

  it('filters by subcontractor, role and crew from raw positions', async () => {
    const [fromMs, toMs] = [T0, T0 + 10 * 60_000];
    const [a, b] = await t.db
      .execute(sql`
      select id, subcontractor_id, worker_role_id from workers where id in (${helmets[0].workerId}, ${helmets[1].workerId}) order by id`)
      .then((r) => (r as unknown as { rows: { subcontractor_id: number; worker_role_id: number }[] }).rows);
    const bySubcontractor = await get(
      heatmapUrl(fixture.floor.id, fromMs, toMs, `&subcontractorId=${a.subcontractor_id}`),
    );
    expect(bySubcontractor.json.data.source).toBe('raw');
    expect(cellsOf(bySubcontractor.json.data)).toEqual(expectedCells(fromMs, toMs, ['AN-A']).cells);
    const byRole = await get(heatmapUrl(fixture.floor.id, fromMs, toMs, `&workerRoleId=${b.worker_role_id}`));
    expect(cellsOf(byRole.json.data)).toEqual(expectedCells(fromMs, toMs, ['AN-B']).cells);
    const byCrew = await get(heatmapUrl(fixture.floor.id, fromMs, toMs, `&crewId=${crewId}`));
    expect(cellsOf(byCrew.json.data)).toEqual(expectedCells(fromMs, toMs, ['AN-A']).cells);
    const both = await get(
      heatmapUrl(
        fixture.floor.id,
        fromMs,
        toMs,
        `&subcontractorId=${a.subcontractor_id}&workerRoleId=${b.worker_role_id}`,
      ),
    );
    expect(both.json.data.workerSeconds).toEqual([]);
  });
});

describe('GET /api/floors/{id}/history', () => {
  const [fromMs, toMs] = [T0, T0 + 10 * 60_000];
  const key = (tag: string, ms: number) => `${tag}@${ms}`;
  const tagOf = (inventoryItemId: number) => helmets.find((h) => h.inventoryId === inventoryItemId)?.tag;
  const keysOf = (chunk: HistoryChunk) => {
    const decoded = decodeHistoryChunk(chunk);
    return [...decoded.times].map((ms, i) =>
      key(tagOf(decoded.helmets[decoded.helmetIndex[i]].inventoryItemId) ?? '?', ms),
    );
  };

  it('sends every position of the window once, in time then helmet order, as ids only', async () => {
    const response = await get(historyUrl(fixture.floor.id, fromMs, toMs));
    expect(response.statusCode).toBe(200);
    const chunk = response.json.data as HistoryChunk;
    expect(chunk.nextCursor).toBeNull();
    expect(chunk.startMs).toBe(T0);
    const sorted = [...messages].sort(
      (p, q) =>
        Date.parse(p.ts) - Date.parse(q.ts) ||
        helmets.findIndex((h) => h.tag === p.tag) - helmets.findIndex((h) => h.tag === q.tag),
    );
    expect(keysOf(chunk)).toEqual(sorted.map((m) => key(m.tag, Date.parse(m.ts))));
    const decoded = decodeHistoryChunk(chunk);
    const first = messages.find((m) => m.tag === 'AN-C');
    expect(Math.abs(decoded.lat[0] - (first?.lat ?? 0))).toBeLessThanOrEqual(1e-7);
    expect(chunk.helmets).toEqual(
      expect.arrayContaining(helmets.map((h) => ({ inventoryItemId: h.inventoryId, workerId: h.workerId }))),
    );
    for (const helmet of helmets) expect(response.body).not.toContain(helmet.workerName);
  });

  it('continues chunk after chunk through the cursor, covering the window exactly once', async () => {
    const window = { from: new Date(T0 + 25_000), to: new Date(T0 + 100_000) };
    const floor = { ...fixture.floor, siteId: fixture.siteId };
    const seen: string[] = [];
    let cursor: string | null = null;
    let chunks = 0;
    do {
      const chunk: HistoryChunk = await readHistoryChunk(t.db, {
        floor,
        window,
        cursor: cursor === null ? undefined : decodeCursor(cursor, window),
        limit: 7,
      });
      expect(chunk.t.length).toBeLessThanOrEqual(7);
      seen.push(...keysOf(chunk));
      cursor = chunk.nextCursor;
      chunks += 1;
    } while (cursor !== null);
    const expected = messages
      .filter((m) => Date.parse(m.ts) >= window.from.getTime() && Date.parse(m.ts) < window.to.getTime())
      .map((m) => key(m.tag, Date.parse(m.ts)));
    expect(seen.length).toBe(expected.length);
    expect(new Set(seen)).toEqual(new Set(expected));
    expect(chunks).toBe(Math.ceil(expected.length / 7));
    // The route continues from a cursor in the middle of a second shared by two helmets.
    const middle = encodeCursor({
      microseconds: (T0 + 40_000) * 1000,
      inventoryItemId: helmets[0].inventoryId,
    });
    const rest = await get(
      historyUrl(fixture.floor.id, window.from.getTime(), window.to.getTime(), `&cursor=${middle}`),
    );
    expect(rest.statusCode).toBe(200);
    expect(keysOf(rest.json.data)).toEqual(seen.slice(seen.indexOf(key('AN-A', T0 + 40_000)) + 1));
  });

  it('keeps only the named workers', async () => {
    const ids = `${helmets[0].workerId},${helmets[2].workerId}`;
    const response = await get(historyUrl(fixture.floor.id, fromMs, toMs, `&workerIds=${ids}`));
    const chunk = response.json.data as HistoryChunk;
    expect(chunk.helmets.map((h) => h.workerId).sort()).toEqual(
      [helmets[0].workerId, helmets[2].workerId].sort(),
    );
    expect(chunk.t.length).toBe(messages.filter((m) => m.tag !== 'AN-B').length);
  });
});

describe('analytics fast paths: access and input', () => {
  it('lets a site viewer read, refuses crew managers and site engineers, hides other tenants', async () => {
    const urls = [
      heatmapUrl(fixture.floor.id, T0, T0 + 60_000),
      historyUrl(fixture.floor.id, T0, T0 + 60_000),
    ];
    for (const url of urls) {
      expect((await get(url, tokens['group-of-sites-viewer'])).statusCode).toBe(200);
      expect((await get(url, tokens['crew-manager'])).json).toEqual({
        status: 'error',
        message: 'Not Authorized',
      });
      expect((await get(url, tokens['site-engineer'])).statusCode).toBe(403);
      const foreign = await get(url, tokens.otherAdmin);
      expect(foreign.statusCode).toBe(404);
      expect(foreign.json).toEqual({ status: 'error', message: 'Floor not found' });
    }
    for (const url of [
      heatmapUrl(other.floorId, T0, T0 + 60_000),
      historyUrl(other.floorId, T0, T0 + 60_000),
    ]) {
      expect((await get(url)).statusCode).toBe(404);
    }
  });

  it.each([
    ['missing from', `to=${iso(T0)}`, 'from', 'From is required'],
    [
      'a date that is not a time',
      `from=2026-11-26&to=${iso(T0)}`,
      'from',
      'From must be an ISO 8601 date and time, e.g. 2026-11-26T08:00:00Z',
    ],
    [
      '30 February',
      `from=2026-02-30T00:00:00Z&to=2026-03-02T00:00:00Z`,
      'from',
      'From must be an ISO 8601 date and time, e.g. 2026-11-26T08:00:00Z',
    ],
    ['to before from', `from=${iso(T0)}&to=${iso(T0 - 1000)}`, 'to', 'To must be later than From'],
    ['to equal to from', `from=${iso(T0)}&to=${iso(T0)}`, 'to', 'To must be later than From'],
    [
      'more than 31 days',
      `from=${iso(T0 - 32 * 86_400_000)}&to=${iso(T0)}`,
      'to',
      'The range may span at most 31 days',
    ],
    [
      'a crew id that is not a number',
      `from=${iso(T0)}&to=${iso(T0 + 1000)}&crewId=abc`,
      'crewId',
      'Crew id is invalid',
    ],
  ])('refuses %s with a 422', async (_, query, field, message) => {
    const response = await get(`/api/floors/${fixture.floor.id}/heatmap?${query}`);
    expect(response.statusCode).toBe(422);
    expect(response.json.errors?.[field]).toBe(message);
  });

  it.each([
    ['garbage', 'not a cursor!'],
    ['base64 of anything else', Buffer.from('{"ts":1}').toString('base64url')],
    ['a cursor outside the window', encodeCursor({ microseconds: (T0 - 60_000) * 1000, inventoryItemId: 1 })],
    ['a helmet id out of range', Buffer.from(`h1:${(T0 + 1000) * 1000}:9999999999`).toString('base64url')],
  ])('refuses a forged cursor (%s) with a 422', async (_, cursor) => {
    const response = await get(
      historyUrl(fixture.floor.id, T0, T0 + 60_000, `&cursor=${encodeURIComponent(cursor)}`),
    );
    expect(response.statusCode).toBe(422);
    expect(response.json.errors?.cursor).toBe('Cursor is invalid: fetch the first chunk of the window again');
  });

  it('refuses worker ids that are not a list of ids', async () => {
    for (const workerIds of ['1,x', '1,,2', '-4', '0']) {
      const response = await get(historyUrl(fixture.floor.id, T0, T0 + 60_000, `&workerIds=${workerIds}`));
      expect(response.statusCode, workerIds).toBe(422);
      expect(response.json.errors?.workerIds).toMatch(/^Worker ids must be/);
    }
  });
});
