import { and, desc, eq, lte } from 'drizzle-orm';
import type { DevicePosition } from '../../src/domain/schemas/inventory';
import type { Db } from '../db/database';
import { positions } from '../db/schema';

/** Where a device was at an instant: its latest position at or before it, or null when none. */
export async function positionAt(db: Db, inventoryId: number, at: Date): Promise<DevicePosition | null> {
  const [row] = await db
    .select()
    .from(positions)
    .where(and(eq(positions.inventoryItemId, inventoryId), lte(positions.ts, at)))
    .orderBy(desc(positions.ts))
    .limit(1);
  if (!row) return null;
  return {
    inventory_id: row.inventoryItemId,
    coordinates: { lat: row.lat, long: row.long },
    floor_id: row.floorId,
    zone_id: row.zoneId,
    is_online: row.isOnline,
    is_active: row.isActive,
    ts: row.ts.toISOString(),
  };
}
