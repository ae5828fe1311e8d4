import { type Static, Type } from 'typebox';
import type { GridField } from '../gridFields';
import { SafeString } from '../text';
import type { PERMIT_STATUSES, PERMIT_TYPES, WorkPermit } from '../workPermits';
import { LongLatSchema, ZONE_POINTS_MAX } from './floors';
import { IdSchema } from './sites';

/**
 * Request and reply schemas of work permits and grid fields (spec §7 "Work permits and grid").
 * Rules beyond the shape (area on the floor, one holder of the site, from before to, status
 * changes, axes) are src/domain/workPermits.ts and gridFields.ts, checked by the routes.
 */

export const PERMIT_NUMBER_MAX = 50;

export const PermitTypeSchema = Type.Union([
  Type.Literal('hotWork'),
  Type.Literal('workAtHeight'),
  Type.Literal('confinedSpace'),
  Type.Literal('electricalIsolation'),
  Type.Literal('excavation'),
  Type.Literal('other'),
]);
export const PermitStatusSchema = Type.Union([
  Type.Literal('draft'),
  Type.Literal('active'),
  Type.Literal('suspended'),
  Type.Literal('closed'),
]);
// The schemas and the domain's lists must not drift apart.
const _typesAgree: (typeof PERMIT_TYPES)[number] extends Static<typeof PermitTypeSchema> ? true : never =
  true;
const _statusesAgree: (typeof PERMIT_STATUSES)[number] extends Static<typeof PermitStatusSchema>
  ? true
  : never = true;

const NullableId = Type.Union([IdSchema, Type.Null()]);

export const WorkPermitSchema = Type.Unsafe<WorkPermit>(
  Type.Object({
    id: IdSchema,
    site_id: IdSchema,
    floor_id: IdSchema,
    number: Type.String(),
    type: PermitTypeSchema,
    area: Type.Array(LongLatSchema),
    holder_crew_id: NullableId,
    holder_subcontractor_id: NullableId,
    holder_name: Type.String(),
    valid_from: Type.String(),
    valid_to: Type.String(),
    status: PermitStatusSchema,
    grid_ref: Type.Union([Type.String(), Type.Null()]),
    created_at: Type.String(),
    updated_at: Type.String(),
  }),
);

export const WorkPermitBodySchema = Type.Object({
  number: SafeString({ maxLength: PERMIT_NUMBER_MAX }),
  type: PermitTypeSchema,
  area: Type.Array(LongLatSchema, { maxItems: ZONE_POINTS_MAX }),
  holder_crew_id: Type.Optional(NullableId),
  holder_subcontractor_id: Type.Optional(NullableId),
  /** ISO-8601 date-time with an offset. */
  valid_from: SafeString({ minLength: 1, maxLength: 40 }),
  valid_to: SafeString({ minLength: 1, maxLength: 40 }),
  status: Type.Optional(PermitStatusSchema),
});

/** An edit sends what changed: a status change sends only `status`. */
export const WorkPermitEditBodySchema = Type.Partial(WorkPermitBodySchema);

export const FloorPathParamsSchema = Type.Object({ clientId: IdSchema, siteId: IdSchema, floorId: IdSchema });
export const PermitPathParamsSchema = Type.Object({
  clientId: IdSchema,
  siteId: IdSchema,
  floorId: IdSchema,
  permitId: IdSchema,
});

export const SitePathParamsSchema = Type.Object({ clientId: IdSchema, siteId: IdSchema });

const NamedSchema = Type.Object({ id: IdSchema, name: Type.String() });

/** Who may hold a permit of the site: its crews and subcontractors, by name. */
export const PermitHoldersSchema = Type.Object({
  crews: Type.Array(NamedSchema),
  subcontractors: Type.Array(NamedSchema),
});
export type PermitHolders = Static<typeof PermitHoldersSchema>;

export const WorkPermitListQuerySchema = Type.Object({
  status: Type.Optional(PermitStatusSchema),
  type: Type.Optional(PermitTypeSchema),
});

const GridAxisSchema = Type.Object({
  label: SafeString({ minLength: 1, maxLength: 10 }),
  offset_m: Type.Number({ minimum: 0, maximum: 100_000 }),
});

export const GridAxesSchema = Type.Object({
  columns: Type.Array(GridAxisSchema, { maxItems: 200 }),
  rows: Type.Array(GridAxisSchema, { maxItems: 200 }),
});

export const GridFieldBodySchema = Type.Object({
  floor_id: IdSchema,
  name: SafeString({ minLength: 1, maxLength: 100 }),
  axes: GridAxesSchema,
});

export const GridFieldSchema = Type.Unsafe<GridField>(
  Type.Object({
    id: IdSchema,
    floor_id: IdSchema,
    name: Type.String(),
    axes: GridAxesSchema,
    created_at: Type.String(),
    updated_at: Type.String(),
  }),
);

export type WorkPermitBody = Static<typeof WorkPermitBodySchema>;
export type WorkPermitEditBody = Static<typeof WorkPermitEditBodySchema>;
export type GridFieldBody = Static<typeof GridFieldBodySchema>;
