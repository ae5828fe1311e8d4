import { asc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DAY_MS,
  listPositionPartitions,
  partitionName,
  startPositionPartitions,
  utcDayStart,
} from '../../server/analytics/positionPartitions';
import { inventoryItems, nodeDiagnostics } from '../../server/db/schema';
import { writeNodeDiagnostics } from '../../server/ingest/nodeWriter';
import { displacementMetres } from '../../src/domain/geo';
import { MAX_NEIGHBORS_PER_REPORT } from '../../src/domain/ingestValidation';
import type { NodeMessage } from '../../src/domain/live';
import { type DemoFloorFixture, demoFloor } from './helpers/ingestFixture';
import { startTestApp, type TestApp } from './helpers/testApp';
import { startTestBroker, type TestBroker } from './helpers/testBroker';
import { type IngestWithSender, quietLogger, startIngestWithSender } from './helpers/testIngest';

/** Metres per degree of latitude on spec §9's earth. */
const METRES_PER_DEGREE = (6_371_000 * Math.PI) / 180;

type LatLong = { lat: number; long: number };

interface Node {
  id: number;
  nodeId: string;
  placed: LatLong | null;
}

let t: TestApp;
let fixture: DemoFloorFixture;

beforeAll(async () => {
  t = await startTestApp();
  fixture = await demoFloor(t.db);
});
afterAll(() => t?.close());

describe('node reports through the broker', () => {
  let broker: TestBroker;
  let rig: IngestWithSender;

  beforeAll(async () => {
    broker = await startTestBroker(t.db);
    rig = await startIngestWithSender(t, broker);
  });
  afterAll(async () => {
    await rig?.close();
    await broker?.close();
  });

  /** An anchor or sink of the demo site, placed on Level 1 at a point (fractions of the floor) or not placed. */
  async function seedNode(
    nodeId: string,
    type: 'anchor' | 'sink',
    at: [number, number] | null,
  ): Promise<Node> {
    const placed = at ? fixture.at(at[0], at[1]) : null;
    const [row] = await t.db
      .insert(inventoryItems)
      .values({
        siteId: fixture.siteId,
        wntInventoryId: nodeId,
        type,
        floorId: placed ? fixture.floor.id : null,
        lat: placed?.lat ?? null,
        long: placed?.long ?? null,
        isApproved: placed !== null && type === 'anchor',
      })
      .returning();
    return { id: row.id, nodeId, placed };
  }

  /** A report of the node `northMetres` north of where it was placed (or of the floor's middle). */
  function report(node: Node, secondsAgo: number, northMetres: number, more: Record<string, unknown> = {}) {
    const from = node.placed ?? fixture.at(0.5, 0.5);
    return {
      networkId: 1,
      nodeId: node.nodeId,
      type: 'anchor',
      bufferUsage: 14,
      linkQuality: 82,
      batteryVoltage: 3.58,
      // What the network claims; the server measures its own.
      displacementError: 9.99,
      ts: new Date(Date.now() - secondsAgo * 1000).toISOString(),
      lat: from.lat + northMetres / METRES_PER_DEGREE,
      long: from.long,
      ...more,
    };
  }

  const rowsOf = (node: Node) =>
    t.db
      .select()
      .from(nodeDiagnostics)
      .where(eq(nodeDiagnostics.inventoryItemId, node.id))
      .orderBy(asc(nodeDiagnostics.ts));

  const rejectedSince = (before: Record<string, number>) => {
    const after = rig.ingest.stats().rejected;
    return Object.fromEntries(
      Object.entries(after)
        .map(([reason, count]) => [reason, count - (before[reason] ?? 0)])
        .filter(([, delta]) => delta !== 0),
    );
  };

  it('stores reports with and without neighbours, with the floor and the displacement measured from the placement', async () => {
    const anchor = await seedNode('NI-A1', 'anchor', [0.4, 0.4]);
    const sink = await seedNode('NI-S1', 'sink', [0.6, 0.6]);
    const withNeighbours = report(anchor, 20, 0.5, {
      neighbors: [
        { nodeId: 'NI-S1', linkQuality: 77, rssi: -64 },
        { nodeId: 'NI-A2', linkQuality: 31 },
      ],
    });
    const without = report(sink, 20, 0, { type: 'sink' });
    await rig.send(fixture.siteId, 'nodes', [withNeighbours, without]);

    const [anchorRow] = await rowsOf(anchor);
    expect(anchorRow).toMatchObject({
      siteId: fixture.siteId,
      inventoryItemId: anchor.id,
      floorId: fixture.floor.id,
      nodeId: 'NI-A1',
      type: 'anchor',
      batteryVoltage: 3.58,
      lat: withNeighbours.lat,
      long: withNeighbours.long,
      neighbors: [
        { nodeId: 'NI-S1', linkQuality: 77, rssi: -64 },
        { nodeId: 'NI-A2', linkQuality: 31 },
      ],
    });
    expect(anchorRow.ts.toISOString()).toBe(withNeighbours.ts);
    // Half a metre north of where it was placed, whatever the network said (9.99 m).
    expect(anchorRow.displacementError).toBeCloseTo(0.5, 3);
    expect(anchorRow.displacementError).toBe(displacementMetres(anchor.placed as LatLong, withNeighbours));

    const [sinkRow] = await rowsOf(sink);
    expect(sinkRow).toMatchObject({ floorId: fixture.floor.id, neighbors: [], type: 'sink' });
    expect(sinkRow.displacementError).toBeCloseTo(0, 6);
  });

  it('counts bad neighbour entries and keeps the report with its good neighbours', async () => {
    const anchor = await seedNode('NI-A3', 'anchor', [0.3, 0.3]);
    const before = rig.ingest.stats().rejected;
    const acceptedBefore = rig.ingest.stats().accepted;
    const sent = report(anchor, 15, 0.05, {
      neighbors: [
        { nodeId: 'NI-A4', linkQuality: 64, rssi: -70 },
        { nodeId: 'NI-A5', linkQuality: 140 },
        { nodeId: 'NI-A6' },
        { nodeId: 'NI-A4', linkQuality: 20 },
        { nodeId: 'NI-A3', linkQuality: 99 },
        { nodeId: 'NI-\u0007', linkQuality: 50 },
        { nodeId: 'NI-A7', linkQuality: 55, rssi: -500 },
        { nodeId: 'NI-A8', linkQuality: 12 },
      ],
    });
    // A second report of the same node whose neighbours are not a list: that report alone is refused.
    const broken = report(anchor, 10, 0.05, { neighbors: { nodeId: 'NI-A4', linkQuality: 64 } });
    await rig.send(fixture.siteId, 'nodes', [sent, broken]);

    const rows = await rowsOf(anchor);
    expect(rows).toHaveLength(1);
    expect(rows[0].ts.toISOString()).toBe(sent.ts);
    expect(rows[0].neighbors).toEqual([
      { nodeId: 'NI-A4', linkQuality: 64, rssi: -70 },
      { nodeId: 'NI-A8', linkQuality: 12 },
    ]);
    expect(rig.ingest.stats().accepted - acceptedBefore).toBe(1);
    // Two out of range (quality 140, rssi -500), three badly shaped (no quality, a duplicate,
    // the node itself) plus the report whose neighbours were not a list, one control character.
    expect(rejectedSince(before)).toEqual({ outOfRange: 2, badShape: 4, controlCharacter: 1 });
  });

  it(`keeps the first ${MAX_NEIGHBORS_PER_REPORT} neighbours of a report and counts the others`, async () => {
    const anchor = await seedNode('NI-A9', 'anchor', [0.2, 0.6]);
    const before = rig.ingest.stats().rejected;
    const neighbors = Array.from({ length: MAX_NEIGHBORS_PER_REPORT + 6 }, (_, i) => ({
      nodeId: `NI-N${i}`,
      linkQuality: 50,
    }));
    await rig.send(fixture.siteId, 'nodes', report(anchor, 12, 0, { neighbors }));
    const [row] = await rowsOf(anchor);
    expect(row.neighbors).toHaveLength(MAX_NEIGHBORS_PER_REPORT);
    expect(rejectedSince(before)).toEqual({ outOfRange: 6 });
  });

  it('stores no displacement for a node that is not placed, whatever the network reports', async () => {
    const loose = await seedNode('NI-A10', 'anchor', null);
    await rig.send(fixture.siteId, 'nodes', report(loose, 8, 3));
    const [row] = await rowsOf(loose);
    expect(row).toMatchObject({ displacementError: null, floorId: null, neighbors: [] });
    const [item] = await t.db.select().from(inventoryItems).where(eq(inventoryItems.id, loose.id));
    expect(item).toMatchObject({ isOnline: true, displacedSince: null });
  });
});

describe('node history partitions and retention', () => {
  let anchor: { id: number; nodeId: string };

  beforeAll(async () => {
    const [row] = await t.db
      .insert(inventoryItems)
      .values({ siteId: fixture.siteId, wntInventoryId: 'NR-A1', type: 'anchor' })
      .returning();
    anchor = { id: row.id, nodeId: 'NR-A1' };
  });

  const message = (ms: number): NodeMessage => ({
    networkId: 1,
    nodeId: anchor.nodeId,
    type: 'anchor',
    bufferUsage: 5,
    linkQuality: 90,
    batteryVoltage: 3.6,
    displacementError: 0,
    ts: new Date(ms).toISOString(),
    ...fixture.at(0.5, 0.5),
    neighbors: [],
  });
  const nodePartitions = () => listPositionPartitions(t.db, 'node_diagnostics');
  const storedTimes = async () =>
    (
      await t.db
        .select({ ts: nodeDiagnostics.ts })
        .from(nodeDiagnostics)
        .where(eq(nodeDiagnostics.inventoryItemId, anchor.id))
        .orderBy(asc(nodeDiagnostics.ts))
    ).map((row) => row.ts.getTime());

  it('creates node history partitions for today and the next two days, as for positions', async () => {
    const partitioning = await startPositionPartitions({ db: t.db, logger: quietLogger, retentionDays: 30 });
    await partitioning.close();
    const today = utcDayStart(Date.now());
    const ahead = [0, 1, 2].map((days) => partitionName(today + days * DAY_MS, 'node_diagnostics'));
    expect(await nodePartitions()).toEqual(expect.arrayContaining(ahead));
  });

  it('drops node history partitions past the retention, whole, and keeps the recent reports', async () => {
    const now = Date.now();
    const longAgo = now - 40 * DAY_MS;
    // Written while still within the retention (20 days ago): its day's partition made on demand.
    const earlier = await writeNodeDiagnostics(t.db, fixture.siteId, [message(longAgo)], {
      nowMs: now - 20 * DAY_MS,
    });
    expect(earlier.accepted).toBe(1);
    await writeNodeDiagnostics(t.db, fixture.siteId, [message(now - 60_000)]);
    expect(await nodePartitions()).toContain(partitionName(longAgo, 'node_diagnostics'));

    const partitioning = await startPositionPartitions({ db: t.db, logger: quietLogger, retentionDays: 30 });
    await partitioning.close();

    expect(await nodePartitions()).not.toContain(partitionName(longAgo, 'node_diagnostics'));
    const gone = await t.db.execute(
      sql`select to_regclass(${partitionName(longAgo, 'node_diagnostics')}) as t`,
    );
    expect((gone as unknown as { rows: { t: unknown }[] }).rows[0].t).toBeNull();
    expect(await storedTimes()).toEqual([now - 60_000]);
  });

  it('refuses a report older than the retention as beyondRetention and stores the rest', async () => {
    const now = Date.now();
    const tooOld = now - 45 * DAY_MS;
    const fresh = now - 2_000;
    const outcome = await writeNodeDiagnostics(t.db, fixture.siteId, [message(tooOld), message(fresh)]);
    expect(outcome.accepted).toBe(1);
    expect(outcome.rejections.map((r) => r.reason)).toEqual(['beyondRetention']);
    expect(await storedTimes()).toContain(fresh);
    // Nothing was made for the refused day.
    expect(await nodePartitions()).not.toContain(partitionName(tooOld, 'node_diagnostics'));
  });
});
