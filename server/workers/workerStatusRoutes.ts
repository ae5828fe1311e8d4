import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { asc, eq, sql } from 'drizzle-orm';
import { Type } from 'typebox';
import { messages } from '../../src/domain/messages';
import {
  AssignmentListQuerySchema,
  pageOf,
  type WorkerStatusAssignment,
  WorkerStatusAssignmentSchema,
  WorkerStatusBodySchema,
  WorkerStatusSchema,
} from '../../src/domain/schemas/groups';
import { IdParamsSchema, successOf } from '../../src/domain/schemas/sites';
import { allow } from '../auth/authenticate';
import { principalOf } from '../auth/principal';
import { requireSite } from '../auth/tenancy';
import { ensureWorkerStatuses } from '../bulk/workerStatuses';
import { workerStatuses } from '../db/schema';
import { duplicateAsConflict, type NamedRows, nameTaken } from '../floors/namedRows';
import { assignmentPage, visibleWorkersWhere } from '../groups/assignmentScope';
import { ok } from '../http/envelope';
import { conflict, notFound } from '../http/errors';
import { requiredName } from '../http/input';
import type { Services } from '../services';

const LABEL = 'Worker status';

/** A site's statuses, named uniquely within it (case-insensitive, trimmed: the table's unique index). */
const STATUS_ROWS: NamedRows = {
  table: workerStatuses,
  id: workerStatuses.id,
  scope: workerStatuses.siteId,
  name: workerStatuses.name,
  duplicate: () => conflict(messages.duplicateName(LABEL)),
};

/**
 * Spec §7 "Worker status": the site's statuses (the four defaults given on first read), a new
 * status (admins), and the workers' status spells, newest first; a crew manager sees the spells
 * of its crews' current members only. The spells come from the upload at
 * POST /sites/{id}/workers/worker-status/assign/bulk (server/bulk).
 */
export const workerStatusRoutes: FastifyPluginAsyncTypebox<Services> = async (app, { db }) => {
  app.get(
    '/sites/:id/worker-status',
    {
      preValidation: allow('workers', 'open'),
      schema: { params: IdParamsSchema, response: { 200: successOf(Type.Array(WorkerStatusSchema)) } },
    },
    async (request) => {
      const site = await requireSite(db, principalOf(request), request.params.id);
      await ensureWorkerStatuses(db, site.id);
      const statuses = await db
        .select({ id: workerStatuses.id, name: workerStatuses.name })
        .from(workerStatuses)
        .where(eq(workerStatuses.siteId, site.id))
        .orderBy(sql`lower(${workerStatuses.name})`, asc(workerStatuses.id));
      return ok(statuses);
    },
  );

  app.post(
    '/sites/:id/worker-status',
    {
      preValidation: allow('configuration', 'write'),
      schema: {
        params: IdParamsSchema,
        body: WorkerStatusBodySchema,
        response: { 200: successOf(WorkerStatusSchema) },
      },
    },
    async (request) => {
      const site = await requireSite(db, principalOf(request), request.params.id);
      const name = requiredName(request.body.name);
      // The defaults first: a site's first own status must not keep it from getting them.
      await ensureWorkerStatuses(db, site.id);
      if (await nameTaken(db, STATUS_ROWS, site.id, name)) throw STATUS_ROWS.duplicate();
      const [created] = await duplicateAsConflict(STATUS_ROWS, () =>
        db
          .insert(workerStatuses)
          .values({ siteId: site.id, name })
          .returning({ id: workerStatuses.id, name: workerStatuses.name }),
      );
      if (!created) throw notFound(LABEL);
      return ok(created, messages.created(LABEL));
    },
  );

  app.get(
    '/sites/:id/workers/worker-status/assignments',
    {
      preValidation: allow('workers', 'open'),
      schema: {
        params: IdParamsSchema,
        querystring: AssignmentListQuerySchema,
        response: { 200: pageOf(WorkerStatusAssignmentSchema) },
      },
    },
    async (request) => {
      const principal = principalOf(request);
      const site = await requireSite(db, principal, request.params.id);
      const { query } = request;
      const visible = await visibleWorkersWhere(db, principal, site, query.worker_id);
      const page = await assignmentPage<WorkerStatusAssignment>(db, query, {
        select: sql`a.id, a.worker_id, w.name as worker_name, a.status_id, s.name as status,
          a.starts_on::text as starts_on, a.ends_on::text as ends_on, a.notes`,
        from: sql`from worker_status_assignments a
          join workers w on w.id = a.worker_id
          join worker_statuses s on s.id = a.status_id and s.site_id = ${site.id}
          where w.site_id = ${site.id} and ${visible}`,
        order: sql`a.starts_on desc, a.id desc`,
      });
      return ok(page.items, undefined, page.meta);
    },
  );
};
