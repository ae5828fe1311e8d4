import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { displacementMetres } from '../../src/domain/geo';
import type { Rejection } from '../../src/domain/ingestValidation';
import type { NodeMessage } from '../../src/domain/live';
import type { Db } from '../db/database';
import { inventoryItems, nodeDiagnostics } from '../db/schema';
import { type AnchorReport, type WatchedAnchor, watchAnchorReports } from '../nodes/anchorMovedIncidents';
import { chunks } from './chunks';
import { refuseBeyondRetention, writeIntoDays } from './retainedDays';

export interface NodeWriteResult {
  /** Entries dropped against the database: beyondRetention, unknownTag. */
  rejections: Rejection[];
  accepted: number;
  /** "Anchor moved" incidents raised or resolved by this write. */
  incidentIds: number[];
}

export interface NodeWriteOptions {
  /** The clock the retention is judged by (tests). */
  nowMs?: number;
}

const ROWS_PER_INSERT = 1000;

/**
 * Stores anchor and sink diagnostics of one site in one transaction. A node is an anchor or sink
 * of the site's inventory whose WNT inventory id is the report's nodeId; any other nodeId is an
 * unknownTag. A report marks its node online and moves last_seen forward (never back).
 *
 * Each row keeps the node's floor and the neighbours it heard, and its displacement error is the
 * server's own: the metres between where the node was placed and where the network computed it
 * (null for a node not placed; the reported value is not stored, docs/decisions.md). Anchor
 * reports then run the "anchor moved" rule in the same transaction. Reports older than the
 * retention's cutoff are refused (beyondRetention), as positions are.
 */
export async function writeNodeDiagnostics(
  db: Db,
  siteId: number,
  messages: readonly NodeMessage[],
  options: NodeWriteOptions = {},
): Promise<NodeWriteResult> {
  const { kept, refused } = refuseBeyondRetention(db, messages, options.nowMs);
  if (kept.length === 0) return { rejections: refused, accepted: 0, incidentIds: [] };
  return writeIntoDays(db, 'node_diagnostics', kept, () => writeInTransaction(db, siteId, kept, refused));
}

interface NodeItem extends WatchedAnchor {
  nodeId: string;
  type: string;
  lat: number | null;
  long: number | null;
}

async function writeInTransaction(
  db: Db,
  siteId: number,
  messages: readonly NodeMessage[],
  early: readonly Rejection[],
): Promise<NodeWriteResult> {
  const rejections: Rejection[] = [...early];
  return db.transaction(async (tx) => {
    const nodeIds = [...new Set(messages.map((m) => m.nodeId))];
    // Locked in id order: the anchor-moved rule reads and moves each anchor's state.
    const items: NodeItem[] = await tx
      .select({
        id: inventoryItems.id,
        nodeId: inventoryItems.wntInventoryId,
        type: inventoryItems.type,
        floorId: inventoryItems.floorId,
        zoneId: inventoryItems.zoneId,
        lat: inventoryItems.lat,
        long: inventoryItems.long,
        displacedSince: inventoryItems.displacedSince,
        lastSeen: inventoryItems.lastSeen,
      })
      .from(inventoryItems)
      .where(
        and(
          eq(inventoryItems.siteId, siteId),
          inArray(inventoryItems.type, ['anchor', 'sink']),
          inArray(inventoryItems.wntInventoryId, nodeIds),
        ),
      )
      .orderBy(asc(inventoryItems.id))
      .for('update');
    const itemByNode = new Map(items.map((item) => [item.nodeId, item]));
    const rows: (typeof nodeDiagnostics.$inferInsert)[] = [];
    const anchorReports: AnchorReport[] = [];
    const latestByItem = new Map<number, string>();
    for (const message of messages) {
      const item = itemByNode.get(message.nodeId);
      if (!item) {
        rejections.push({ reason: 'unknownTag', entry: message });
        continue;
      }
      const ms = Date.parse(message.ts);
      const displacement =
        item.lat === null || item.long === null
          ? null
          : displacementMetres({ lat: item.lat, long: item.long }, message);
      rows.push({
        siteId,
        inventoryItemId: item.id,
        floorId: item.floorId,
        networkId: message.networkId,
        nodeId: message.nodeId,
        type: message.type,
        bufferUsage: message.bufferUsage,
        linkQuality: message.linkQuality,
        batteryVoltage: message.batteryVoltage,
        displacementError: displacement,
        lat: message.lat,
        long: message.long,
        neighbors: message.neighbors ?? [],
        ts: new Date(ms),
      });
      if (item.type === 'anchor') anchorReports.push({ anchor: item, ms, displacementMetres: displacement });
      const latest = latestByItem.get(item.id);
      if (latest === undefined || ms > Date.parse(latest)) latestByItem.set(item.id, message.ts);
    }
    for (const slice of chunks(rows, ROWS_PER_INSERT))
      await tx.insert(nodeDiagnostics).values(slice).onConflictDoNothing();
    const incidentIds = await watchAnchorReports(tx, siteId, anchorReports, new Date());
    if (latestByItem.size > 0) {
      const values = sql.join(
        [...latestByItem].map(([id, ts]) => sql`(${id}::int, ${ts}::timestamptz)`),
        sql`, `,
      );
      await tx.execute(sql`
        update ${inventoryItems} as i set is_online = true, last_seen = v.ts
        from (values ${values}) as v(id, ts)
        where i.id = v.id and (i.last_seen is null or i.last_seen < v.ts)`);
    }
    return { rejections, accepted: rows.length, incidentIds };
  });
}
