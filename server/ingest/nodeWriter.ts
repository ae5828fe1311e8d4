import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Rejection } from '../../src/domain/ingestValidation';
import type { NodeMessage } from '../../src/domain/live';
import {
  ensurePositionPartitions,
  forgetKnownPartitions,
  isMissingPartition,
} from '../analytics/positionPartitions';
import type { Db } from '../db/database';
import { inventoryItems, nodeDiagnostics } from '../db/schema';
import { chunks } from './chunks';

export interface NodeWriteResult {
  rejections: Rejection[];
  accepted: number;
}

const ROWS_PER_INSERT = 1000;

/**
 * Stores anchor and sink diagnostics of one site in one transaction. A node is an anchor or sink
 * of the site's inventory whose WNT inventory id is the report's nodeId; any other nodeId is an
 * unknownTag. A report marks its node online and moves last_seen forward (never back).
 */
export async function writeNodeDiagnostics(
  db: Db,
  siteId: number,
  messages: readonly NodeMessage[],
): Promise<NodeWriteResult> {
  if (messages.length === 0) return { rejections: [], accepted: 0 };
  const days = messages.map((m) => Date.parse(m.ts));
  // The days' partitions, outside the transaction (creating one waits for running writers).
  await ensurePositionPartitions(db, days, 'node_diagnostics');
  try {
    return await writeInTransaction(db, siteId, messages);
  } catch (error) {
    if (!isMissingPartition(error)) throw error;
    forgetKnownPartitions(db);
    await ensurePositionPartitions(db, days, 'node_diagnostics');
    return writeInTransaction(db, siteId, messages);
  }
}

async function writeInTransaction(
  db: Db,
  siteId: number,
  messages: readonly NodeMessage[],
): Promise<NodeWriteResult> {
  const rejections: Rejection[] = [];
  return db.transaction(async (tx) => {
    const nodeIds = [...new Set(messages.map((m) => m.nodeId))];
    const items = await tx
      .select({
        id: inventoryItems.id,
        nodeId: inventoryItems.wntInventoryId,
        floorId: inventoryItems.floorId,
      })
      .from(inventoryItems)
      .where(
        and(
          eq(inventoryItems.siteId, siteId),
          inArray(inventoryItems.type, ['anchor', 'sink']),
          inArray(inventoryItems.wntInventoryId, nodeIds),
        ),
      );
    const itemByNode = new Map(items.map((item) => [item.nodeId, item]));
    const known = messages.filter((message) => {
      if (itemByNode.has(message.nodeId)) return true;
      rejections.push({ reason: 'unknownTag', entry: message });
      return false;
    });
    const latestByItem = new Map<number, string>();
    for (const message of known) {
      const id = (itemByNode.get(message.nodeId) as { id: number }).id;
      const latest = latestByItem.get(id);
      if (latest === undefined || Date.parse(message.ts) > Date.parse(latest))
        latestByItem.set(id, message.ts);
    }
    for (const rows of chunks(known, ROWS_PER_INSERT)) {
      await tx
        .insert(nodeDiagnostics)
        .values(
          rows.map((m) => ({
            siteId,
            inventoryItemId: (itemByNode.get(m.nodeId) as { id: number }).id,
            floorId: (itemByNode.get(m.nodeId) as { floorId: number | null }).floorId,
            networkId: m.networkId,
            nodeId: m.nodeId,
            type: m.type,
            bufferUsage: m.bufferUsage,
            linkQuality: m.linkQuality,
            batteryVoltage: m.batteryVoltage,
            displacementError: m.displacementError,
            lat: m.lat,
            long: m.long,
            ts: new Date(m.ts),
          })),
        )
        .onConflictDoNothing();
    }
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
    return { rejections, accepted: known.length };
  });
}
