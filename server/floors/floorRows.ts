import { and, asc, desc, eq, type SQL, sql } from 'drizzle-orm';
import type { Floor } from '../../src/domain/floor';
import type { Db } from '../db/database';
import { floors } from '../db/schema';

/** The path the blueprint is served from (authenticated, no-cache). */
export function blueprintUrl(buildingId: number, floorId: number): string {
  return `/api/buildings/${buildingId}/floors/${floorId}/blueprint`;
}

const floorSelection = {
  floor: floors,
  // Written out: Drizzle leaves columns in a select list unqualified, and "id" would bind to
  // the inner table.
  workers: sql<number>`(select count(*)::int from inventory_items i where i.floor_id = "floors"."id" and i.type = 'helmet' and i.is_online and i.is_active)`,
};

type FloorRow = typeof floors.$inferSelect;

export function toFloor(row: FloorRow, workers = 0): Floor {
  const hasImage = row.blueprintFile !== null;
  return {
    id: row.id,
    building_id: row.buildingId,
    name: row.name,
    altitude: Number(row.altitude),
    category: row.category,
    media_url: hasImage ? blueprintUrl(row.buildingId, row.id) : null,
    image_properties:
      hasImage && row.blueprintWidth !== null && row.blueprintHeight !== null
        ? { width: row.blueprintWidth, height: row.blueprintHeight }
        : null,
    coordinates: {
      a: { lat: row.aLat, long: row.aLong },
      b: { lat: row.bLat, long: row.bLong },
      c: { lat: row.cLat, long: row.cLong },
      d: { lat: row.dLat, long: row.dLong },
    },
    cellSizeMetres: row.cellSizeMetres,
    online_active_worker_count: Number(workers),
    created_at: new Date(row.createdAt).toISOString(),
    updated_at: new Date(row.updatedAt).toISOString(),
  };
}

/** Floors matching `where`, altitude descending then id (spec §9) unless ascending is asked. */
export async function listFloors(db: Db, where: SQL | undefined, ascending = false): Promise<Floor[]> {
  const rows = await db
    .select(floorSelection)
    .from(floors)
    .where(where)
    .orderBy(ascending ? asc(floors.altitude) : desc(floors.altitude), asc(floors.id));
  return rows.map((row) => toFloor(row.floor, row.workers));
}

export async function floorById(db: Db, id: number): Promise<Floor> {
  const [floor] = await listFloors(db, and(eq(floors.id, id)));
  return floor;
}
