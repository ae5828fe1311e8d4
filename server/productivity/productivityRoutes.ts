import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { sql } from 'drizzle-orm';
import { addDays } from '../../src/domain/attendance';
import { calendarDateIn, isCalendarDate } from '../../src/domain/calendarDate';
import { messages } from '../../src/domain/messages';
import {
  ACTIVITY_BULK_READ_MAX,
  ACTIVITY_MAX_DAYS,
  ACTIVITY_SORT_FIELDS,
  ActivityBulkBodySchema,
  ActivityBulkReadQuerySchema,
  ActivityBulkReadReply,
  ActivityBulkReply,
  ActivityCodesReply,
  type ActivityListQuery,
  ActivityListQuerySchema,
  ActivityListReply,
  ActivityParamsSchema,
  ActivityReply,
  ActivityWithHistoryReply,
  ApproveBulkBodySchema,
  ApproveBulkReply,
  approvedMessage,
  CreateActivityBodySchema,
  DelayCodesReply,
  PRODUCTIVITY_MESSAGES,
} from '../../src/domain/schemas/productivity';
import { IdParamsSchema } from '../../src/domain/schemas/sites';
import { allow } from '../auth/authenticate';
import { principalOf } from '../auth/principal';
import { requireSite } from '../auth/tenancy';
import { ok } from '../http/envelope';
import { notFound, unprocessable } from '../http/errors';
import type { Services } from '../services';
import { approveActivities } from './activityApprovals';
import { applyActivityChanges } from './activityChanges';
import { createActivity } from './activityCreation';
import { activityHistory } from './activityHistory';
import { type ActivitySelection, loadActivities } from './activityRows';
import { summaryOf } from './activitySummary';
import { siteDelayCodes } from './delayCodes';

const DEFAULT_PER_PAGE = 50;

/** The range asked for (site-local days, both included), by default the week (Monday to Sunday) of today. */
function rangeOf(query: ActivityListQuery, timeZone: string): { from: string; to: string } {
  const today = calendarDateIn(timeZone);
  const weekday = (new Date(`${today}T00:00:00Z`).getUTCDay() + 6) % 7;
  const from = query.from?.trim() || (query.to?.trim() ? query.to.trim() : addDays(today, -weekday));
  const to = query.to?.trim() || (query.from?.trim() ? from : addDays(from, 6));
  const errors: Record<string, string> = {};
  if (!isCalendarDate(from)) errors.from = PRODUCTIVITY_MESSAGES.fromInvalid;
  // A `to` taken from `from` is not named twice.
  if (!isCalendarDate(to) && (query.to?.trim() || isCalendarDate(from)))
    errors.to = PRODUCTIVITY_MESSAGES.toInvalid;
  if (Object.keys(errors).length === 0) {
    if (to < from) errors.to = PRODUCTIVITY_MESSAGES.toBeforeFrom;
    else if (addDays(from, ACTIVITY_MAX_DAYS - 1) < to) errors.to = PRODUCTIVITY_MESSAGES.rangeTooLong;
  }
  if (Object.keys(errors).length > 0) throw unprocessable(errors);
  return { from, to };
}

function sortOf(text: string | undefined): ActivitySelection['sort'] {
  if (!text?.trim()) return undefined;
  const [field, direction = 'asc', ...rest] = text.trim().split(',');
  const known = (ACTIVITY_SORT_FIELDS as readonly string[]).includes(field);
  if (!known || rest.length > 0 || (direction !== 'asc' && direction !== 'desc'))
    throw unprocessable({ sort: PRODUCTIVITY_MESSAGES.sortInvalid });
  return { field: field as (typeof ACTIVITY_SORT_FIELDS)[number], descending: direction === 'desc' };
}

function idsOf(text: string): number[] {
  const parts = text.split(',').map((part) => part.trim());
  const ids = parts.map(Number);
  if (
    parts.length > ACTIVITY_BULK_READ_MAX ||
    parts.some((part) => !/^\d{1,10}$/.test(part)) ||
    ids.some((id) => id < 1 || id > 2_147_483_647)
  )
    throw unprocessable({ ids: PRODUCTIVITY_MESSAGES.idsInvalid });
  return [...new Set(ids)];
}

/**
 * eTQR productivity (spec §7 "Productivity", docs/decisions.md "eTQR activity statuses"): the
 * activities of a site with computed gain and loss hours, their bulk changes and approvals, the
 * site's delay and activity codes. Readers of the productivity area read, its writers write; a
 * crew manager reaches its crews' activities only, another's are 404 or refused per row.
 */
export const productivityRoutes: FastifyPluginAsyncTypebox<Services> = async (app, { db }) => {
  app.get(
    '/sites/:id/activity',
    {
      preValidation: allow('productivity', 'open'),
      schema: {
        params: IdParamsSchema,
        querystring: ActivityListQuerySchema,
        response: { 200: ActivityListReply },
      },
    },
    async (request) => {
      const principal = principalOf(request);
      const site = await requireSite(db, principal, request.params.id);
      const query = request.query;
      const { from, to } = rangeOf(query, site.timezone);
      const all = await loadActivities(db, principal, site, {
        from,
        to,
        crewId: query.crew_id,
        status: query.status,
        activityCodeId: query.activity_code_id,
        search: query.search,
        sort: sortOf(query.sort),
      });
      const page = query.page ?? 1;
      const perPage = query.perPage ?? DEFAULT_PER_PAGE;
      return {
        ...ok(all.slice((page - 1) * perPage, page * perPage), undefined, {
          page,
          perPage,
          total: all.length,
        }),
        summary: summaryOf(all),
      };
    },
  );

  app.post(
    '/sites/:id/activity',
    {
      preValidation: allow('productivity', 'write'),
      schema: { params: IdParamsSchema, body: CreateActivityBodySchema, response: { 200: ActivityReply } },
    },
    async (request) => {
      const principal = principalOf(request);
      const site = await requireSite(db, principal, request.params.id);
      const id = await createActivity(db, principal, site.id, request.body);
      const [activity] = await loadActivities(db, principal, site, { ids: [id] });
      return ok(activity, messages.created('Activity'));
    },
  );

  app.get(
    '/sites/:id/activity/bulk',
    {
      preValidation: allow('productivity', 'open'),
      schema: {
        params: IdParamsSchema,
        querystring: ActivityBulkReadQuerySchema,
        response: { 200: ActivityBulkReadReply },
      },
    },
    async (request) => {
      const principal = principalOf(request);
      const site = await requireSite(db, principal, request.params.id);
      const ids = idsOf(request.query.ids);
      const byId = new Map((await loadActivities(db, principal, site, { ids })).map((a) => [a.id, a]));
      return ok(ids.flatMap((id) => byId.get(id) ?? []));
    },
  );

  app.post(
    '/sites/:id/activity/bulk',
    {
      preValidation: allow('productivity', 'write'),
      schema: { params: IdParamsSchema, body: ActivityBulkBodySchema, response: { 200: ActivityBulkReply } },
    },
    async (request) => {
      const principal = principalOf(request);
      const site = await requireSite(db, principal, request.params.id);
      return ok({ results: await applyActivityChanges(db, principal, site, request.body.changes) });
    },
  );

  app.post(
    '/sites/:id/activity/approve/bulk',
    {
      preValidation: allow('productivity', 'write'),
      schema: { params: IdParamsSchema, body: ApproveBulkBodySchema, response: { 200: ApproveBulkReply } },
    },
    async (request) => {
      const principal = principalOf(request);
      const site = await requireSite(db, principal, request.params.id);
      const results = await approveActivities(db, principal, site.id, request.body.activities);
      const approved = results.filter((result) => result.ok).length;
      return ok({ results }, approvedMessage(approved, results.length));
    },
  );

  app.get(
    '/sites/:id/activity/:activityId',
    {
      preValidation: allow('productivity', 'open'),
      schema: { params: ActivityParamsSchema, response: { 200: ActivityWithHistoryReply } },
    },
    async (request) => {
      const principal = principalOf(request);
      const site = await requireSite(db, principal, request.params.id);
      const [activity] = await loadActivities(db, principal, site, { ids: [request.params.activityId] });
      if (!activity) throw notFound('Activity');
      return ok({ ...activity, history: await activityHistory(db, activity.id) });
    },
  );

  app.get(
    '/sites/:id/delay-codes',
    {
      preValidation: allow('productivity', 'open'),
      schema: { params: IdParamsSchema, response: { 200: DelayCodesReply } },
    },
    async (request) => {
      const site = await requireSite(db, principalOf(request), request.params.id);
      return ok(await siteDelayCodes(db, site.id));
    },
  );

  app.get(
    '/sites/:id/activity-code',
    {
      preValidation: allow('productivity', 'open'),
      schema: { params: IdParamsSchema, response: { 200: ActivityCodesReply } },
    },
    async (request) => {
      const site = await requireSite(db, principalOf(request), request.params.id);
      const result = (await db.execute(sql`
        select id, code, name, uom, target_rate::text as target_rate from activity_codes
        where site_id = ${site.id} order by lower(code), id`)) as unknown as {
        rows: { id: number; code: string; name: string; uom: string; target_rate: string }[];
      };
      return ok(
        result.rows.map((row) => ({
          id: Number(row.id),
          code: row.code,
          name: row.name,
          uom: row.uom,
          target_rate: Number(row.target_rate),
        })),
      );
    },
  );
};
