import { inArray, sql } from 'drizzle-orm';
import { nodeHealth } from '../../src/domain/nodeHealth';
import { NODE_PLAYBACK_CHUNK_READINGS, type NodePlaybackChunk } from '../../src/domain/schemas/nodes';
import { encodeCursor, type HistoryCursor } from '../analytics/historyQueries';
import type { TimeWindow } from '../analytics/historyWindow';
import type { Db } from '../db/database';
import { inventoryItems } from '../db/schema';
import {
  asNodeType,
  healthReadingOf,
  nodeReadingOf,
  type ReadingRecord,
  readingColumns,
  timestampOf,
} from './nodeReadings';

/**
 * One chunk of a floor's node reports in [from, to), in (ts, inventory_item_id) order, for the
 * maintenance map's replay: the reports made on this floor (node_diagnostics.floor_id, its
 * (floor_id, ts) index), with each report's health as judged then. The cursor is the positions
 * history's (server/analytics/historyQueries.ts): the last report's time to the microsecond and
 * its node, so chunks follow each other without a gap or an overlap.
 */

export interface PlaybackRequest {
  floor: { id: number; siteId: number };
  window: TimeWindow;
  cursor?: HistoryCursor;
  movedThresholdM: number;
  /** Reports per chunk; NODE_PLAYBACK_CHUNK_READINGS unless a test asks for fewer. */
  limit?: number;
}

type PlaybackNode = NodePlaybackChunk['nodes'][number];

interface NodeRow {
  id: number;
  nodeId: string;
  type: string;
  lat: number | null;
  long: number | null;
}

const nodeOf = (row: NodeRow): PlaybackNode => ({
  id: row.id,
  nodeId: row.nodeId,
  type: asNodeType(row.type),
  configured: row.lat !== null && row.long !== null ? { lat: row.lat, long: row.long } : null,
});

const nodeColumns = {
  id: inventoryItems.id,
  nodeId: inventoryItems.wntInventoryId,
  type: inventoryItems.type,
  lat: inventoryItems.lat,
  long: inventoryItems.long,
};

/** The floor's anchors and sinks now, in id order: the first entries of every chunk's `nodes`. */
async function floorNodes(db: Db, floor: PlaybackRequest['floor']): Promise<NodeRow[]> {
  const result = (await db.execute(sql`
    select id, wnt_inventory_id as "nodeId", type, lat, long from inventory_items
    where site_id = ${floor.siteId} and floor_id = ${floor.id} and type in ('anchor', 'sink')
    order by id`)) as unknown as { rows: NodeRow[] };
  return result.rows;
}

type PlaybackRecord = ReadingRecord & { s: number | string; i: number; type: string };

export async function readNodePlaybackChunk(db: Db, request: PlaybackRequest): Promise<NodePlaybackChunk> {
  const { floor, window, cursor } = request;
  const limit = request.limit ?? NODE_PLAYBACK_CHUNK_READINGS;
  const cursorCondition = cursor
    ? sql`and d.ts >= ${timestampOf(0)} + ${String(cursor.microseconds)}::bigint * interval '1 microsecond'
        and (d.ts, d.inventory_item_id) > (${timestampOf(0)} + ${String(cursor.microseconds)}::bigint * interval '1 microsecond', ${cursor.inventoryItemId}::int)`
    : sql``;
  const result = (await db.execute(sql`
    select ${readingColumns('d')}, d.neighbors as n, d.inventory_item_id as i, d.type
    from node_diagnostics d
    where d.floor_id = ${floor.id} and d.site_id = ${floor.siteId}
      and d.ts >= ${timestampOf(window.from.getTime())} and d.ts < ${timestampOf(window.to.getTime())}
      ${cursorCondition}
    order by d.ts, d.inventory_item_id
    limit ${limit + 1}`)) as unknown as { rows: PlaybackRecord[] };
  const more = result.rows.length > limit;
  const records = more ? result.rows.slice(0, limit) : result.rows;

  const nodes = (await floorNodes(db, floor)).map(nodeOf);
  const indexById = new Map(nodes.map((node, index) => [node.id, index]));
  // Reports of nodes placed elsewhere since: their nodes come after the floor's own.
  const elsewhere = [...new Set(records.map((r) => Number(r.i)))].filter((id) => !indexById.has(id));
  if (elsewhere.length > 0) {
    const rows = await db
      .select(nodeColumns)
      .from(inventoryItems)
      .where(inArray(inventoryItems.id, elsewhere));
    for (const row of rows.sort((a, b) => a.id - b.id)) {
      indexById.set(row.id, nodes.length);
      nodes.push(nodeOf(row));
    }
  }
  const indexByNodeId = new Map(nodes.map((node, index) => [node.nodeId, index]));

  const startMs = window.from.getTime();
  const count = records.length;
  const chunk: NodePlaybackChunk = {
    floorId: floor.id,
    from: window.from.toISOString(),
    to: window.to.toISOString(),
    startMs,
    nodes,
    t: new Array(count),
    n: new Array(count),
    lat: new Array(count),
    long: new Array(count),
    batteryVoltage: new Array(count),
    linkQuality: new Array(count),
    bufferUsage: new Array(count),
    displacementError: new Array(count),
    health: new Array(count),
    neighbors: new Array(count),
    nextCursor: null,
  };
  for (let k = 0; k < count; k++) {
    const record = records[k];
    const reading = nodeReadingOf(record);
    const healthReading = healthReadingOf(record);
    chunk.t[k] = healthReading.tsMs - startMs;
    chunk.n[k] = indexById.get(Number(record.i)) as number;
    chunk.lat[k] = reading.lat;
    chunk.long[k] = reading.long;
    chunk.batteryVoltage[k] = reading.batteryVoltage;
    chunk.linkQuality[k] = reading.linkQuality;
    chunk.bufferUsage[k] = reading.bufferUsage;
    chunk.displacementError[k] = reading.displacementError;
    chunk.health[k] = nodeHealth(healthReading, {
      type: asNodeType(record.type),
      nowMs: healthReading.tsMs,
      movedThresholdM: request.movedThresholdM,
    }).state;
    const links: [number, number][] = [];
    for (const neighbor of reading.neighbors) {
      const index = indexByNodeId.get(neighbor.nodeId);
      if (index !== undefined) links.push([index, neighbor.linkQuality]);
    }
    chunk.neighbors[k] = links;
  }
  if (more && count > 0) {
    const last = records[count - 1];
    chunk.nextCursor = encodeCursor({
      microseconds: Math.round(Number(last.s) * 1e6),
      inventoryItemId: Number(last.i),
    });
  }
  return chunk;
}
