import { type Static, Type } from 'typebox';
import { SafeString } from '../text';
import { WORKER_PER_PAGE_MAX, type WorkerNestedInventory } from '../workers';
import { IdSchema } from './sites';

/**
 * Request schemas of the worker routes (spec §7 "Workers"). Bodies are loose on purpose (strings
 * up to a generous bound): the field rules and their spec §5 messages live in
 * src/domain/workerValidation.ts so the answer is a 422 with the right text, never a schema error.
 */

const Text = Type.Union([SafeString({ maxLength: 1000 }), Type.Null()]);
const NumberText = Type.Union([SafeString({ maxLength: 1000 }), Type.Number(), Type.Null()]);
const NullableId = Type.Union([IdSchema, Type.Null()]);

export const WorkerBodySchema = Type.Object({
  name: Type.Optional(Text),
  worker_tag_id: Type.Optional(Text),
  contact_number: Type.Optional(NumberText),
  helmet_color: Type.Optional(Text),
  worker_role_id: Type.Optional(NullableId),
  subcontractor_id: Type.Optional(NullableId),
});
export type WorkerBody = Static<typeof WorkerBodySchema>;

export const WorkerParamsSchema = Type.Object({ id: IdSchema, workerId: IdSchema });
export const WorkerHelmetParamsSchema = Type.Object({ id: IdSchema, workerId: IdSchema, helmetId: IdSchema });

export const WorkerListQuerySchema = Type.Object({
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000 })),
  perPage: Type.Optional(Type.Integer({ minimum: 1, maximum: WORKER_PER_PAGE_MAX })),
  /** "field,asc" or "field,desc"; field one of WORKER_SORT_FIELDS. */
  sort: Type.Optional(SafeString({ maxLength: 64 })),
  /** Case-insensitive substring of name, worker tag id or the helmet's wnt id. */
  search: Type.Optional(SafeString({ maxLength: 100 })),
  roleId: Type.Optional(IdSchema),
  subcontractorId: Type.Optional(IdSchema),
  crewId: Type.Optional(IdSchema),
  workshiftId: Type.Optional(IdSchema),
  status: Type.Optional(
    Type.Union([Type.Literal('active'), Type.Literal('inactive'), Type.Literal('offline')]),
  ),
  floorId: Type.Optional(IdSchema),
});
export type WorkerListQuery = Static<typeof WorkerListQuerySchema>;

const NullableText = Type.Union([Type.String(), Type.Null()]);
const NullableName = Type.Union([Type.Object({ name: Type.String() }), Type.Null()]);
const NullableNumber = Type.Union([Type.Integer(), Type.Null()]);

/**
 * The helmet of the nested worker (GET /sites/{id}/workers/{id}, `Inventory`): the spec's fields
 * plus where it was last placed (floor_id, building_id, zone_id, coordinates), which the worker's
 * page draws on its floor (issue 6, docs/decisions.md).
 */
export const WorkerNestedInventorySchema = Type.Object({
  is_online: Type.Boolean(),
  is_active: Type.Boolean(),
  wnt_inventory_id: Type.String(),
  Building: NullableName,
  Floor: NullableName,
  Zone: NullableName,
  last_seen: NullableText,
  last_active_at: NullableText,
  floor_id: Type.Optional(NullableNumber),
  building_id: Type.Optional(NullableNumber),
  zone_id: Type.Optional(NullableNumber),
  coordinates: Type.Optional(
    Type.Union([Type.Object({ lat: Type.Number(), long: Type.Number() }), Type.Null()]),
  ),
});

// The schema and the domain type describe the same object: a field added to one fails here.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const inventoryShapeMatches: Same<Static<typeof WorkerNestedInventorySchema>, WorkerNestedInventory> = true;
void inventoryShapeMatches;
