import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ATTENDANCE_MAX_DAYS, addDays } from '../../src/domain/attendance';
import { calendarDateIn, isCalendarDate } from '../../src/domain/calendarDate';
import {
  ATTENDANCE_MESSAGES,
  type AttendanceQuery,
  AttendanceQuerySchema,
  AttendanceReply,
} from '../../src/domain/schemas/attendance';
import { IdParamsSchema } from '../../src/domain/schemas/sites';
import { allow } from '../auth/authenticate';
import { type Principal, principalOf } from '../auth/principal';
import { requireSite } from '../auth/tenancy';
import type { Db } from '../db/database';
import { ok } from '../http/envelope';
import { unprocessable } from '../http/errors';
import type { Services } from '../services';
import { currentCrewMembers } from '../workforce/currentCrewMembers';
import { attendanceWorkbook } from './attendanceExport';
import { type AttendanceRequest, buildAttendanceReport } from './attendanceReport';

const DEFAULT_PER_PAGE = 50;

/** The range of a request (site-local days, both included; today when not given), or a 422. */
function rangeOf(query: AttendanceQuery, timeZone: string): { from: string; to: string } {
  const today = calendarDateIn(timeZone);
  const from = query.from?.trim() || query.to?.trim() || today;
  const to = query.to?.trim() || from;
  const errors: Record<string, string> = {};
  if (!isCalendarDate(from)) errors.from = ATTENDANCE_MESSAGES.fromInvalid;
  if (!isCalendarDate(to)) errors.to = ATTENDANCE_MESSAGES.toInvalid;
  if (Object.keys(errors).length === 0) {
    if (to < from) errors.to = ATTENDANCE_MESSAGES.toBeforeFrom;
    else if (addDays(from, ATTENDANCE_MAX_DAYS - 1) < to) errors.to = ATTENDANCE_MESSAGES.rangeTooLong;
  }
  if (Object.keys(errors).length > 0) throw unprocessable(errors);
  return { from, to };
}

async function reportRequest(
  db: Db,
  principal: Principal,
  siteId: number,
  query: AttendanceQuery,
  offlineAfterSeconds: number,
): Promise<{ request: AttendanceRequest; siteName: string }> {
  const site = await requireSite(db, principal, siteId);
  const { from, to } = rangeOf(query, site.timezone);
  // A crew manager sees the workers of its crews (DESIGN §4), whatever crew it asks for.
  const scope = principal.role === 'crew-manager' ? await currentCrewMembers(db, principal.id, site) : null;
  return {
    siteName: site.name,
    request: {
      site: { id: site.id, timezone: site.timezone },
      from,
      to,
      filters: {
        crewId: query.crew_id,
        subcontractorId: query.subcontractor_id,
        workerRoleId: query.worker_role_id,
        workshiftId: query.workshift_id,
      },
      scope,
      offlineAfterSeconds,
      nowMs: Date.now(),
    },
  };
}

/**
 * GET /api/sites/{id}/attendance/daily and …/daily/export (the daily attendance report): readers
 * of the attendance area (a site viewer reads, a crew manager sees its crews), another tenant's
 * site is 404, a bad range is 422.
 */
export const attendanceRoutes: FastifyPluginAsyncTypebox<Services> = async (app, { db, config }) => {
  app.get(
    '/sites/:id/attendance/daily',
    {
      preValidation: allow('attendance', 'open'),
      schema: {
        params: IdParamsSchema,
        querystring: AttendanceQuerySchema,
        response: { 200: AttendanceReply },
      },
    },
    async (request) => {
      const { request: report } = await reportRequest(
        db,
        principalOf(request),
        request.params.id,
        request.query,
        config.offlineAfterSeconds,
      );
      const whole = await buildAttendanceReport(db, report);
      const page = request.query.page ?? 1;
      const perPage = request.query.perPage ?? DEFAULT_PER_PAGE;
      const rows = whole.rows.slice((page - 1) * perPage, page * perPage);
      return ok({ ...whole, rows }, undefined, { page, perPage, total: whole.rows.length });
    },
  );

  app.get(
    '/sites/:id/attendance/daily/export',
    {
      preValidation: allow('attendance', 'open'),
      schema: { params: IdParamsSchema, querystring: AttendanceQuerySchema },
    },
    async (request, reply) => {
      const { request: report, siteName } = await reportRequest(
        db,
        principalOf(request),
        request.params.id,
        request.query,
        config.offlineAfterSeconds,
      );
      const file = await attendanceWorkbook(await buildAttendanceReport(db, report), siteName);
      return reply
        .header('content-type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
        .header('content-disposition', `attachment; filename="attendance-${report.from}-${report.to}.xlsx"`)
        .send(file);
    },
  );
};
