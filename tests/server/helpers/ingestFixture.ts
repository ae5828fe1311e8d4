import { and, eq } from 'drizzle-orm';
import type { Db } from '../../../server/db/database';
import { DEMO_SITE } from '../../../server/db/demoSeed';
import {
  buildings,
  floors,
  inventoryItems,
  sites,
  subcontractors,
  workerRoles,
  workers,
  zones,
} from '../../../server/db/schema';
import type { PositionMessage } from '../../../src/domain/live';

export interface DemoFloorFixture {
  siteId: number;
  floor: typeof floors.$inferSelect;
  zoneId(name: string): number;
  /** A point of the floor as fractions of its width and height (0,0 = corner a). */
  at(x: number, y: number): { lat: number; long: number };
}

/** Tower A's North Block Level 1, with its demo zones (Fit-out area, East wing, Stair core). */
export async function demoFloor(db: Db): Promise<DemoFloorFixture> {
  const [site] = await db.select().from(sites).where(eq(sites.name, DEMO_SITE));
  const [north] = await db
    .select()
    .from(buildings)
    .where(and(eq(buildings.siteId, site.id), eq(buildings.name, 'North Block')));
  const [floor] = await db
    .select()
    .from(floors)
    .where(and(eq(floors.buildingId, north.id), eq(floors.name, 'Level 1')));
  const floorZones = await db.select().from(zones).where(eq(zones.floorId, floor.id));
  return {
    siteId: site.id,
    floor,
    zoneId(name) {
      const zone = floorZones.find((z) => z.name === name);
      if (!zone) throw new Error(`no zone ${name} on ${floor.name}`);
      return zone.id;
    },
    at: (x, y) => ({
      long: floor.aLong + x * (floor.bLong - floor.aLong),
      lat: floor.aLat - y * (floor.aLat - floor.dLat),
    }),
  };
}

export interface HelmetFixture {
  inventoryId: number;
  tag: string;
  workerId: number;
  workerName: string;
}

/** A worker (with a role and a subcontractor) wearing a new helmet of the site, never seen yet. */
export async function seedWorkerWithHelmet(db: Db, siteId: number, tag: string): Promise<HelmetFixture> {
  const [role] = await db
    .insert(workerRoles)
    .values({ siteId, name: `Rigger ${tag}` })
    .returning();
  const [subcontractor] = await db
    .insert(subcontractors)
    .values({ siteId, name: `Steel Co ${tag}` })
    .returning();
  const workerName = `Worker ${tag}`;
  const [worker] = await db
    .insert(workers)
    .values({ siteId, name: workerName, workerRoleId: role.id, subcontractorId: subcontractor.id })
    .returning();
  const [helmet] = await db
    .insert(inventoryItems)
    .values({ siteId, wntInventoryId: tag, type: 'helmet', workerId: worker.id, assignedAt: new Date() })
    .returning();
  return { inventoryId: helmet.id, tag, workerId: worker.id, workerName };
}

/**
 * A position message for a helmet at a point of the floor, `secondsAgo` before now. With `floorId`
 * it is reported on another floor, at the same point of Level 1's outline.
 */
export function positionAt(
  fixture: DemoFloorFixture,
  tag: string,
  point: readonly [number, number],
  secondsAgo: number,
  options: { online?: boolean; active?: boolean; floorId?: number } = {},
): PositionMessage {
  return {
    tag,
    ts: new Date(Date.now() - secondsAgo * 1000).toISOString(),
    ...fixture.at(point[0], point[1]),
    floorId: options.floorId ?? fixture.floor.id,
    online: options.online ?? true,
    active: options.active ?? true,
  };
}

/** Points inside the demo zones of Level 1, and one outside every zone. */
export const POINTS: Record<'fitOut' | 'eastWing' | 'nowhere', readonly [number, number]> = {
  fitOut: [0.3, 0.2],
  eastWing: [0.7, 0.7],
  nowhere: [0.55, 0.5],
};
