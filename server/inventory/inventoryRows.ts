import { asc, count, type SQL, sql } from 'drizzle-orm';
import type { InventoryItem, InventoryType } from '../../src/domain/inventory';
import type { Db } from '../db/database';
import { inventoryItems } from '../db/schema';

type InventoryRow = typeof inventoryItems.$inferSelect;

export function toInventoryItem(row: InventoryRow): InventoryItem {
  return {
    id: row.id,
    wnt_inventory_id: row.wntInventoryId,
    type: row.type as InventoryType,
    network_id: row.networkId,
    is_online: row.isOnline,
    is_active: row.isActive,
    is_approved: row.isApproved,
    coordinates: row.lat !== null && row.long !== null ? { lat: row.lat, long: row.long } : null,
    floor_id: row.floorId,
    zone_id: row.zoneId,
    last_seen: row.lastSeen?.toISOString() ?? null,
    last_active_at: row.lastActiveAt?.toISOString() ?? null,
    worker_id: row.workerId,
    assigned_at: row.assignedAt?.toISOString() ?? null,
  };
}

/** Devices in the order every inventory list shows them: by WNT inventory id, then id. */
const listOrder = [sql`${inventoryItems.wntInventoryId} collate "C"`, asc(inventoryItems.id)];

export async function listInventory(
  db: Db,
  where: SQL | undefined,
  page?: { page: number; perPage: number },
): Promise<InventoryItem[]> {
  const query = db
    .select()
    .from(inventoryItems)
    .where(where)
    .orderBy(...listOrder);
  const rows = page ? await query.limit(page.perPage).offset((page.page - 1) * page.perPage) : await query;
  return rows.map(toInventoryItem);
}

export async function countInventory(db: Db, where: SQL | undefined): Promise<number> {
  const [row] = await db.select({ total: count() }).from(inventoryItems).where(where);
  return row.total;
}
