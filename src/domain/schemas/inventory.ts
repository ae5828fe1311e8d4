import { type Static, type TSchema, Type } from 'typebox';
import type { AssetOption, INVENTORY_TYPES, InventoryItem, WorkerOnMap } from '../inventory';
import { SafeString } from '../text';
import { IdSchema, successOf } from './sites';
import { PageMetaSchema } from './users';

/**
 * Request and reply schemas of devices (spec §7 "Inventory and nodes"): a floor's, a network's
 * and a site's inventory, placing a device, where a device was, and registering devices in bulk.
 */

const LatLongSchema = Type.Object({ lat: Type.Number(), long: Type.Number() });
function nullable<T extends TSchema>(schema: T) {
  return Type.Union([schema, Type.Null()]);
}

export const InventoryTypeSchema = Type.Union([
  Type.Literal('helmet'),
  Type.Literal('anchor'),
  Type.Literal('sink'),
]);
// The schema and the domain's list of types must not drift apart.
const _typesAgree: (typeof INVENTORY_TYPES)[number] extends Static<typeof InventoryTypeSchema>
  ? true
  : never = true;

export const InventoryItemSchema = Type.Object({
  id: IdSchema,
  wnt_inventory_id: Type.String(),
  type: InventoryTypeSchema,
  network_id: nullable(IdSchema),
  is_online: Type.Boolean(),
  is_active: Type.Boolean(),
  is_approved: Type.Boolean(),
  coordinates: nullable(LatLongSchema),
  floor_id: nullable(IdSchema),
  zone_id: nullable(IdSchema),
  last_seen: nullable(Type.String()),
  last_active_at: nullable(Type.String()),
  worker_id: nullable(IdSchema),
  assigned_at: nullable(Type.String()),
});
const _itemAgrees: Static<typeof InventoryItemSchema> extends InventoryItem ? true : never = true;

export const AssetOptionSchema = Type.Object({ value: IdSchema, label: Type.String() });
const _assetAgrees: Static<typeof AssetOptionSchema> extends AssetOption ? true : never = true;

export const WorkerOnMapSchema = Type.Object({
  id: nullable(IdSchema),
  inventory_id: IdSchema,
  wnt_inventory_id: Type.String(),
  coordinates: nullable(LatLongSchema),
  name: nullable(Type.String()),
  worker_tag_id: nullable(Type.String()),
  contact_number: nullable(Type.String()),
  role_name: nullable(Type.String()),
  subcontractor_name: nullable(Type.String()),
  last_seen: nullable(Type.String()),
  is_online: Type.Boolean(),
  is_active: Type.Boolean(),
  profile_picture_path: nullable(Type.String()),
  helmet_color: nullable(Type.String()),
  zone_id: nullable(IdSchema),
  zone_name: nullable(Type.String()),
  blueprint_id: nullable(IdSchema),
  blueprint_name: nullable(Type.String()),
});
const _workerAgrees: Static<typeof WorkerOnMapSchema> extends WorkerOnMap ? true : never = true;

/** Where a device was at an instant: its latest position at or before it. */
export const DevicePositionSchema = Type.Object({
  inventory_id: IdSchema,
  coordinates: LatLongSchema,
  floor_id: nullable(IdSchema),
  zone_id: nullable(IdSchema),
  is_online: Type.Boolean(),
  is_active: Type.Boolean(),
  ts: Type.String(),
});

export const InventoryTypeQuerySchema = Type.Object({ type: Type.Optional(InventoryTypeSchema) });

export const FloorInventoryParamsSchema = Type.Object({ id: IdSchema, inventoryId: IdSchema });

export const PlaceDeviceBodySchema = Type.Object({
  lat: Type.Number({ minimum: -90, maximum: 90 }),
  long: Type.Number({ minimum: -180, maximum: 180 }),
  /** Anchors only: the placement is confirmed, once the evidence holds (src/domain/anchorApproval.ts). */
  is_approved: Type.Optional(Type.Boolean()),
  /** Anchors only: goes ahead with an approval whose evidence fails; recorded with it. */
  override_reason: Type.Optional(SafeString({ maxLength: 500, multiline: true })),
});

export const DeviceAtQuerySchema = Type.Object({
  /** ISO-8601 date-time (UTC unless it carries an offset); required, checked by the route. */
  timestamp: Type.Optional(SafeString({ maxLength: 40 })),
});

export const SiteInventoriesQuerySchema = Type.Object({
  type: Type.Optional(InventoryTypeSchema),
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000 })),
  perPage: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
});

export const DEFAULT_INVENTORIES_PER_PAGE = 100;

export const AssetsQuerySchema = Type.Object({
  /** 0: helmets no worker wears (the default); 1: helmets a worker wears. */
  assigned: Type.Optional(Type.Integer({ minimum: 0, maximum: 1 })),
});

/** The most devices one registration call takes (a load test's fleet in one go). */
export const REGISTER_INVENTORIES_MAX = 20_000;
export const WNT_INVENTORY_ID_MAX = 64;

export const RegisterInventoriesBodySchema = Type.Object({
  items: Type.Array(
    Type.Object({
      wnt_inventory_id: SafeString({ minLength: 1, maxLength: WNT_INVENTORY_ID_MAX, nonBlank: true }),
      type: InventoryTypeSchema,
      network_id: Type.Optional(IdSchema),
    }),
    { minItems: 1, maxItems: REGISTER_INVENTORIES_MAX },
  ),
});

export const RegisterInventoriesReplySchema = Type.Object({
  created: Type.Integer(),
  existing: Type.Integer(),
});

export const inventoryMessages = {
  timestampInvalid: 'Timestamp is invalid',
  outsideFloor: 'The device must be placed inside the floor',
  helmetByHand: 'Helmets cannot be placed by hand: they report their own position',
  approveAnchorsOnly: 'Only an anchor can be approved',
  updated: 'Inventory item is updated successfully',
  networkNotOfSite: 'The network does not belong to this site',
  duplicateInBody: 'Each wnt_inventory_id may appear only once',
} as const;

export const InventoryListReply = successOf(Type.Array(InventoryItemSchema));
export const InventoryPageReply = Type.Object({
  ...successOf(Type.Array(InventoryItemSchema)).properties,
  meta: Type.Optional(PageMetaSchema),
});

export type InventoryItemReply = Static<typeof InventoryItemSchema>;
export type DevicePosition = Static<typeof DevicePositionSchema>;
export type PlaceDeviceBody = Static<typeof PlaceDeviceBodySchema>;
export type RegisterInventoriesBody = Static<typeof RegisterInventoriesBodySchema>;
export type RegisterInventoriesReply = Static<typeof RegisterInventoriesReplySchema>;
