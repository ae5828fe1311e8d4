import { and, eq } from 'drizzle-orm';
import type { FloorCorners } from '../../src/domain/floor';
import { cornerRing } from '../../src/domain/floorValidation';
import { containsPoint, type Point } from '../../src/domain/polygon';
import type { Principal } from '../auth/principal';
import { visibleSitesWhere } from '../auth/tenancy';
import type { Db } from '../db/database';
import { buildings, floors, inventoryItems, planningAnchors, sites, walls } from '../db/schema';
import type { requireFloor } from '../floors/floorAccess';
import { notFound } from '../http/errors';

/**
 * Tenancy of the installation routes, whose bodies name a wall, a planning anchor or an inventory
 * item rather than a path: the object is found only through a site the caller sees (DESIGN §4),
 * anything else is 404 like a floor of another client.
 */

export type FloorRow = Awaited<ReturnType<typeof requireFloor>>;

export function cornersOf(floor: typeof floors.$inferSelect): FloorCorners {
  return {
    a: { lat: floor.aLat, long: floor.aLong },
    b: { lat: floor.bLat, long: floor.bLong },
    c: { lat: floor.cLat, long: floor.cLong },
    d: { lat: floor.dLat, long: floor.dLong },
  };
}

/** The floor's corner ring as [long, lat] points (containsPoint's frame, the zones' too). */
export function floorRingOf(floor: typeof floors.$inferSelect): Point[] {
  return cornerRing(cornersOf(floor));
}

export function insideFloor(floor: typeof floors.$inferSelect, lat: number, long: number): boolean {
  return containsPoint(floorRingOf(floor), [long, lat]);
}

/** A wall on a floor the caller sees, with its floor. */
export async function requireWall(db: Db, principal: Principal, wallId: number) {
  const [row] = await db
    .select({ wall: walls, floor: floors, siteId: sites.id })
    .from(walls)
    .innerJoin(floors, eq(floors.id, walls.floorId))
    .innerJoin(buildings, eq(buildings.id, floors.buildingId))
    .innerJoin(sites, eq(sites.id, buildings.siteId))
    .where(and(eq(walls.id, wallId), visibleSitesWhere(principal)))
    .limit(1);
  if (!row) throw notFound('Wall');
  return { wall: row.wall, floor: { ...row.floor, siteId: row.siteId } satisfies FloorRow };
}

/** A planning anchor on a floor the caller sees, with its floor. */
export async function requirePlanningAnchor(db: Db, principal: Principal, anchorId: number) {
  const [row] = await db
    .select({ anchor: planningAnchors, floor: floors, siteId: sites.id })
    .from(planningAnchors)
    .innerJoin(floors, eq(floors.id, planningAnchors.floorId))
    .innerJoin(buildings, eq(buildings.id, floors.buildingId))
    .innerJoin(sites, eq(sites.id, buildings.siteId))
    .where(and(eq(planningAnchors.id, anchorId), visibleSitesWhere(principal)))
    .limit(1);
  if (!row) throw notFound('Planning anchor');
  return { anchor: row.anchor, floor: { ...row.floor, siteId: row.siteId } satisfies FloorRow };
}

/** A planning anchor of this floor (the floor already checked), or 404. */
export async function requireFloorPlanningAnchor(db: Db, floorId: number, anchorId: number) {
  const [anchor] = await db
    .select()
    .from(planningAnchors)
    .where(and(eq(planningAnchors.id, anchorId), eq(planningAnchors.floorId, floorId)))
    .limit(1);
  if (!anchor) throw notFound('Planning anchor');
  return anchor;
}

/** An inventory item of a site the caller sees, or 404. */
export async function requireVisibleItem(db: Db, principal: Principal, inventoryId: number) {
  const [row] = await db
    .select({ item: inventoryItems })
    .from(inventoryItems)
    .innerJoin(sites, eq(sites.id, inventoryItems.siteId))
    .where(and(eq(inventoryItems.id, inventoryId), visibleSitesWhere(principal)))
    .limit(1);
  if (!row) throw notFound('Inventory item');
  return row.item;
}
