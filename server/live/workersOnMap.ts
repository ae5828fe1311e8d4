import { and, eq, isNotNull, type SQL, sql } from 'drizzle-orm';
import type { WorkerOnMap } from '../../src/domain/inventory';
import type { Db } from '../db/database';
import { floors, inventoryItems, subcontractors, workerRoles, workers, zones } from '../db/schema';

/** Which helmets to read: a floor's, a site's, or some by inventory id. */
export type WorkersOnMapScope =
  | { floorId: number }
  | { siteId: number }
  | { inventoryIds: readonly number[] };

function scopeCondition(scope: WorkersOnMapScope): SQL | undefined {
  if ('floorId' in scope) return eq(inventoryItems.floorId, scope.floorId);
  if ('siteId' in scope) return eq(inventoryItems.siteId, scope.siteId);
  // One array parameter, not one parameter per id: an evacuation's snapshot names 10,000 helmets.
  return sql`${inventoryItems.id} = any(${sql.param([...scope.inventoryIds])}::int[])`;
}

/** The URL a worker's picture is served from; null when the worker has none (the console shows the default). */
export function workerPicturePath(siteId: number, workerId: number, file: string | null): string | null {
  return file ? `/api/sites/${siteId}/workers/${workerId}/picture` : null;
}

/**
 * Spec §3 "Worker on the map" for helmets in a scope, one query: the socket payloads, the live
 * snapshot and GET /floors/{id}/workers are all built here. Only helmets with a position
 * (a floor) are on a map; an inventoryIds scope also returns helmets that left every floor.
 */
export async function selectWorkersOnMap(db: Db, scope: WorkersOnMapScope): Promise<WorkerOnMap[]> {
  if ('inventoryIds' in scope && scope.inventoryIds.length === 0) return [];
  const rows = await db
    .select({
      inventoryId: inventoryItems.id,
      siteId: inventoryItems.siteId,
      wnt: inventoryItems.wntInventoryId,
      lat: inventoryItems.lat,
      long: inventoryItems.long,
      isOnline: inventoryItems.isOnline,
      isActive: inventoryItems.isActive,
      lastSeen: inventoryItems.lastSeen,
      zoneId: inventoryItems.zoneId,
      zoneName: zones.name,
      floorId: inventoryItems.floorId,
      floorName: floors.name,
      workerId: workers.id,
      name: workers.name,
      tag: workers.workerTagId,
      contact: workers.contactNumber,
      picture: workers.pictureFile,
      helmetColor: workers.helmetColor,
      roleName: workerRoles.name,
      subcontractorName: subcontractors.name,
    })
    .from(inventoryItems)
    .leftJoin(workers, eq(workers.id, inventoryItems.workerId))
    .leftJoin(workerRoles, eq(workerRoles.id, workers.workerRoleId))
    .leftJoin(subcontractors, eq(subcontractors.id, workers.subcontractorId))
    .leftJoin(zones, eq(zones.id, inventoryItems.zoneId))
    .leftJoin(floors, eq(floors.id, inventoryItems.floorId))
    .where(
      and(
        eq(inventoryItems.type, 'helmet'),
        scopeCondition(scope),
        'inventoryIds' in scope ? undefined : isNotNull(inventoryItems.floorId),
      ),
    )
    .orderBy(inventoryItems.id);
  return rows.map((r) => ({
    id: r.workerId,
    inventory_id: r.inventoryId,
    wnt_inventory_id: r.wnt,
    coordinates: r.lat !== null && r.long !== null ? { lat: r.lat, long: r.long } : null,
    name: r.name,
    worker_tag_id: r.tag,
    contact_number: r.contact,
    role_name: r.roleName,
    subcontractor_name: r.subcontractorName,
    last_seen: r.lastSeen?.toISOString() ?? null,
    is_online: r.isOnline,
    is_active: r.isActive,
    profile_picture_path: r.workerId === null ? null : workerPicturePath(r.siteId, r.workerId, r.picture),
    helmet_color: r.helmetColor,
    zone_id: r.zoneId,
    zone_name: r.zoneName,
    blueprint_id: r.floorId,
    blueprint_name: r.floorName,
  }));
}
