import { type Static, Type } from 'typebox';
import type { ZONE_KINDS } from '../floor';
import { LIMITS } from '../limits';
import { SafeString } from '../text';
import { IdSchema } from './sites';

/**
 * Request and reply schemas of floors, zones and inventory counts (spec §7 "Buildings, floors,
 * zones"). Floor create and edit are multipart forms, checked by src/domain/floorValidation.ts.
 */

const LatLongSchema = Type.Object({ lat: Type.Number(), long: Type.Number() });

export const FloorSchema = Type.Object({
  id: IdSchema,
  building_id: IdSchema,
  name: Type.String(),
  altitude: Type.Number(),
  category: Type.String(),
  media_url: Type.Union([Type.String(), Type.Null()]),
  image_properties: Type.Union([Type.Object({ width: Type.Integer(), height: Type.Integer() }), Type.Null()]),
  coordinates: Type.Object({ a: LatLongSchema, b: LatLongSchema, c: LatLongSchema, d: LatLongSchema }),
  /** The analytics grid's cell edge in metres (src/domain/geo.ts `floorGrid`). */
  cellSizeMetres: Type.Number(),
  online_active_worker_count: Type.Integer(),
  created_at: Type.String(),
  updated_at: Type.String(),
});

export const BuildingFloorParamsSchema = Type.Object({ id: IdSchema, floorId: IdSchema });

export const SiteFloorsQuerySchema = Type.Object({
  /** `altitude` is the default order of spec §9: altitude descending, then id. */
  sort: Type.Optional(
    Type.Union([Type.Literal('altitude'), Type.Literal('altitude,desc'), Type.Literal('altitude,asc')]),
  ),
});

export const ZONE_POINTS_MAX = 1000;

/** [long, lat], GeoJSON order. */
export const LongLatSchema = Type.Tuple([
  Type.Number({ minimum: -180, maximum: 180 }),
  Type.Number({ minimum: -90, maximum: 90 }),
]);

export const ZoneKindSchema = Type.Union([
  Type.Literal('work'),
  Type.Literal('restricted'),
  Type.Literal('assembly'),
]);
// The schema and the domain's list of kinds must not drift apart.
const _kindsAgree: (typeof ZONE_KINDS)[number] extends Static<typeof ZoneKindSchema> ? true : never = true;

export const ZoneSchema = Type.Object({
  id: IdSchema,
  floor_id: IdSchema,
  name: Type.String(),
  kind: ZoneKindSchema,
  coordinates: Type.Array(LongLatSchema),
  created_at: Type.String(),
  updated_at: Type.String(),
});

export const ZoneBodySchema = Type.Object({
  name: SafeString({ minLength: 1, maxLength: LIMITS.nameMax }),
  kind: ZoneKindSchema,
  coordinates: Type.Array(LongLatSchema, { maxItems: ZONE_POINTS_MAX }),
});

/** A zone edit sends what changed: a rename sends only `name`. */
export const ZoneEditBodySchema = Type.Partial(ZoneBodySchema);

export const FloorZoneParamsSchema = Type.Object({ id: IdSchema, zoneId: IdSchema });

export const ZoneSearchQuerySchema = Type.Object({
  /** Case-insensitive substring of the zone name. */
  search: Type.Optional(SafeString({ maxLength: LIMITS.nameMax })),
});

export const zoneMessages = {
  tooFewPoints: 'A zone needs at least 3 points that are not on one line',
  selfIntersecting: "A zone's edges must not cross each other",
  outside: 'Every point of a zone must be inside the floor',
  updated: 'Zone is updated successfully',
} as const;

export const InventoryMetaQuerySchema = Type.Object({
  /** ISO-8601 date or date-time (UTC unless an offset is given); filters on last_seen. */
  startDate: Type.Optional(SafeString({ maxLength: 40 })),
  endDate: Type.Optional(SafeString({ maxLength: 40 })),
});

export const InventoryMetaSchema = Type.Object({
  totalUnassignedAssets: Type.Integer(),
  totalActiveAssets: Type.Integer(),
  totalInActiveAssets: Type.Integer(),
  totalOfflineAssets: Type.Integer(),
  totalAssets: Type.Integer(),
});

/** Devices of one type by connection status (spec §3: offline, active, inactive). */
export const DeviceCountsSchema = Type.Object({
  total: Type.Integer(),
  active: Type.Integer(),
  inactive: Type.Integer(),
  offline: Type.Integer(),
});

export const InventoryStatisticsSchema = Type.Object({
  /** Helmets also by whether a worker wears them. */
  helmets: Type.Object({
    ...DeviceCountsSchema.properties,
    assigned: Type.Integer(),
    unassigned: Type.Integer(),
  }),
  anchors: DeviceCountsSchema,
  sinks: DeviceCountsSchema,
  total: Type.Integer(),
});

export const AnchorStatisticsSchema = Type.Object({
  total: Type.Integer(),
  approved: Type.Integer(),
  unapproved: Type.Integer(),
  online: Type.Integer(),
  offline: Type.Integer(),
});

export type FloorReply = Static<typeof FloorSchema>;
export type ZoneReply = Static<typeof ZoneSchema>;
export type ZoneBody = Static<typeof ZoneBodySchema>;
export type ZoneEditBody = Static<typeof ZoneEditBodySchema>;
export type DeviceCounts = Static<typeof DeviceCountsSchema>;
export type InventoryStatistics = Static<typeof InventoryStatisticsSchema>;
export type AnchorStatistics = Static<typeof AnchorStatisticsSchema>;
