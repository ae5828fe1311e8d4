import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../server/db/database';
import { buildings, floors, inventoryItems, zones } from '../server/db/schema';
import { cornersOf, type FloorRow } from './benchServer';

/**
 * Workers with helmets on top of the demo's 200, up to `workerCount`, every helmet online in the
 * middle of a floor (round robin over `floorRows`): the evacuation benchmarks' crowd.
 */
export async function placeOnlineHelmets(
  db: Db,
  siteId: number,
  floorRows: readonly FloorRow[],
  workerCount: number,
) {
  const existing = await db.$count(inventoryItems, sql`${inventoryItems.workerId} is not null`);
  await addBenchWorkers(db, siteId, Math.max(0, workerCount - existing), 'BENCH-');
  const helmetRows = await db
    .select({ id: inventoryItems.id, tag: inventoryItems.wntInventoryId, workerId: inventoryItems.workerId })
    .from(inventoryItems)
    .where(and(eq(inventoryItems.siteId, siteId), sql`${inventoryItems.workerId} is not null`))
    .orderBy(inventoryItems.id);
  const placed = helmetRows.map((helmet, i) => {
    const floor = floorRows[i % floorRows.length];
    return { ...helmet, workerId: helmet.workerId as number, floor, corners: cornersOf(floor) };
  });
  const now = new Date();
  for (const floor of floorRows) {
    const ids = placed.filter((h) => h.floor.id === floor.id).map((h) => h.id);
    const middle = { lat: (floor.aLat + floor.cLat) / 2, long: (floor.aLong + floor.cLong) / 2 };
    await db
      .update(inventoryItems)
      .set({
        floorId: floor.id,
        lat: middle.lat,
        long: middle.long,
        isOnline: true,
        isActive: true,
        lastSeen: now,
      })
      .where(sql`${inventoryItems.id} = any(${sql.param(ids)})`);
  }
  return placed;
}

/** `count` workers of the site each wearing a new helmet tagged `${tagPrefix}<n>`, 1,000 per statement. */
export async function addBenchWorkers(
  db: Db,
  siteId: number,
  count: number,
  tagPrefix: string,
): Promise<void> {
  for (let start = 0; start < count; start += 1000) {
    const size = Math.min(1000, count - start);
    await db.execute(sql`
      with new_workers as (
        insert into workers (site_id, name, worker_tag_id)
        select ${siteId}, 'Bench worker ' || g, 'BW-' || g from generate_series(${start + 1}::int, ${start + size}::int) g
        returning id, worker_tag_id
      )
      insert into inventory_items (site_id, wnt_inventory_id, type, worker_id)
      select ${siteId}, ${tagPrefix} || substr(worker_tag_id, 4), 'helmet', id from new_workers`);
  }
}

/** The site's assembly zones, by id. */
export function siteAssemblyZones(db: Db, siteId: number) {
  return db
    .select({ id: zones.id, floorId: zones.floorId, coordinates: zones.coordinates })
    .from(zones)
    .innerJoin(floors, eq(floors.id, zones.floorId))
    .innerJoin(buildings, eq(buildings.id, floors.buildingId))
    .where(and(eq(buildings.siteId, siteId), eq(zones.kind, 'assembly')))
    .orderBy(zones.id);
}
