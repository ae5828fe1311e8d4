import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { and, asc, eq, ne, sql } from 'drizzle-orm';
import { Type } from 'typebox';
import { LIMITS } from '../../src/domain/limits';
import { messages } from '../../src/domain/messages';
import { IdParamsSchema, IdSchema, NameSchema, successOf } from '../../src/domain/schemas/sites';
import { SafeString } from '../../src/domain/text';
import { firstBreakProblem } from '../../src/domain/workshiftBreaks';
import { allow } from '../auth/authenticate';
import { principalOf } from '../auth/principal';
import { requireSite } from '../auth/tenancy';
import type { Db } from '../db/database';
import { uniqueViolation } from '../db/errors';
import { workshiftAssignments, workshifts } from '../db/schema';
import { ok } from '../http/envelope';
import { conflict, notFound, unprocessable } from '../http/errors';
import { requiredName } from '../http/input';
import type { Services } from '../services';
import { AssignBodySchema, AssignReplySchema, assignmentDate, requireSiteWorkers } from './assignments';

const HH_MM = '^([01][0-9]|2[0-3]):[0-5][0-9]$';
const TimeSchema = Type.String({ pattern: HH_MM, maxLength: 5 });
const BreakSchema = Type.Object({ start: TimeSchema, end: TimeSchema });
export const MAX_BREAKS = 10;

const WorkshiftBodySchema = Type.Object({
  name: NameSchema,
  category: Type.Optional(SafeString({ maxLength: LIMITS.nameMax })),
  /** 0 = Sunday … 6 = Saturday. */
  non_working_days: Type.Optional(Type.Array(Type.Integer({ minimum: 0, maximum: 6 }), { maxItems: 7 })),
  start: TimeSchema,
  end: TimeSchema,
  breaks: Type.Optional(Type.Array(BreakSchema, { maxItems: MAX_BREAKS })),
});
/** An edit sends what changed. */
const WorkshiftEditBodySchema = Type.Partial(WorkshiftBodySchema);

const WorkshiftSchema = Type.Object({
  id: Type.Integer(),
  site_id: Type.Integer(),
  name: Type.String(),
  category: Type.String(),
  non_working_days: Type.Array(Type.Integer()),
  start: Type.String(),
  end: Type.String(),
  breaks: Type.Array(Type.Object({ start: Type.String(), end: Type.String() })),
  created_at: Type.String(),
  updated_at: Type.String(),
});
const WorkshiftReply = successOf(WorkshiftSchema);
const WorkshiftParamsSchema = Type.Object({ id: IdSchema, workshiftId: IdSchema });
const WorkshiftQuerySchema = Type.Object({
  search: Type.Optional(SafeString({ maxLength: LIMITS.nameMax })),
});

type WorkshiftRow = typeof workshifts.$inferSelect;
const duplicate = () => conflict(messages.duplicateName('Workshift'));

function toWorkshift(row: WorkshiftRow) {
  return {
    id: row.id,
    site_id: row.siteId,
    name: row.name,
    category: row.category,
    non_working_days: row.nonWorkingDays,
    start: row.startTime,
    end: row.endTime,
    breaks: row.breaks,
    created_at: new Date(row.createdAt).toISOString(),
    updated_at: new Date(row.updatedAt).toISOString(),
  };
}

interface ShiftFields {
  name: string;
  category: string;
  nonWorkingDays: number[];
  startTime: string;
  endTime: string;
  breaks: { start: string; end: string }[];
}

/** Trimmed name, sorted distinct days, and breaks checked against spec §5 (422 on `breaks`). */
function checkedFields(fields: ShiftFields): ShiftFields {
  const name = requiredName(fields.name);
  const breaks = fields.breaks.map(({ start, end }) => ({ start, end }));
  const problem = firstBreakProblem({ start: fields.startTime, end: fields.endTime, breaks });
  if (problem) throw unprocessable({ breaks: problem });
  return {
    ...fields,
    name,
    category: fields.category.trim(),
    nonWorkingDays: [...new Set(fields.nonWorkingDays)].sort((a, b) => a - b),
    breaks,
  };
}

async function nameTaken(db: Db, siteId: number, name: string, exceptId?: number): Promise<boolean> {
  const [row] = await db
    .select({ id: workshifts.id })
    .from(workshifts)
    .where(
      and(
        eq(workshifts.siteId, siteId),
        sql`lower(trim(${workshifts.name})) = lower(${name})`,
        exceptId === undefined ? undefined : ne(workshifts.id, exceptId),
      ),
    )
    .limit(1);
  return row !== undefined;
}

async function requireWorkshift(db: Db, siteId: number, workshiftId: number): Promise<WorkshiftRow> {
  const [row] = await db
    .select()
    .from(workshifts)
    .where(and(eq(workshifts.id, workshiftId), eq(workshifts.siteId, siteId)))
    .limit(1);
  if (!row) throw notFound('Workshift');
  return row;
}

/** Work shifts and their assignments (spec §3 Workshift, §5 breaks, §7 "Work shifts, crews, groups"). */
export const workshiftRoutes: FastifyPluginAsyncTypebox<Services> = async (app, { db }) => {
  app.get(
    '/sites/:id/workshifts',
    {
      preValidation: allow('workshifts', 'open'),
      schema: {
        params: IdParamsSchema,
        querystring: WorkshiftQuerySchema,
        response: { 200: successOf(Type.Array(WorkshiftSchema)) },
      },
    },
    async (request) => {
      const site = await requireSite(db, principalOf(request), request.params.id);
      const text = request.query.search?.trim();
      const rows = await db
        .select()
        .from(workshifts)
        .where(
          and(
            eq(workshifts.siteId, site.id),
            text ? sql`strpos(lower(${workshifts.name}), lower(${text})) > 0` : undefined,
          ),
        )
        .orderBy(sql`lower(${workshifts.name})`, asc(workshifts.id));
      return ok(rows.map(toWorkshift));
    },
  );

  app.post(
    '/sites/:id/workshifts',
    {
      preValidation: allow('workshifts', 'write'),
      schema: { params: IdParamsSchema, body: WorkshiftBodySchema, response: { 200: WorkshiftReply } },
    },
    async (request) => {
      const principal = principalOf(request);
      const site = await requireSite(db, principal, request.params.id);
      const body = request.body;
      const fields = checkedFields({
        name: body.name,
        category: body.category ?? '',
        nonWorkingDays: body.non_working_days ?? [],
        startTime: body.start,
        endTime: body.end,
        breaks: body.breaks ?? [],
      });
      if (await nameTaken(db, site.id, fields.name)) throw duplicate();
      try {
        const [row] = await db
          .insert(workshifts)
          .values({ siteId: site.id, ...fields })
          .returning();
        return ok(toWorkshift(row), messages.created('Workshift'));
      } catch (error) {
        if (uniqueViolation(error)) throw duplicate();
        throw error;
      }
    },
  );

  app.post(
    '/sites/:id/workshifts/:workshiftId',
    {
      preValidation: allow('workshifts', 'write'),
      schema: {
        params: WorkshiftParamsSchema,
        body: WorkshiftEditBodySchema,
        response: { 200: WorkshiftReply },
      },
    },
    async (request) => {
      const principal = principalOf(request);
      const site = await requireSite(db, principal, request.params.id);
      const shift = await requireWorkshift(db, site.id, request.params.workshiftId);
      const body = request.body;
      const fields = checkedFields({
        name: body.name ?? shift.name,
        category: body.category ?? shift.category,
        nonWorkingDays: body.non_working_days ?? shift.nonWorkingDays,
        startTime: body.start ?? shift.startTime,
        endTime: body.end ?? shift.endTime,
        breaks: body.breaks ?? shift.breaks,
      });
      if (await nameTaken(db, site.id, fields.name, shift.id)) throw duplicate();
      try {
        const [row] = await db
          .update(workshifts)
          .set({ ...fields, updatedAt: new Date() })
          .where(eq(workshifts.id, shift.id))
          .returning();
        return ok(toWorkshift(row), 'Workshift is updated successfully');
      } catch (error) {
        if (uniqueViolation(error)) throw duplicate();
        throw error;
      }
    },
  );

  app.post(
    '/sites/:id/workers/workshifts/:workshiftId/assign',
    {
      preValidation: allow('workshifts', 'write'),
      schema: {
        params: WorkshiftParamsSchema,
        body: AssignBodySchema,
        response: { 200: successOf(AssignReplySchema) },
      },
    },
    async (request) => {
      const principal = principalOf(request);
      const site = await requireSite(db, principal, request.params.id);
      const shift = await requireWorkshift(db, site.id, request.params.workshiftId);
      const assignedAt = assignmentDate(request.body.assigned_at);
      const workerIds = await requireSiteWorkers(db, principal, site.id, request.body.workerIds);
      await db.transaction(async (tx) => {
        await tx
          .insert(workshiftAssignments)
          .values(workerIds.map((workerId) => ({ workshiftId: shift.id, workerId, assignedAt })));
      });
      return ok(
        { assigned: workerIds.length, assigned_at: assignedAt },
        'Workers are assigned to the workshift',
      );
    },
  );
};
