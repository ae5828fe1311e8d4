import { and, eq, inArray } from 'drizzle-orm';
import { inventoryMessages, type RegisterInventoriesBody } from '../../src/domain/schemas/inventory';
import type { Db } from '../db/database';
import { inventoryItems, networks } from '../db/schema';
import { unprocessable } from '../http/errors';

/** Rows per INSERT: PostgreSQL takes at most 65,535 parameters in one statement. */
const CHUNK = 5000;

/**
 * Registers devices of a site by WNT inventory id, idempotently: ids the site already has are
 * left as they are. One transaction, so a failed call registers nothing.
 */
export async function registerInventories(
  db: Db,
  siteId: number,
  items: RegisterInventoriesBody['items'],
): Promise<{ created: number; existing: number }> {
  const wntIds = items.map((item) => item.wnt_inventory_id.trim());
  if (new Set(wntIds).size !== wntIds.length)
    throw unprocessable({ items: inventoryMessages.duplicateInBody });
  const networkIds = [...new Set(items.flatMap((item) => (item.network_id ? [item.network_id] : [])))];
  if (networkIds.length > 0) {
    const ofSite = await db
      .select({ id: networks.id })
      .from(networks)
      .where(and(inArray(networks.id, networkIds), eq(networks.siteId, siteId)));
    if (ofSite.length !== networkIds.length)
      throw unprocessable({ network_id: inventoryMessages.networkNotOfSite });
  }
  return db.transaction(async (tx) => {
    let created = 0;
    for (let start = 0; start < items.length; start += CHUNK) {
      const rows = items.slice(start, start + CHUNK).map((item, index) => ({
        siteId,
        wntInventoryId: wntIds[start + index],
        type: item.type,
        networkId: item.network_id ?? null,
      }));
      const inserted = await tx
        .insert(inventoryItems)
        .values(rows)
        .onConflictDoNothing({ target: [inventoryItems.siteId, inventoryItems.wntInventoryId] })
        .returning({ id: inventoryItems.id });
      created += inserted.length;
    }
    return { created, existing: items.length - created };
  });
}
