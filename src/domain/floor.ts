/** A corner of a floor's blueprint on the earth: a top-left, b top-right, c bottom-right, d bottom-left. */
export interface LatLong {
  lat: number;
  long: number;
}

export const CORNERS = ['a', 'b', 'c', 'd'] as const;
export type Corner = (typeof CORNERS)[number];
export type FloorCorners = Record<Corner, LatLong>;

export interface ImageProperties {
  width: number;
  height: number;
}

/** A floor as the API replies it (spec §3 Floor). */
export interface Floor {
  id: number;
  building_id: number;
  name: string;
  altitude: number;
  category: string;
  /** The blueprint image, fetched with the bearer token and no-cache; null when none was uploaded. */
  media_url: string | null;
  image_properties: ImageProperties | null;
  coordinates: FloorCorners;
  /** The analytics grid's cell edge in metres (geo.ts `floorGrid`); changing it affects later rollups only. */
  cellSizeMetres: number;
  online_active_worker_count: number;
  created_at: string;
  updated_at: string;
}

export const ZONE_KINDS = ['work', 'restricted', 'assembly'] as const;
export type ZoneKind = (typeof ZONE_KINDS)[number];

/** A vertex as GeoJSON orders it: [long, lat]. */
export type LongLat = [number, number];

/** A named polygon on a floor (spec §3 Zone); the ring is open (the first vertex is not repeated). */
export interface Zone {
  id: number;
  floor_id: number;
  name: string;
  kind: ZoneKind;
  coordinates: LongLat[];
  created_at: string;
  updated_at: string;
}

/** Counts of spec §3 "Asset status counts", for a floor, building or site. */
export interface InventoryMeta {
  totalUnassignedAssets: number;
  totalActiveAssets: number;
  totalInActiveAssets: number;
  totalOfflineAssets: number;
  totalAssets: number;
}

/** Floors ordered as screens show them (spec §2): altitude descending, then id. */
export function compareFloors(a: Pick<Floor, 'altitude' | 'id'>, b: Pick<Floor, 'altitude' | 'id'>): number {
  return b.altitude - a.altitude || a.id - b.id;
}
