import { and, asc, eq } from 'drizzle-orm';
import type { FloorCorners } from '../../src/domain/floor';
import type { GridAxes } from '../../src/domain/gridFields';
import type { Principal } from '../auth/principal';
import { visibleSitesWhere } from '../auth/tenancy';
import type { Executor } from '../db/executor';
import { buildings, floors, gridFields, sites, workPermits } from '../db/schema';
import { notFound } from '../http/errors';

/** A floor as the permit routes need it: its site, its corners and its grid (the first grid field). */
export interface PermitFloor {
  id: number;
  siteId: number;
  corners: FloorCorners;
  grid: GridAxes | null;
}

export function cornersOf(floor: typeof floors.$inferSelect): FloorCorners {
  return {
    a: { lat: floor.aLat, long: floor.aLong },
    b: { lat: floor.bLat, long: floor.bLong },
    c: { lat: floor.cLat, long: floor.cLong },
    d: { lat: floor.dLat, long: floor.dLong },
  };
}

/** The floor's first grid field's axes (by id), or null: the grid its permits are named on. */
export async function floorGrid(db: Executor, floorId: number): Promise<GridAxes | null> {
  const [grid] = await db
    .select({ axes: gridFields.axes })
    .from(gridFields)
    .where(eq(gridFields.floorId, floorId))
    .orderBy(asc(gridFields.id))
    .limit(1);
  return grid ? (grid.axes as unknown as GridAxes) : null;
}

/**
 * The floor the path names, when the chain holds: the floor is in the site, the site is the
 * client's, and the caller may see the site (DESIGN.md §4). Anything else is 404 "Floor not found".
 */
export async function requirePermitFloor(
  db: Executor,
  principal: Principal,
  path: { clientId: number; siteId: number; floorId: number },
): Promise<PermitFloor> {
  const [row] = await db
    .select({ floor: floors, siteId: sites.id })
    .from(floors)
    .innerJoin(buildings, eq(buildings.id, floors.buildingId))
    .innerJoin(sites, eq(sites.id, buildings.siteId))
    .where(
      and(
        eq(floors.id, path.floorId),
        eq(sites.id, path.siteId),
        eq(sites.clientId, path.clientId),
        visibleSitesWhere(principal),
      ),
    )
    .limit(1);
  if (!row) throw notFound('Floor');
  return {
    id: row.floor.id,
    siteId: row.siteId,
    corners: cornersOf(row.floor),
    grid: await floorGrid(db, row.floor.id),
  };
}

/** A permit of the floor the path names (the floor already checked), else 404 "Permit not found". */
export async function requirePermit(db: Executor, floorId: number, permitId: number) {
  const [permit] = await db
    .select()
    .from(workPermits)
    .where(and(eq(workPermits.id, permitId), eq(workPermits.floorId, floorId)))
    .limit(1);
  if (!permit) throw notFound('Permit');
  return permit;
}
