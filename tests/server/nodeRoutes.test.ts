import { and, asc, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeCursor } from '../../server/analytics/historyQueries';
import { ensurePositionPartitions } from '../../server/analytics/positionPartitions';
import type { Db } from '../../server/db/database';
import { floors, inventoryItems, nodeDiagnostics } from '../../server/db/schema';
import { nodeVoltageTrend, siteVoltageTrends } from '../../server/nodes/batteryTrends';
import { readNodePlaybackChunk } from '../../server/nodes/nodePlayback';
import type { Role } from '../../src/domain/roles';
import type {
  AssetItem,
  AssetList,
  FloorNodeInformation,
  NodeHistory,
  NodeNeighbor,
  NodePlaybackChunk,
  SiteNodes,
} from '../../src/domain/schemas/nodes';
import { startDemoSiteSuite } from './helpers/demoSiteSuite';
import type { OtherTenant } from './helpers/otherTenant';
import type { TestApp } from './helpers/testApp';

/**
 * The node routes (issue "Maintenance kit and nodes"): the demo site's anchors and sinks with
 * reports written straight into node_diagnostics at known times, read back as they were at a
 * past time and now, as the site list with health and battery forecasts, as one node's history
 * (raw and bucketed, with health spans), as playback chunks and as the installation asset routes.
 */

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
const NOW = Date.now();
/** A whole minute two days ago: the past instant the floor is asked about. */
const PAST = Math.floor((NOW - 2 * DAY) / MIN) * MIN;
const iso = (ms: number) => new Date(ms).toISOString();

interface Node {
  id: number;
  nodeId: string;
  type: string;
  floorId: number | null;
}

let t: TestApp;
let other: OtherTenant;
let siteId: number;
let tokens: Record<Role, string>;
/** The demo floor with anchors (lowest id), its nodes, and a node of another floor of the site. */
let floorId: number;
let a1: Node;
let a2: Node;
let a3: Node;
/** An anchor whose battery trend the site list keeps between calls. */
let a4: Node;
let sink: Node;
let elsewhere: Node;
let foreignNodeId: string;

type Report = Partial<typeof nodeDiagnostics.$inferInsert> & { ms: number };
const reports: { node: Node; report: Report }[] = [];

function report(node: Node, ms: number, more: Omit<Report, 'ms'> = {}) {
  reports.push({ node, report: { ms, ...more } });
}

async function writeReports(db: Db) {
  await ensurePositionPartitions(
    db,
    reports.map((r) => r.report.ms),
    'node_diagnostics',
  );
  const rows = reports.map(({ node, report: { ms, ...more } }) => ({
    siteId,
    inventoryItemId: node.id,
    floorId: node.floorId,
    networkId: null,
    nodeId: node.nodeId,
    type: node.type,
    bufferUsage: 10,
    linkQuality: 80,
    batteryVoltage: node.type === 'sink' ? 5 : 3.6,
    displacementError: node.type === 'sink' ? null : 0.05,
    lat: 25.2,
    long: 55.3,
    neighbors: [] as NodeNeighbor[],
    ts: new Date(ms),
    ...more,
  }));
  for (let start = 0; start < rows.length; start += 1000)
    await db.insert(nodeDiagnostics).values(rows.slice(start, start + 1000));
}

const get = (url: string, as: Role = 'group-of-sites-admin') => t.call(tokens[as], { method: 'GET', url });

beforeAll(async () => {
  ({ t, other, siteId, tokens } = await startDemoSiteSuite([
    'group-of-sites-admin',
    'site-engineer',
    'group-of-sites-viewer',
    'crew-manager',
    'safety-demo',
  ]));
  const nodes = await t.db
    .select({
      id: inventoryItems.id,
      nodeId: inventoryItems.wntInventoryId,
      type: inventoryItems.type,
      floorId: inventoryItems.floorId,
    })
    .from(inventoryItems)
    .where(and(eq(inventoryItems.siteId, siteId), inArray(inventoryItems.type, ['anchor', 'sink'])))
    .orderBy(asc(inventoryItems.floorId), asc(inventoryItems.id));
  floorId = nodes[0].floorId as number;
  const onFloor = nodes.filter((n) => n.floorId === floorId);
  [a1, a2, a3, a4] = onFloor.filter((n) => n.type === 'anchor');
  sink = onFloor.find((n) => n.type === 'sink') as Node;
  elsewhere = nodes.find((n) => n.floorId !== floorId && n.type === 'anchor') as Node;
  const [otherFloor] = await t.db.select().from(floors).where(eq(floors.id, other.floorId));
  foreignNodeId = 'DEPOT-ANC-1';
  await t.db.insert(inventoryItems).values({
    siteId: other.siteId,
    wntInventoryId: foreignNodeId,
    type: 'anchor',
    floorId: otherFloor.id,
  });

  // A1: a report 5 min before PAST hearing A2 and a node of another floor, a worse one 30 min
  // after it, and one just now.
  report(a1, PAST - 5 * MIN, {
    batteryVoltage: 3.55,
    neighbors: [
      { nodeId: a2.nodeId, linkQuality: 70, rssi: -60 },
      { nodeId: elsewhere.nodeId, linkQuality: 40 },
    ],
  });
  report(a1, PAST + 30 * MIN, {
    batteryVoltage: 3.4,
    linkQuality: 45,
    displacementError: 0.5,
    neighbors: [{ nodeId: a3.nodeId, linkQuality: 35 }],
  });
  report(a1, NOW - 30_000, { batteryVoltage: 3.39, displacementError: 1.2 });
  // A2: every 15 min over the last 3 days, draining 0.05 V a day to 3.30 V now: 3.2 V in 2 days.
  for (let ms = NOW - MIN; ms > NOW - 3 * DAY; ms -= 15 * MIN)
    report(a2, ms, { batteryVoltage: 3.3 - ((ms - NOW) / DAY) * 0.05 });
  // A3: every minute over the last 26 hours, level battery, link 60 on even minutes and 80 on odd.
  const firstMinute = Math.floor((NOW - 26 * HOUR) / MIN) * MIN;
  for (let ms = firstMinute; ms < NOW - MIN; ms += MIN)
    report(a3, ms, { linkQuality: (ms / MIN) % 2 === 0 ? 60 : 80 });
  // A4: on the half hour over the last 10 hours at 3.5 V.
  for (let h = 1; h <= 10; h++)
    report(a4, Math.floor(NOW / HOUR) * HOUR - h * HOUR + 30 * MIN, { batteryVoltage: 3.5 });
  // The other floor's anchor, in the same window as A1's past reports.
  report(elsewhere, PAST, {});
  await writeReports(t.db);
});

afterAll(() => t.close());

describe('GET /api/floors/{id}/node-information', () => {
  it('shows each node as it was at a past time: its older report, its neighbours and its health then', async () => {
    const response = await get(`/api/floors/${floorId}/node-information?timestamp=${iso(PAST)}`);
    expect(response.statusCode).toBe(200);
    const data = response.json.data as FloorNodeInformation;
    expect(data.floorId).toBe(floorId);
    expect(data.at).toBe(iso(PAST));
    const byId = new Map(data.nodes.map((n) => [n.nodeId, n]));
    expect([...byId.keys()]).toContain(sink.nodeId);
    expect(byId.has(elsewhere.nodeId)).toBe(false);
    const first = byId.get(a1.nodeId);
    expect(first?.reading).toMatchObject({ ts: iso(PAST - 5 * MIN), batteryVoltage: 3.55, linkQuality: 80 });
    expect(first?.reading?.neighbors).toEqual([
      { nodeId: a2.nodeId, linkQuality: 70, rssi: -60 },
      { nodeId: elsewhere.nodeId, linkQuality: 40 },
    ]);
    // Five minutes silent at PAST: a warning, nothing else wrong.
    expect(first?.health).toEqual({
      state: 'warning',
      score: 85,
      problems: [{ kind: 'silent', state: 'warning', value: 300 }],
    });
    expect(first?.configured).not.toBeNull();
    // The sink never reported: no reading, bad.
    expect(byId.get(sink.nodeId)).toMatchObject({
      type: 'sink',
      reading: null,
      health: { state: 'bad', problems: [{ kind: 'silent', value: null }] },
    });
  });

  it('shows the latest reports when no time is given', async () => {
    const before = Date.now();
    const response = await get(`/api/floors/${floorId}/node-information`);
    expect(response.statusCode).toBe(200);
    const data = response.json.data as FloorNodeInformation;
    expect(Date.parse(data.at)).toBeGreaterThanOrEqual(before);
    const first = data.nodes.find((n) => n.nodeId === a1.nodeId);
    expect(first?.reading).toMatchObject({ ts: iso(NOW - 30_000), batteryVoltage: 3.39, neighbors: [] });
    // Moved 1.2 m, over three times the default 0.3 m: bad; its battery is low too.
    expect(first?.health.state).toBe('bad');
    expect(first?.health.problems.map((p) => p.kind)).toEqual(['moved', 'lowBattery']);
  });

  it('refuses a timestamp that is not one, naming the field', async () => {
    for (const bad of ['yesterday', '2026-02-30T10:00:00Z', '']) {
      const response = await get(
        `/api/floors/${floorId}/node-information?timestamp=${encodeURIComponent(bad)}`,
      );
      expect(response.statusCode, bad).toBe(422);
      expect(response.json.errors).toEqual({
        timestamp: 'Timestamp must be an ISO 8601 date and time, e.g. 2026-11-26T08:00:00Z',
      });
    }
  });
});

describe('GET /api/sites/{id}/nodes', () => {
  it('lists every anchor and sink of the site with where it is, its health and its battery forecast', async () => {
    const response = await get(`/api/sites/${siteId}/nodes`);
    expect(response.statusCode).toBe(200);
    const data = response.json.data as SiteNodes;
    expect(data.siteId).toBe(siteId);
    expect(data.movedThresholdMetres).toBe(0.3);
    const byId = new Map(data.nodes.map((n) => [n.nodeId, n]));
    expect(byId.has(elsewhere.nodeId)).toBe(true);
    expect(byId.has(foreignNodeId)).toBe(false);
    const draining = byId.get(a2.nodeId);
    expect(draining?.floorName).toEqual(expect.any(String));
    expect(draining?.buildingName).toEqual(expect.any(String));
    expect(draining?.forecast.basis).toBe('trend');
    expect(draining?.forecast.voltsPerDay).toBeCloseTo(-0.05, 3);
    // 3.30 V now, 0.05 V a day: the cut-off in two days, give or take an hour.
    const reaches = Date.parse(draining?.forecast.reachesCutoffAt ?? '');
    expect(Math.abs(reaches - (NOW + 2 * DAY))).toBeLessThan(HOUR);
    expect(draining?.health.problems.map((p) => p.kind)).toEqual(['lowBattery']);
    expect(byId.get(a3.nodeId)?.forecast.basis).toBe('flat');
    expect(byId.get(a1.nodeId)?.forecast.basis).toBe('tooShort');
    expect(byId.get(sink.nodeId)?.forecast).toEqual({
      basis: 'tooShort',
      reachesCutoffAt: null,
      voltsPerDay: null,
      cutoffVolts: 4.2,
    });
  });
});

describe('the site list’s battery trends', () => {
  it('keeps the hours that are over and reads only the reports since', async () => {
    const first = await siteVoltageTrends(t.db, siteId, NOW);
    expect(first.get(a4.id)?.map((p) => p.volts)).toEqual(Array(10).fill(3.5));
    // A report arriving hours late, for an hour already kept, and one of the hour under way.
    reports.length = 0;
    report(a4, NOW - 3 * HOUR + 10 * MIN, { batteryVoltage: 2 });
    report(a4, NOW + MIN, { batteryVoltage: 3 });
    await writeReports(t.db);
    const later = await siteVoltageTrends(t.db, siteId, NOW + 2 * MIN);
    const volts = later.get(a4.id)?.map((p) => p.volts) ?? [];
    expect(volts.filter((v) => v === 3.5).length).toBeGreaterThanOrEqual(9);
    expect(Math.min(...volts)).toBeGreaterThanOrEqual(3);
    expect(Math.min(...volts)).toBeLessThan(3.5);
    // Asked afresh (one node's trend keeps nothing), the late report counts.
    const afresh = await nodeVoltageTrend(t.db, a4.id, NOW + 2 * MIN);
    expect(Math.min(...afresh.map((p) => p.volts))).toBeLessThan(3);
  });
});

describe('GET /api/sites/{id}/nodes/{nodeId}/history', () => {
  const historyOf = (nodeId: string, fromMs: number, toMs: number) =>
    get(`/api/sites/${siteId}/nodes/${nodeId}/history?from=${iso(fromMs)}&to=${iso(toMs)}`);

  it('gives the raw reports of a short range, and health spans with silent gaps', async () => {
    const response = await historyOf(a1.nodeId, PAST - HOUR, PAST + HOUR);
    expect(response.statusCode).toBe(200);
    const history = response.json.data as NodeHistory;
    expect(history.bucketMs).toBeNull();
    expect(history.t).toEqual([PAST - 5 * MIN, PAST + 30 * MIN]);
    expect(history.batteryVoltage).toEqual([3.55, 3.4]);
    expect(history.displacementError).toEqual([0.05, 0.5]);
    expect(history.healthStates).toEqual([
      { from: iso(PAST - HOUR), to: iso(PAST - 5 * MIN), state: 'bad' },
      { from: iso(PAST - 5 * MIN), to: iso(PAST - 2 * MIN), state: 'ok' },
      { from: iso(PAST - 2 * MIN), to: iso(PAST + 10 * MIN), state: 'warning' },
      { from: iso(PAST + 10 * MIN), to: iso(PAST + 30 * MIN), state: 'bad' },
      { from: iso(PAST + 30 * MIN), to: iso(PAST + 45 * MIN), state: 'warning' },
      { from: iso(PAST + 45 * MIN), to: iso(PAST + HOUR), state: 'bad' },
    ]);
  });

  it('averages a long range into at most 1,000 buckets', async () => {
    const response = await historyOf(a3.nodeId, NOW - DAY, NOW);
    expect(response.statusCode).toBe(200);
    const history = response.json.data as NodeHistory;
    expect(history.bucketMs).toBe(2 * MIN);
    expect(history.t.length).toBeGreaterThan(700);
    expect(history.t.length).toBeLessThanOrEqual(1000);
    expect(history.t.every((ms) => ms % (2 * MIN) === 0)).toBe(true);
    // Each two-minute bucket holds one 60 and one 80 report (the first and last may hold one).
    expect(new Set(history.linkQuality.slice(1, -1))).toEqual(new Set([70]));
    expect(history.batteryVoltage.every((v) => v === 3.6)).toBe(true);
    expect(history.healthStates).toEqual([{ from: iso(NOW - DAY), to: iso(NOW), state: 'ok' }]);
    expect(history.forecast.basis).toBe('flat');
  });

  it('refuses a range backwards, over 31 days or not dates, and a node of another client as unknown', async () => {
    const backwards = await historyOf(a1.nodeId, PAST, PAST - HOUR);
    expect(backwards.statusCode).toBe(422);
    expect(backwards.json.errors).toEqual({ to: 'To must be later than From' });
    const tooLong = await historyOf(a1.nodeId, NOW - 32 * DAY, NOW);
    expect(tooLong.json).toMatchObject({ errors: { to: 'The range may span at most 31 days' } });
    const notDates = await get(`/api/sites/${siteId}/nodes/${a1.nodeId}/history?from=soon&to=later`);
    expect(notDates.statusCode).toBe(422);
    const unknown = await historyOf('NO-SUCH-NODE', PAST - HOUR, PAST);
    const foreign = await historyOf(foreignNodeId, PAST - HOUR, PAST);
    expect(unknown.statusCode).toBe(404);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json).toEqual(unknown.json);
    expect(unknown.json.message).toBe('Node not found');
    // A NUL in the id (PostgreSQL refuses it in a text parameter) is an unknown node, not a 500.
    expect((await historyOf('ANC%00', PAST - HOUR, PAST)).json).toEqual(unknown.json);
  });
});

describe('GET /api/installation/{floorId}/assets/list/{type}', () => {
  it('lists the floor’s anchors, its sinks, or both, at a time', async () => {
    const ids = async (type: string) => {
      const response = await get(`/api/installation/${floorId}/assets/list/${type}?timestamp=${iso(PAST)}`);
      expect(response.statusCode).toBe(200);
      const list = response.json.data as AssetList;
      expect(list).toMatchObject({ floorId, type, at: iso(PAST) });
      return list.nodes.map((n) => n.nodeId);
    };
    const anchors = await ids('anchor');
    expect(anchors).toEqual(expect.arrayContaining([a1.nodeId, a2.nodeId, a3.nodeId]));
    expect(anchors).not.toContain(sink.nodeId);
    expect(await ids('sink')).toEqual([sink.nodeId]);
    expect((await ids('all')).sort()).toEqual([...anchors, sink.nodeId].sort());
    expect((await get(`/api/installation/${floorId}/assets/list/helmet`)).statusCode).toBe(422);
  });
});

describe('GET /api/installation/{floorId}/assets/list/playback/{from}/{to}', () => {
  const playbackUrl = (fromMs: number, toMs: number, cursor?: string) =>
    `/api/installation/${floorId}/assets/list/playback/${iso(fromMs)}/${iso(toMs)}${cursor ? `?cursor=${cursor}` : ''}`;

  it('replays the floor’s reports in time order with neighbours of this floor as index pairs', async () => {
    const response = await get(playbackUrl(PAST - HOUR, PAST + HOUR));
    expect(response.statusCode).toBe(200);
    const chunk = response.json.data as NodePlaybackChunk;
    expect(chunk.nextCursor).toBeNull();
    expect(chunk.startMs).toBe(PAST - HOUR);
    const samples = chunk.t.map((t, i) => ({
      ms: chunk.startMs + t,
      node: chunk.nodes[chunk.n[i]].nodeId,
      i,
    }));
    const ofA1 = samples.filter((s) => s.node === a1.nodeId);
    expect(ofA1.map((s) => s.ms)).toEqual([PAST - 5 * MIN, PAST + 30 * MIN]);
    // The other floor's anchor reported in the window, but not on this floor.
    expect(samples.some((s) => s.node === elsewhere.nodeId)).toBe(false);
    const [before, after] = ofA1.map((s) => s.i);
    const indexOf = (nodeId: string) => chunk.nodes.findIndex((n) => n.nodeId === nodeId);
    expect(chunk.neighbors[before]).toEqual([[indexOf(a2.nodeId), 70]]);
    expect(chunk.neighbors[after]).toEqual([[indexOf(a3.nodeId), 35]]);
    expect(chunk.health[before]).toBe('ok');
    expect(chunk.health[after]).toBe('warning');
    expect(chunk.displacementError[after]).toBe(0.5);
    expect(chunk.batteryVoltage[after]).toBe(3.4);
    const times = samples.map((s) => s.ms);
    expect(times).toEqual([...times].sort((x, y) => x - y));
  });

  it('hands out a long range in chunks whose cursors cover every report once, in order', async () => {
    const window = { from: new Date(NOW - 3 * HOUR), to: new Date(NOW) };
    const floor = { id: floorId, siteId };
    const whole = (await get(playbackUrl(window.from.getTime(), window.to.getTime()))).json
      .data as NodePlaybackChunk;
    const key = (c: NodePlaybackChunk, i: number) => `${c.startMs + c.t[i]}/${c.nodes[c.n[i]].nodeId}`;
    const expected = whole.t.map((_, i) => key(whole, i));
    // Three hours of A3 every minute and A2 every 15 min, A1 once.
    expect(expected.length).toBeGreaterThan(180);
    const seen: string[] = [];
    let cursor: string | null = null;
    let chunks = 0;
    do {
      const chunk: NodePlaybackChunk = await readNodePlaybackChunk(t.db, {
        floor,
        window,
        cursor: cursor === null ? undefined : decodeCursor(cursor, window),
        movedThresholdM: 0.3,
        limit: 50,
      });
      chunks += 1;
      for (let i = 0; i < chunk.t.length; i++) seen.push(key(chunk, i));
      cursor = chunk.nextCursor;
      if (chunks === 1 && cursor) {
        // The route takes the cursor too and goes on from the report after it.
        const next = (await get(playbackUrl(window.from.getTime(), window.to.getTime(), cursor))).json
          .data as NodePlaybackChunk;
        expect(key(next, 0)).toBe(expected[50]);
      }
    } while (cursor !== null);
    expect(chunks).toBe(Math.ceil(expected.length / 50));
    expect(seen).toEqual(expected);
  });

  it('refuses a bad range or cursor', async () => {
    expect((await get(playbackUrl(PAST, PAST - HOUR))).statusCode).toBe(422);
    expect((await get(playbackUrl(NOW - 40 * DAY, NOW))).statusCode).toBe(422);
    const notDate = await get(`/api/installation/${floorId}/assets/list/playback/then/${iso(PAST)}`);
    expect(notDate.statusCode).toBe(422);
    expect(notDate.json.errors).toEqual({
      from: 'From must be an ISO 8601 date and time, e.g. 2026-11-26T08:00:00Z',
    });
    const badCursor = await get(playbackUrl(PAST - HOUR, PAST + HOUR, 'not-a-cursor'));
    expect(badCursor.statusCode).toBe(422);
  });
});

describe('GET /api/installation/{floorId}/assets/item/{nodeId}/{type}', () => {
  it('gives one node at a time with its history six hours either side', async () => {
    const response = await get(
      `/api/installation/${floorId}/assets/item/${a1.nodeId}/anchor?timestamp=${iso(PAST + 5 * MIN)}`,
    );
    expect(response.statusCode).toBe(200);
    const item = response.json.data as AssetItem;
    expect(item.node.reading?.ts).toBe(iso(PAST - 5 * MIN));
    expect(item.node.health.problems).toEqual([{ kind: 'silent', state: 'warning', value: 600 }]);
    expect(item.history.from).toBe(iso(PAST + 5 * MIN - 6 * HOUR));
    expect(item.history.to).toBe(iso(PAST + 5 * MIN + 6 * HOUR));
    expect(item.history.t).toEqual([PAST - 5 * MIN, PAST + 30 * MIN]);
  });

  it('answers a node of another type, floor or client as it answers an unknown one', async () => {
    const item = (nodeId: string, type: string) =>
      get(`/api/installation/${floorId}/assets/item/${nodeId}/${type}`);
    const unknown = await item('NO-SUCH-NODE', 'anchor');
    expect(unknown.statusCode).toBe(404);
    for (const [nodeId, type] of [
      [a1.nodeId, 'sink'],
      [elsewhere.nodeId, 'anchor'],
      [foreignNodeId, 'anchor'],
    ]) {
      const response = await item(nodeId, type);
      expect(response.statusCode, `${nodeId} ${type}`).toBe(404);
      expect(response.json).toEqual(unknown.json);
    }
    const badTime = await get(`/api/installation/${floorId}/assets/item/${a1.nodeId}/anchor?timestamp=noon`);
    expect(badTime.statusCode).toBe(422);
  });
});

describe('who may read the nodes', () => {
  const urls = () => [
    `/api/floors/${floorId}/node-information`,
    `/api/sites/${siteId}/nodes`,
    `/api/sites/${siteId}/nodes/${a1.nodeId}/history?from=${iso(PAST - HOUR)}&to=${iso(PAST)}`,
    `/api/installation/${floorId}/assets/list/all`,
    `/api/installation/${floorId}/assets/list/playback/${iso(PAST - HOUR)}/${iso(PAST)}`,
    `/api/installation/${floorId}/assets/item/${a1.nodeId}/anchor`,
  ];

  it('lets site admins and site engineers in and refuses viewers, crew managers and the safety demo', async () => {
    for (const url of urls()) {
      expect((await get(url, 'group-of-sites-admin')).statusCode, url).toBe(200);
      expect((await get(url, 'site-engineer')).statusCode, url).toBe(200);
      for (const role of ['group-of-sites-viewer', 'crew-manager', 'safety-demo'] as const) {
        const response = await get(url, role);
        expect(response.statusCode, `${role} ${url}`).toBe(403);
      }
    }
  });

  it("answers another client's floor or site as not found", async () => {
    const foreign = [
      [`/api/floors/${other.floorId}/node-information`, 'Floor not found'],
      [`/api/sites/${other.siteId}/nodes`, 'Site not found'],
      [
        `/api/sites/${other.siteId}/nodes/${foreignNodeId}/history?from=${iso(PAST - HOUR)}&to=${iso(PAST)}`,
        'Site not found',
      ],
      [`/api/installation/${other.floorId}/assets/list/anchor`, 'Floor not found'],
      [
        `/api/installation/${other.floorId}/assets/list/playback/${iso(PAST - HOUR)}/${iso(PAST)}`,
        'Floor not found',
      ],
      [`/api/installation/${other.floorId}/assets/item/${foreignNodeId}/anchor`, 'Floor not found'],
    ];
    for (const [url, message] of foreign) {
      const response = await get(url);
      expect(response.statusCode, url).toBe(404);
      expect(response.json.message).toBe(message);
    }
  });
});
