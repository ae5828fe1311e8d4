import { type Static, type TSchema, Type } from 'typebox';
import type { ActivityAction, ActivityStatus } from '../activityStatus';
import { SafeString } from '../text';
import { IdSchema, NameSchema, successOf } from './sites';
import { PageMetaSchema } from './users';

/**
 * eTQR productivity (spec §3 "Activity and activity code", §4 statuses, §7 "Productivity"): the
 * activities of a site with their booked quantities, hours and delays, computed gain and loss
 * hours, and the bulk changes and approvals. Hours and quantities are JSON numbers with two
 * decimals, null when empty.
 */

const nullable = <S extends TSchema>(schema: S) => Type.Union([schema, Type.Null()]);

// `type: [..., 'null']` rather than anyOf: with the server's type coercion an anyOf would turn 0
// into null instead of keeping it.
const nullableNumber = () => Type.Unsafe<number | null>({ type: ['number', 'null'] });
const nullableId = () =>
  Type.Unsafe<number | null>({ type: ['integer', 'null'], minimum: 1, maximum: 2_147_483_647 });

export const ACTIVITY_PER_PAGE_MAX = 500;
/** Rows of one POST …/activity/bulk or …/activity/approve/bulk. */
export const ACTIVITY_BULK_MAX = 5000;
/** Ids of one GET …/activity/bulk: they travel in the query string, which a server caps at 16 KiB. */
export const ACTIVITY_BULK_READ_MAX = 1000;
export const ACTIVITY_DELAYS_PER_CHANGE_MAX = 50;
export const ACTIVITY_REASON_MAX = 500;
/** Days of one GET …/activity range (its summary covers every activity of it). */
export const ACTIVITY_MAX_DAYS = 93;
export const ACTIVITY_SORT_FIELDS = ['day', 'name', 'status', 'crew', 'code'] as const;

export const ActivityStatusSchema = Type.Union([
  Type.Literal('assigned'),
  Type.Literal('in_progress'),
  Type.Literal('delayed'),
  Type.Literal('done'),
  Type.Literal('in_review'),
  Type.Literal('approved_by_cm'),
  Type.Literal('approved'),
]);
export const ActivityActionSchema = Type.Union([
  Type.Literal('start'),
  Type.Literal('delay'),
  Type.Literal('resume'),
  Type.Literal('finish'),
  Type.Literal('submit'),
  Type.Literal('approve'),
  Type.Literal('reject'),
]);
/** The actions POST …/activity/bulk takes; approval has a route of its own. */
export const BULK_CHANGE_ACTIONS = ['start', 'delay', 'resume', 'finish', 'submit', 'reject'] as const;
export type BulkChangeAction = (typeof BULK_CHANGE_ACTIONS)[number];
export const BulkChangeActionSchema = Type.Union([
  Type.Literal('start'),
  Type.Literal('delay'),
  Type.Literal('resume'),
  Type.Literal('finish'),
  Type.Literal('submit'),
  Type.Literal('reject'),
]);

export const ActivityCodeSchema = Type.Object({
  id: Type.Integer(),
  code: Type.String(),
  name: Type.String(),
  uom: Type.String(),
  /** Quantity per hour. */
  target_rate: Type.Number(),
});
export type ActivityCode = Static<typeof ActivityCodeSchema>;

export const DelayCodeSchema = Type.Object({ id: Type.Integer(), code: Type.String(), name: Type.String() });
export type DelayCode = Static<typeof DelayCodeSchema>;

const NamedRef = nullable(Type.Object({ id: Type.Integer(), name: Type.String() }));

export const ActivityDelaySchema = Type.Object({
  id: Type.Integer(),
  delay_code: DelayCodeSchema,
  hours_lost: Type.Number(),
  notes: nullable(Type.String()),
});
export type ActivityDelay = Static<typeof ActivityDelaySchema>;

export const ActivitySchema = Type.Object({
  id: Type.Integer(),
  site_id: Type.Integer(),
  /** YYYY-MM-DD, site-local. */
  day: Type.String(),
  name: Type.String(),
  activity_code: ActivityCodeSchema,
  crew: NamedRef,
  location_group: NamedRef,
  zone: NamedRef,
  target_quantity: nullable(Type.Number()),
  planned_quantity: Type.Number(),
  installed_quantity: nullable(Type.Number()),
  planned_hours: Type.Number(),
  booked_hours: nullable(Type.Number()),
  /** Worker-hours of the crew inside the activity's zone or location group that day, from presence. */
  presence_hours: nullable(Type.Number()),
  /** The typed actual hours where set, else presence_hours. */
  actual_hours: nullable(Type.Number()),
  actual_hours_typed: Type.Boolean(),
  /** Computed by src/domain/productivity.ts. */
  earned_hours: nullable(Type.Number()),
  gain_hours: nullable(Type.Number()),
  loss_hours: nullable(Type.Number()),
  delays: Type.Array(ActivityDelaySchema),
  delay_lost_hours: Type.Number(),
  status: ActivityStatusSchema,
  rejection_reason: nullable(Type.String()),
  version: Type.Integer(),
  /** What the caller may do now (actionsFor(role, status), crew-scoped). */
  actions: Type.Array(ActivityActionSchema),
});
export type Activity = Static<typeof ActivitySchema>;

export const ActivityHistoryEntrySchema = Type.Object({
  from_status: ActivityStatusSchema,
  to_status: ActivityStatusSchema,
  reason: nullable(Type.String()),
  changed_by_name: nullable(Type.String()),
  /** ISO-8601 UTC instant. */
  changed_at: Type.String(),
});
export type ActivityHistoryEntry = Static<typeof ActivityHistoryEntrySchema>;

export const ActivityWithHistorySchema = Type.Object({
  ...ActivitySchema.properties,
  history: Type.Array(ActivityHistoryEntrySchema),
});
export type ActivityWithHistory = Static<typeof ActivityWithHistorySchema>;

export const CrewGainLossSchema = Type.Object({
  crew_id: nullable(Type.Integer()),
  crew_name: nullable(Type.String()),
  gain_hours: Type.Number(),
  loss_hours: Type.Number(),
});
export type CrewGainLoss = Static<typeof CrewGainLossSchema>;

export const DelayCodeHoursSchema = Type.Object({
  delay_code_id: Type.Integer(),
  code: Type.String(),
  name: Type.String(),
  hours_lost: Type.Number(),
});
export type DelayCodeHours = Static<typeof DelayCodeHoursSchema>;

/** Over the whole filtered range, not the page. */
export const ActivitySummarySchema = Type.Object({
  by_crew: Type.Array(CrewGainLossSchema),
  by_delay_code: Type.Array(DelayCodeHoursSchema),
});
export type ActivitySummary = Static<typeof ActivitySummarySchema>;

// The literal lists above spelled out (TypeBox needs a tuple); these fail to compile if they drift.
const sameStatuses: [ActivityStatus, Static<typeof ActivityStatusSchema>] = ['assigned', 'assigned'] as [
  Static<typeof ActivityStatusSchema>,
  ActivityStatus,
];
const sameActions: [ActivityAction, Static<typeof ActivityActionSchema>] = ['start', 'start'] as [
  Static<typeof ActivityActionSchema>,
  ActivityAction,
];
void sameStatuses;
void sameActions;

// ---- Requests ----

export const ActivityParamsSchema = Type.Object({ id: IdSchema, activityId: IdSchema });

/** Dates and sort are checked by the route (422 with PRODUCTIVITY_MESSAGES), not by the schema's 400. */
export const ActivityListQuerySchema = Type.Object({
  from: Type.Optional(SafeString({ maxLength: 40 })),
  to: Type.Optional(SafeString({ maxLength: 40 })),
  crew_id: Type.Optional(IdSchema),
  status: Type.Optional(ActivityStatusSchema),
  activity_code_id: Type.Optional(IdSchema),
  /** Case-insensitive substring of the activity's name or its code. */
  search: Type.Optional(SafeString({ maxLength: 100 })),
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000 })),
  perPage: Type.Optional(Type.Integer({ minimum: 1, maximum: ACTIVITY_PER_PAGE_MAX })),
  /** "field,asc" or "field,desc"; field one of ACTIVITY_SORT_FIELDS. Default "day,asc". */
  sort: Type.Optional(SafeString({ maxLength: 64 })),
});
export type ActivityListQuery = Static<typeof ActivityListQuerySchema>;

/** `ids=1,2,3`; checked by the route (at most ACTIVITY_BULK_READ_MAX ids). */
export const ActivityBulkReadQuerySchema = Type.Object({ ids: SafeString({ maxLength: 12_000 }) });
export type ActivityBulkReadQuery = Static<typeof ActivityBulkReadQuerySchema>;

/** Numbers are checked by the route (≥ 0, two decimals) so the message names the field. */
export const CreateActivityBodySchema = Type.Object({
  name: NameSchema,
  activity_code_id: IdSchema,
  /** YYYY-MM-DD, site-local. */
  day: SafeString({ maxLength: 40 }),
  crew_id: Type.Optional(nullableId()),
  location_group_id: Type.Optional(nullableId()),
  zone_id: Type.Optional(nullableId()),
  target_quantity: Type.Optional(nullableNumber()),
  planned_quantity: Type.Number(),
  planned_hours: Type.Number(),
});
export type CreateActivityBody = Static<typeof CreateActivityBodySchema>;

export const NewDelaySchema = Type.Object({
  delay_code_id: IdSchema,
  hours_lost: Type.Number(),
  notes: Type.Optional(nullable(SafeString({ maxLength: ACTIVITY_REASON_MAX, multiline: true }))),
});
export type NewDelay = Static<typeof NewDelaySchema>;

export const ActivityChangeSchema = Type.Object({
  id: IdSchema,
  version: Type.Integer({ minimum: 1, maximum: 2_147_483_647 }),
  installed_quantity: Type.Optional(nullableNumber()),
  booked_hours: Type.Optional(nullableNumber()),
  /** null puts the actual hours back to the presence-derived figure. */
  actual_hours: Type.Optional(nullableNumber()),
  add_delays: Type.Optional(Type.Array(NewDelaySchema, { maxItems: ACTIVITY_DELAYS_PER_CHANGE_MAX })),
  remove_delay_ids: Type.Optional(Type.Array(IdSchema, { maxItems: ACTIVITY_DELAYS_PER_CHANGE_MAX })),
  action: Type.Optional(BulkChangeActionSchema),
  /** Required with `reject`. */
  reason: Type.Optional(nullable(SafeString({ maxLength: ACTIVITY_REASON_MAX, multiline: true }))),
});
export type ActivityChange = Static<typeof ActivityChangeSchema>;

export const ActivityBulkBodySchema = Type.Object({
  changes: Type.Array(ActivityChangeSchema, { minItems: 1, maxItems: ACTIVITY_BULK_MAX }),
});
export type ActivityBulkBody = Static<typeof ActivityBulkBodySchema>;

export const ApproveBulkBodySchema = Type.Object({
  activities: Type.Array(
    Type.Object({ id: IdSchema, version: Type.Integer({ minimum: 1, maximum: 2_147_483_647 }) }),
    { minItems: 1, maxItems: ACTIVITY_BULK_MAX },
  ),
});
export type ApproveBulkBody = Static<typeof ApproveBulkBodySchema>;

// ---- Replies ----

const RowRefusedSchema = Type.Object({ id: Type.Integer(), ok: Type.Literal(false), message: Type.String() });
export type RowRefused = Static<typeof RowRefusedSchema>;

export const ActivityChangeResultSchema = Type.Union([
  Type.Object({ id: Type.Integer(), ok: Type.Literal(true), activity: ActivitySchema }),
  RowRefusedSchema,
]);
export type ActivityChangeResult = Static<typeof ActivityChangeResultSchema>;

export const ApprovalResultSchema = Type.Union([
  Type.Object({ id: Type.Integer(), ok: Type.Literal(true), status: ActivityStatusSchema }),
  RowRefusedSchema,
]);
export type ApprovalResult = Static<typeof ApprovalResultSchema>;

export const ActivityListReply = Type.Object({
  ...successOf(Type.Array(ActivitySchema)).properties,
  meta: Type.Optional(PageMetaSchema),
  summary: Type.Optional(ActivitySummarySchema),
});
export type ActivityListReplyBody = Static<typeof ActivityListReply>;

export const ActivityReply = successOf(ActivitySchema);
export const ActivityWithHistoryReply = successOf(ActivityWithHistorySchema);
export const ActivityBulkReadReply = successOf(Type.Array(ActivitySchema));
export const ActivityBulkReply = successOf(Type.Object({ results: Type.Array(ActivityChangeResultSchema) }));
export type ActivityBulkReplyBody = Static<typeof ActivityBulkReply>;
export const ApproveBulkReply = successOf(Type.Object({ results: Type.Array(ApprovalResultSchema) }));
export type ApproveBulkReplyBody = Static<typeof ApproveBulkReply>;
export const DelayCodesReply = successOf(Type.Array(DelayCodeSchema));
export const ActivityCodesReply = successOf(Type.Array(ActivityCodeSchema));

const HOURS_RULE = 'must be a number from 0 to 999,999.99 with at most two decimals';
const QUANTITY_RULE = 'must be a number from 0 to 9,999,999,999.99 with at most two decimals';

/** The texts of the productivity routes (src/i18n/server.{en,ar}.json, server.productivity.*). */
export const PRODUCTIVITY_MESSAGES = {
  fromInvalid: 'From must be a date written YYYY-MM-DD, e.g. 2026-11-26',
  toInvalid: 'To must be a date written YYYY-MM-DD, e.g. 2026-11-26',
  toBeforeFrom: 'To must be on or after From',
  rangeTooLong: `A range may span at most ${ACTIVITY_MAX_DAYS} days`,
  dayInvalid: 'Day must be a date written YYYY-MM-DD, e.g. 2026-11-26',
  sortInvalid: 'Sort must be one of day, name, status, crew, code followed by ,asc or ,desc',
  idsInvalid: `Ids must be a comma-separated list of at most ${ACTIVITY_BULK_READ_MAX} activity ids`,
  crewNotYours: 'You may only plan activities for your own crews',
  delayCodeUnknown: 'Delay code is not one of this site’s delay codes',
  delayUnknown: 'The delay to remove is not one of this activity’s delays',
  duplicateRow: 'The activity is named twice in this request',
  duplicateActivity: 'An activity with this name already exists on that day',
  nothingToChange: 'Nothing to change',
  plannedQuantityInvalid: `Planned quantity ${QUANTITY_RULE}`,
  plannedHoursInvalid: `Planned hours ${HOURS_RULE}`,
  targetQuantityInvalid: `Target quantity ${QUANTITY_RULE}`,
  installedQuantityInvalid: `Installed quantity ${QUANTITY_RULE}`,
  bookedHoursInvalid: `Booked hours ${HOURS_RULE}`,
  actualHoursInvalid: `Actual hours ${HOURS_RULE}`,
  hoursLostInvalid: 'Hours lost must be a number above 0 and up to 999,999.99 with at most two decimals',
} as const;

/** The message of POST …/activity/approve/bulk. */
export const approvedMessage = (approved: number | string, requested: number | string) =>
  `${approved} of ${requested} activities approved`;
