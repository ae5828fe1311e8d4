import { and, eq, inArray, sql } from 'drizzle-orm';
import {
  type FloorGrid,
  type FloorTransform,
  floorGrid,
  floorTransform,
  fromLongLat,
  type ImagePoint,
  pointInPolygon,
} from '../../src/domain/geo';
import { signedArea2 } from '../../src/domain/polygon';
import type { Db } from '../db/database';
import { buildings, floors, zones } from '../db/schema';

/**
 * A floor of a site as the ingest needs it: which of its zones a lat/long falls in, and which
 * cell of its analytics grid (src/domain/geo.ts `floorGrid`, the floor's cell_size_m).
 */
export interface FloorGeometry {
  floorId: number;
  zoneAt(lat: number, long: number): number | null;
  /** The grid cell of the point, or null outside the floor (or when its corners are degenerate). */
  cellOf(lat: number, long: number): { x: number; y: number } | null;
}

interface ProjectedZone {
  id: number;
  ring: ImagePoint[];
  area: number;
}

interface CachedFloor {
  version: string;
  geometry: FloorGeometry;
}

/**
 * The frame zones are tested in when a floor has no blueprint: any positive size gives the same
 * answers, since the corners still define the projective transform.
 */
const UNIT_IMAGE = { width: 1000, height: 1000 } as const;

/** Queries run in the writer's transaction or on the database alike. */
type Queryable = Pick<Db, 'select'>;

function geometryOf(
  floorId: number,
  transform: FloorTransform | null,
  projected: ProjectedZone[],
  grid: FloorGrid | null,
): FloorGeometry {
  return {
    floorId,
    cellOf(lat, long) {
      return grid ? grid.cellOf({ lat, long }) : null;
    },
    zoneAt(lat, long) {
      if (!transform) return null;
      const point = transform.toImage({ lat, long });
      let best: ProjectedZone | null = null;
      // Overlapping zones: the smallest (most specific) one containing the point wins.
      for (const zone of projected) {
        if ((best === null || zone.area < best.area) && pointInPolygon(point, zone.ring)) best = zone;
      }
      return best?.id ?? null;
    },
  };
}

/**
 * Floor corners and zones projected to image pixels, cached per floor. Invalidation: every call
 * reads, in one query, each named floor's corners, image size, zone count and latest zone
 * `updated_at`; a floor whose fingerprint changed (zone added, edited, deleted, corners moved)
 * has its zones read again. So an edit is seen by the very next batch, and a steady stream costs
 * one small query per batch instead of reading every zone.
 */
export class FloorGeometryCache {
  private readonly floorsById = new Map<number, CachedFloor>();

  /** The named floors that belong to the site; floors of another site are simply absent. */
  async floorsOfSite(
    db: Queryable,
    siteId: number,
    floorIds: readonly number[],
  ): Promise<Map<number, FloorGeometry>> {
    const found = new Map<number, FloorGeometry>();
    if (floorIds.length === 0) return found;
    const rows = await db
      .select({
        id: floors.id,
        corners: sql<string>`concat_ws(',', ${floors.aLat}, ${floors.aLong}, ${floors.bLat}, ${floors.bLong}, ${floors.cLat}, ${floors.cLong}, ${floors.dLat}, ${floors.dLong}, ${floors.blueprintWidth}, ${floors.blueprintHeight}, ${floors.cellSizeMetres})`,
        zoneStamp: sql<string>`(select concat(count(*), '@', max(${zones.updatedAt})) from ${zones} where ${zones.floorId} = ${floors.id})`,
      })
      .from(floors)
      .innerJoin(buildings, eq(buildings.id, floors.buildingId))
      .where(and(eq(buildings.siteId, siteId), inArray(floors.id, floorIds as number[])));
    const stale: { id: number; version: string }[] = [];
    for (const row of rows) {
      const version = `${row.corners}|${row.zoneStamp}`;
      const cached = this.floorsById.get(row.id);
      if (cached?.version === version) found.set(row.id, cached.geometry);
      else stale.push({ id: row.id, version });
    }
    if (stale.length > 0) {
      for (const floor of await this.load(db, stale)) {
        this.floorsById.set(floor.geometry.floorId, floor);
        found.set(floor.geometry.floorId, floor.geometry);
      }
    }
    return found;
  }

  private async load(db: Queryable, stale: { id: number; version: string }[]): Promise<CachedFloor[]> {
    const ids = stale.map((s) => s.id);
    const floorRows = await db.select().from(floors).where(inArray(floors.id, ids));
    const zoneRows = await db
      .select({ id: zones.id, floorId: zones.floorId, coordinates: zones.coordinates })
      .from(zones)
      .where(inArray(zones.floorId, ids));
    return floorRows.map((floor) => {
      const transform = transformOf(floor);
      const projected: ProjectedZone[] = transform
        ? zoneRows
            .filter((zone) => zone.floorId === floor.id)
            .map((zone) => {
              const ring = zone.coordinates.map((vertex) => transform.toImage(fromLongLat(vertex)));
              return { id: zone.id, ring, area: Math.abs(signedArea2(ring.map((p) => [p.x, p.y] as const))) };
            })
        : [];
      const version = stale.find((s) => s.id === floor.id)?.version ?? '';
      return { version, geometry: geometryOf(floor.id, transform, projected, gridOf(floor)) };
    });
  }
}

/** The floor's corner transform, or null when its corners are degenerate (no zone can be found). */
function transformOf(floor: typeof floors.$inferSelect): FloorTransform | null {
  const size =
    floor.blueprintWidth && floor.blueprintHeight
      ? { width: floor.blueprintWidth, height: floor.blueprintHeight }
      : UNIT_IMAGE;
  try {
    return floorTransform(
      {
        a: { lat: floor.aLat, long: floor.aLong },
        b: { lat: floor.bLat, long: floor.bLong },
        c: { lat: floor.cLat, long: floor.cLong },
        d: { lat: floor.dLat, long: floor.dLong },
      },
      size,
    );
  } catch {
    return null;
  }
}

/** The floor's analytics grid, or null when its corners or cell size admit none. */
function gridOf(floor: typeof floors.$inferSelect): FloorGrid | null {
  try {
    return floorGrid(
      {
        a: { lat: floor.aLat, long: floor.aLong },
        b: { lat: floor.bLat, long: floor.bLong },
        c: { lat: floor.cLat, long: floor.cLong },
        d: { lat: floor.dLat, long: floor.dLong },
      },
      floor.cellSizeMetres,
    );
  } catch {
    return null;
  }
}

const caches = new WeakMap<object, FloorGeometryCache>();

/** One cache per database handle, so two databases in one process (tests) never share floor ids. */
export function floorGeometryCacheFor(db: Db): FloorGeometryCache {
  let cache = caches.get(db);
  if (!cache) {
    cache = new FloorGeometryCache();
    caches.set(db, cache);
  }
  return cache;
}
