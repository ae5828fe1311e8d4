import { and, eq } from 'drizzle-orm';
import type { Principal } from '../auth/principal';
import { visibleSitesWhere } from '../auth/tenancy';
import type { Db } from '../db/database';
import { buildings, floors, sites, zones } from '../db/schema';
import { notFound } from '../http/errors';

/**
 * A floor the caller may see (DESIGN.md §4), optionally of the building the path names;
 * anything else is 404, like buildings and sites.
 */
export async function requireFloor(db: Db, principal: Principal, floorId: number, buildingId?: number) {
  const [row] = await db
    .select({ floor: floors, siteId: sites.id })
    .from(floors)
    .innerJoin(buildings, eq(buildings.id, floors.buildingId))
    .innerJoin(sites, eq(sites.id, buildings.siteId))
    .where(
      and(
        eq(floors.id, floorId),
        buildingId === undefined ? undefined : eq(floors.buildingId, buildingId),
        visibleSitesWhere(principal),
      ),
    )
    .limit(1);
  if (!row) throw notFound('Floor');
  return { ...row.floor, siteId: row.siteId };
}

/** A zone of the floor the path names (the floor already checked by requireFloor). */
export async function requireZone(db: Db, floorId: number, zoneId: number) {
  const [zone] = await db
    .select()
    .from(zones)
    .where(and(eq(zones.id, zoneId), eq(zones.floorId, floorId)))
    .limit(1);
  if (!zone) throw notFound('Zone');
  return zone;
}
