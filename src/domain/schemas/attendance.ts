import { type Static, type TSchema, Type } from 'typebox';
import { ATTENDANCE_MAX_DAYS } from '../attendance';
import { SafeString } from '../text';
import { IdSchema, successOf } from './sites';
import { PageMetaSchema } from './users';

/**
 * The daily attendance report (GET /api/sites/{id}/attendance/daily and …/daily/export): rows per
 * worker and site-local day, totals per subcontractor and headcount by hour of the day.
 */

const nullable = <S extends TSchema>(schema: S) => Type.Union([schema, Type.Null()]);

export const ATTENDANCE_PER_PAGE_MAX = 500;

export const ATTENDANCE_MESSAGES = {
  fromInvalid: 'From must be a date written YYYY-MM-DD, e.g. 2026-11-26',
  toInvalid: 'To must be a date written YYYY-MM-DD, e.g. 2026-11-26',
  toBeforeFrom: 'To must be on or after From',
  rangeTooLong: `A report may span at most ${ATTENDANCE_MAX_DAYS} days`,
} as const;

/** Dates are checked by the route (422 with ATTENDANCE_MESSAGES), not by the schema's 400. */
export const AttendanceQuerySchema = Type.Object({
  from: Type.Optional(SafeString({ maxLength: 40 })),
  to: Type.Optional(SafeString({ maxLength: 40 })),
  crew_id: Type.Optional(IdSchema),
  subcontractor_id: Type.Optional(IdSchema),
  worker_role_id: Type.Optional(IdSchema),
  workshift_id: Type.Optional(IdSchema),
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000 })),
  perPage: Type.Optional(Type.Integer({ minimum: 1, maximum: ATTENDANCE_PER_PAGE_MAX })),
});
export type AttendanceQuery = Static<typeof AttendanceQuerySchema>;

export const AttendanceStatusSchema = Type.Union([
  Type.Literal('present'),
  Type.Literal('absent'),
  Type.Literal('off'),
  Type.Literal('upcoming'),
]);

export const ManualAttendanceSchema = Type.Object({
  present: Type.Boolean(),
  /** HH:mm, site-local. */
  check_in: nullable(Type.String()),
  check_out: nullable(Type.String()),
  notes: nullable(Type.String()),
  /** Check-in to check-out minus the shift's breaks; null without both times. */
  hours: nullable(Type.Number()),
});

export const AttendanceRowSchema = Type.Object({
  worker_id: Type.Integer(),
  worker_name: Type.String(),
  worker_tag_id: nullable(Type.String()),
  /** YYYY-MM-DD, site-local. */
  day: Type.String(),
  crew_id: nullable(Type.Integer()),
  crew_name: nullable(Type.String()),
  workshift_id: nullable(Type.Integer()),
  workshift_name: nullable(Type.String()),
  /** HH:mm of the shift in force that day. */
  shift_start: nullable(Type.String()),
  shift_end: nullable(Type.String()),
  subcontractor_id: nullable(Type.Integer()),
  subcontractor_name: nullable(Type.String()),
  worker_role_name: nullable(Type.String()),
  /** ISO-8601 UTC instants. */
  first_seen: nullable(Type.String()),
  last_seen: nullable(Type.String()),
  /** Hours, two decimals. */
  on_site_hours: Type.Number(),
  break_hours: Type.Number(),
  shift_hours: Type.Number(),
  overtime_hours: Type.Number(),
  worked_hours: Type.Number(),
  manual: nullable(ManualAttendanceSchema),
  /** The manual hours where the upload gave some, else the worked hours. */
  effective_hours: Type.Number(),
  late: Type.Boolean(),
  absent: Type.Boolean(),
  status: AttendanceStatusSchema,
});
export type AttendanceRow = Static<typeof AttendanceRowSchema>;

export const SubcontractorTotalSchema = Type.Object({
  subcontractor_id: nullable(Type.Integer()),
  subcontractor_name: nullable(Type.String()),
  workers: Type.Integer(),
  present_days: Type.Integer(),
  absent_days: Type.Integer(),
  late_days: Type.Integer(),
  on_site_hours: Type.Number(),
  shift_hours: Type.Number(),
  overtime_hours: Type.Number(),
  effective_hours: Type.Number(),
});
export type SubcontractorTotal = Static<typeof SubcontractorTotalSchema>;

export const HourlyHeadcountSchema = Type.Object({
  /** Hour of the site-local day, 0–23. */
  hour: Type.Integer(),
  /** Workers on site during that hour, on average over the days of the range (two decimals). */
  average: Type.Number(),
  /** The most on any one day of the range. */
  peak: Type.Integer(),
});
export type HourlyHeadcount = Static<typeof HourlyHeadcountSchema>;

export const AttendanceReportSchema = Type.Object({
  from: Type.String(),
  to: Type.String(),
  timezone: Type.String(),
  /** Rows over every page (meta.total too). */
  row_count: Type.Integer(),
  rows: Type.Array(AttendanceRowSchema),
  totals: Type.Array(SubcontractorTotalSchema),
  headcount: Type.Array(HourlyHeadcountSchema),
});
export type AttendanceReport = Static<typeof AttendanceReportSchema>;

export const AttendanceReply = Type.Object({
  ...successOf(AttendanceReportSchema).properties,
  meta: Type.Optional(PageMetaSchema),
});
export type AttendanceReplyBody = Static<typeof AttendanceReply>;
