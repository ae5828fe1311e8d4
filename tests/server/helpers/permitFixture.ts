import { and, eq } from 'drizzle-orm';
import type { Db } from '../../../server/db/database';
import { buildings, crews, floors, sites, subcontractors } from '../../../server/db/schema';

export interface DemoPermitFloor {
  clientId: number;
  siteId: number;
  floorId: number;
  /** [long, lat] of a point given as fractions of the floor's width (a→b) and depth (a→d). */
  at(x: number, y: number): [number, number];
  /** An axis-aligned box in fractions of the floor, as a ring. */
  box(x0: number, y0: number, x1: number, y1: number): [number, number][];
  crewIds: number[];
  subcontractorIds: number[];
  /** The permits' base path. */
  path: string;
}

/** North Block · Ground Floor of the demo site, with its crews and subcontractors. */
export async function demoPermitFloor(db: Db, siteId: number): Promise<DemoPermitFloor> {
  const [row] = await db
    .select({ floor: floors, clientId: sites.clientId })
    .from(floors)
    .innerJoin(buildings, eq(buildings.id, floors.buildingId))
    .innerJoin(sites, eq(sites.id, buildings.siteId))
    .where(and(eq(sites.id, siteId), eq(buildings.name, 'North Block'), eq(floors.name, 'Ground Floor')));
  const { floor, clientId } = row;
  const at = (x: number, y: number): [number, number] => [
    floor.aLong + x * (floor.bLong - floor.aLong),
    floor.aLat + y * (floor.dLat - floor.aLat),
  ];
  const crewRows = await db
    .select({ id: crews.id })
    .from(crews)
    .where(eq(crews.siteId, siteId))
    .orderBy(crews.id);
  const subcontractorRows = await db
    .select({ id: subcontractors.id })
    .from(subcontractors)
    .where(eq(subcontractors.siteId, siteId))
    .orderBy(subcontractors.id);
  return {
    clientId,
    siteId,
    floorId: floor.id,
    at,
    box: (x0, y0, x1, y1) => [at(x0, y0), at(x1, y0), at(x1, y1), at(x0, y1)],
    crewIds: crewRows.map((crew) => crew.id),
    subcontractorIds: subcontractorRows.map((s) => s.id),
    path: `/api/clients/${clientId}/sites/${siteId}/floors/${floor.id}/work-permits`,
  };
}
