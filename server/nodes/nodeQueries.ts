import { type SQL, sql } from 'drizzle-orm';
import { type NodeType, nodeHealth } from '../../src/domain/nodeHealth';
import type { NodeInformation } from '../../src/domain/schemas/nodes';
import { DAY_MS, positionsRetentionDays } from '../analytics/positionPartitions';
import type { Db } from '../db/database';
import {
  asNodeType,
  hasReading,
  healthReadingOf,
  nodeReadingOf,
  type ReadingRecord,
  readingColumns,
  timestampOf,
} from './nodeReadings';

/**
 * The anchors and sinks of a site (or of one floor) as they were at a time: each node's latest
 * report at or before then, found by one backward probe of the (inventory_item_id, ts) primary key
 * per node (a LATERAL … ORDER BY ts DESC LIMIT 1). The partitions after the time are pruned when
 * the statement is planned, and the probe stops in the first partition back that holds a report
 * of the node, so a time 15 days ago costs what "now" does (bench/nodeInformation.bench.ts).
 *
 * A node belongs to the floor it is placed on now (inventory_items.floor_id): the floor's
 * anchors and sinks, each with what it reported then.
 */

export interface NodeScope {
  siteId: number;
  floorId?: number;
  type?: NodeType;
  /** One node, by its WNT inventory id. */
  nodeId?: string;
}

export interface NodeRecord extends ReadingRecord {
  id: number;
  node_id: string;
  network_id: number | null;
  type: string;
  floor_id: number | null;
  is_approved: boolean;
  placed_lat: number | null;
  placed_long: number | null;
  floor_name: string | null;
  building_id: number | null;
  building_name: string | null;
}

/** The statement of `nodesAt` (the benchmark EXPLAINs it). */
export function nodesAtStatement(db: Db, scope: NodeScope, atMs: number): SQL {
  const conditions: SQL[] = [sql`i.site_id = ${scope.siteId}`];
  conditions.push(scope.type ? sql`i.type = ${scope.type}` : sql`i.type in ('anchor', 'sink')`);
  if (scope.floorId !== undefined) conditions.push(sql`i.floor_id = ${scope.floorId}`);
  if (scope.nodeId !== undefined) conditions.push(sql`i.wnt_inventory_id = ${scope.nodeId}`);
  // No report survives the retention: the bound lets the planner drop older partitions too.
  const oldest = atMs - (positionsRetentionDays(db) + 1) * DAY_MS;
  return sql`
    select i.id, i.wnt_inventory_id as node_id, i.network_id, i.type, i.floor_id, i.is_approved,
      i.lat as placed_lat, i.long as placed_long, f.name as floor_name, b.id as building_id,
      b.name as building_name, ${readingColumns('d')}, d.neighbors as n
    from inventory_items i
    left join floors f on f.id = i.floor_id
    left join buildings b on b.id = f.building_id
    left join lateral (
      select * from node_diagnostics nd
      where nd.inventory_item_id = i.id and nd.ts <= ${timestampOf(atMs)} and nd.ts > ${timestampOf(oldest)}
      order by nd.ts desc
      limit 1
    ) d on true
    where ${sql.join(conditions, sql` and `)}
    order by i.id`;
}

/** Each node of the scope, in id order, with its latest report at or before `atMs` (or none). */
export async function nodesAt(db: Db, scope: NodeScope, atMs: number): Promise<NodeRecord[]> {
  const result = (await db.execute(nodesAtStatement(db, scope, atMs))) as unknown as { rows: NodeRecord[] };
  return result.rows;
}

/** A node as the replies show it, its health judged at `atMs` with the site's moved threshold. */
export function nodeInformationOf(
  record: NodeRecord,
  atMs: number,
  movedThresholdM: number,
): NodeInformation {
  const type = asNodeType(record.type);
  const withReading = hasReading(record) ? record : null;
  const placed = record.placed_lat !== null && record.placed_long !== null;
  return {
    id: Number(record.id),
    nodeId: record.node_id,
    networkId: record.network_id === null ? null : Number(record.network_id),
    type,
    floorId: record.floor_id === null ? null : Number(record.floor_id),
    isApproved: record.is_approved,
    configured: placed ? { lat: Number(record.placed_lat), long: Number(record.placed_long) } : null,
    reading: withReading ? nodeReadingOf(withReading) : null,
    health: nodeHealth(withReading ? healthReadingOf(withReading) : null, {
      type,
      nowMs: atMs,
      movedThresholdM,
    }),
  };
}
