import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Executor } from '../db/executor';
import { inventoryItems } from '../db/schema';

/** A helmet of a site as the ingest writers read it: who wears it, where and in what state it is. */
export interface TaggedHelmet {
  id: number;
  workerId: number | null;
  floorId: number | null;
  zoneId: number | null;
  lat: number | null;
  long: number | null;
  isOnline: boolean;
  isActive: boolean;
  lastSeen: Date | null;
  lastActiveAt: Date | null;
}

/**
 * The site's helmets among the messages' tags, by tag (a tag of no helmet of the site is absent).
 * `lock` takes their rows FOR UPDATE, in id order, for the rest of the transaction.
 */
export async function helmetsByTag(
  tx: Executor,
  siteId: number,
  tags: readonly string[],
  { lock }: { lock: boolean },
): Promise<Map<string, TaggedHelmet>> {
  const query = tx
    .select({
      id: inventoryItems.id,
      tag: inventoryItems.wntInventoryId,
      workerId: inventoryItems.workerId,
      floorId: inventoryItems.floorId,
      zoneId: inventoryItems.zoneId,
      lat: inventoryItems.lat,
      long: inventoryItems.long,
      isOnline: inventoryItems.isOnline,
      isActive: inventoryItems.isActive,
      lastSeen: inventoryItems.lastSeen,
      lastActiveAt: inventoryItems.lastActiveAt,
    })
    .from(inventoryItems)
    .where(
      and(
        eq(inventoryItems.siteId, siteId),
        eq(inventoryItems.type, 'helmet'),
        inArray(inventoryItems.wntInventoryId, [...new Set(tags)]),
      ),
    )
    .orderBy(asc(inventoryItems.id));
  const rows = lock ? await query.for('update') : await query;
  return new Map(rows.map(({ tag, ...helmet }) => [tag, helmet]));
}
