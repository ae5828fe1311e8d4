import { and, asc, desc, eq, inArray, isNotNull, lte } from 'drizzle-orm';
import type { ZoneKind } from '../../src/domain/floor';
import type { ImagePoint } from '../../src/domain/geo';
import { localTime, type ShiftTimes } from '../../src/domain/workshiftClock';
import type { Db } from '../db/database';
import {
  buildings,
  floors,
  inventoryItems,
  nodeDiagnostics,
  sites,
  workshiftAssignments,
  workshifts,
  zones,
} from '../db/schema';
import { type SimFloor, simFloor } from './floorGeometry';

export interface SimHelmet {
  tag: string;
  networkId: number | null;
  /** The wearer's current work shift; null when nobody wears it or the wearer has none. */
  shift: ShiftTimes | null;
}

export interface SimNode {
  nodeId: string;
  type: 'anchor' | 'sink';
  networkId: number;
  /** The floor it was placed on; null for a node placed on none (it hears no floor mates). */
  floorId: number | null;
  /** Where it was placed (installation or approval). */
  lat: number;
  long: number;
}

/** An assembly zone, in its floor's blueprint pixels: where an evacuation walks workers to. */
export interface SimAssemblyZone {
  id: number;
  floorId: number;
  buildingId: number;
  ring: ImagePoint[];
}

export interface SiteModel {
  siteId: number;
  timezone: string;
  /** When the site was created: the demo's node story counts battery cycles from it (nodeBehaviour.ts). */
  createdAtMs: number;
  floors: SimFloor[];
  assemblyZones: SimAssemblyZone[];
  helmets: SimHelmet[];
  /** Placed anchors and sinks on a network: the ones a gateway hears. */
  nodes: SimNode[];
}

/**
 * What the simulator needs of a site, read once (and again now and then): its floors and
 * zones, its helmets with the wearer's current work shift (the latest assignment on or before
 * the site's today, spec §3), and its placed anchors and sinks.
 */
export async function loadSiteModel(db: Db, siteId: number, now: Date): Promise<SiteModel> {
  const [site] = await db.select().from(sites).where(eq(sites.id, siteId)).limit(1);
  if (!site) throw new Error(`Site ${siteId} does not exist`);
  const today = localTime(now, site.timezone).date;

  const floorRows = await db
    .select({ floor: floors })
    .from(floors)
    .innerJoin(buildings, eq(buildings.id, floors.buildingId))
    .where(eq(buildings.siteId, siteId))
    .orderBy(asc(floors.id));
  const floorIds = floorRows.map((r) => r.floor.id);
  const zoneRows =
    floorIds.length === 0 ? [] : await db.select().from(zones).where(inArray(zones.floorId, floorIds));
  const simFloors = floorRows.map(({ floor }) =>
    simFloor({
      id: floor.id,
      buildingId: floor.buildingId,
      corners: {
        a: { lat: floor.aLat, long: floor.aLong },
        b: { lat: floor.bLat, long: floor.bLong },
        c: { lat: floor.cLat, long: floor.cLong },
        d: { lat: floor.dLat, long: floor.dLong },
      },
      image:
        floor.blueprintWidth && floor.blueprintHeight
          ? { width: floor.blueprintWidth, height: floor.blueprintHeight }
          : null,
      zones: zoneRows
        .filter((z) => z.floorId === floor.id)
        .map((z) => ({ kind: z.kind as ZoneKind, coordinates: z.coordinates })),
    }),
  );

  const assemblyZones = zoneRows.flatMap((zone) => {
    const floor = simFloors.find((f) => f.id === zone.floorId);
    if (zone.kind !== 'assembly' || !floor) return [];
    const ring = zone.coordinates.map(([long, lat]) => floor.transform.toImage({ lat, long }));
    return [{ id: zone.id, floorId: floor.id, buildingId: floor.buildingId, ring }];
  });

  const devices = await db.select().from(inventoryItems).where(eq(inventoryItems.siteId, siteId));
  const shiftOf = await currentShifts(db, siteId, today);
  const helmets = devices
    .filter((d) => d.type === 'helmet')
    .map((d) => ({
      tag: d.wntInventoryId,
      networkId: d.networkId,
      shift: d.workerId === null ? null : (shiftOf.get(d.workerId) ?? null),
    }));
  const installedAt = await installedPositions(
    db,
    devices.filter((d) => d.type === 'anchor' && d.floorId !== null && (d.lat === null || d.long === null)),
  );
  const nodes = devices.flatMap((d) => {
    if (d.type === 'helmet' || d.networkId === null) return [];
    const where = d.lat !== null && d.long !== null ? { lat: d.lat, long: d.long } : installedAt.get(d.id);
    if (!where) return [];
    return [
      {
        nodeId: d.wntInventoryId,
        type: d.type as SimNode['type'],
        networkId: d.networkId,
        floorId: d.floorId,
        lat: where.lat,
        long: where.long,
      },
    ];
  });
  return {
    siteId,
    timezone: site.timezone,
    createdAtMs: site.createdAt.getTime(),
    floors: simFloors,
    assemblyZones,
    helmets,
    nodes,
  };
}

/** Each worker's latest work shift assignment on or before `today`. */
async function currentShifts(db: Db, siteId: number, today: string): Promise<Map<number, ShiftTimes>> {
  const rows = await db
    .select({
      workerId: workshiftAssignments.workerId,
      startTime: workshifts.startTime,
      endTime: workshifts.endTime,
      breaks: workshifts.breaks,
      nonWorkingDays: workshifts.nonWorkingDays,
    })
    .from(workshiftAssignments)
    .innerJoin(workshifts, eq(workshifts.id, workshiftAssignments.workshiftId))
    .where(and(eq(workshifts.siteId, siteId), lte(workshiftAssignments.assignedAt, today)))
    .orderBy(
      asc(workshiftAssignments.workerId),
      desc(workshiftAssignments.assignedAt),
      desc(workshiftAssignments.id),
    );
  const shifts = new Map<number, ShiftTimes>();
  for (const { workerId, ...shift } of rows) if (!shifts.has(workerId)) shifts.set(workerId, shift);
  return shifts;
}

/**
 * Where anchors installed on a floor but not yet approved (no placed position) really are: the
 * first position the network computed for them (the demo seeds one, server/db/demoInstallation.ts),
 * so they go on reporting from there until someone approves them at a place.
 */
async function installedPositions(
  db: Db,
  unplaced: readonly { id: number }[],
): Promise<Map<number, { lat: number; long: number }>> {
  const found = new Map<number, { lat: number; long: number }>();
  for (const { id } of unplaced) {
    const [first] = await db
      .select({ lat: nodeDiagnostics.lat, long: nodeDiagnostics.long })
      .from(nodeDiagnostics)
      .where(
        and(
          eq(nodeDiagnostics.inventoryItemId, id),
          isNotNull(nodeDiagnostics.lat),
          isNotNull(nodeDiagnostics.long),
        ),
      )
      .orderBy(asc(nodeDiagnostics.ts))
      .limit(1);
    if (first?.lat != null && first.long != null) found.set(id, { lat: first.lat, long: first.long });
  }
  return found;
}
