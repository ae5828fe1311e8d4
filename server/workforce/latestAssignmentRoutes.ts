import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { asc, eq, sql } from 'drizzle-orm';
import { Type } from 'typebox';
import { currentAssignment, formatAssignmentDate } from '../../src/domain/currentAssignment';
import { IdParamsSchema, successOf } from '../../src/domain/schemas/sites';
import { localTime } from '../../src/domain/workshiftClock';
import { allow } from '../auth/authenticate';
import { principalOf } from '../auth/principal';
import { requireSite } from '../auth/tenancy';
import { crewAssignments, crews, workers, workshiftAssignments, workshifts } from '../db/schema';
import { ok } from '../http/envelope';
import type { Services } from '../services';
import { managedCrewIds } from './assignments';

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) =>
  Type.Union([schema, Type.Null()]);

const LatestSchema = Type.Object({
  /** The site's date (YYYY-MM-DD in its time zone) the assignments are current on. */
  date: Type.String(),
  workers: Type.Array(
    Type.Object({
      worker_id: Type.Integer(),
      worker_name: Type.String(),
      crew_id: Nullable(Type.Integer()),
      crew_name: Nullable(Type.String()),
      /** YYYY-MM-DD */
      crew_assigned_at: Nullable(Type.String()),
      /** DD/MM/YYYY, as the crew assignment date is shown. */
      crew_assigned_on: Nullable(Type.String()),
      workshift_id: Nullable(Type.Integer()),
      workshift_name: Nullable(Type.String()),
      workshift_assigned_at: Nullable(Type.String()),
    }),
  ),
});

const dateText = (value: string | Date) =>
  typeof value === 'string' ? value.slice(0, 10) : value.toISOString().slice(0, 10);

/**
 * Each worker's current crew and work shift (spec §3): the latest assignment dated today or
 * earlier, "today" being the date in the site's time zone. A crew manager sees only the workers
 * whose current crew it manages.
 */
export const latestAssignmentRoutes: FastifyPluginAsyncTypebox<Services> = async (app, { db }) => {
  app.get(
    '/sites/:id/workers/workshift-and-crews/latest',
    {
      preValidation: allow('workers', 'open'),
      schema: { params: IdParamsSchema, response: { 200: successOf(LatestSchema) } },
    },
    async (request) => {
      const principal = principalOf(request);
      const site = await requireSite(db, principal, request.params.id);
      const today = localTime(new Date(), site.timezone).date;
      const ofSite = sql`${workers.siteId} = ${site.id}`;
      const [workerRows, crewRows, shiftRows] = await Promise.all([
        db
          .select({ id: workers.id, name: workers.name })
          .from(workers)
          .where(eq(workers.siteId, site.id))
          .orderBy(asc(workers.name), asc(workers.id)),
        db
          .select({
            workerId: crewAssignments.workerId,
            id: crews.id,
            name: crews.name,
            assigned_at: crewAssignments.assignedAt,
          })
          .from(crewAssignments)
          .innerJoin(crews, eq(crews.id, crewAssignments.crewId))
          .innerJoin(workers, eq(workers.id, crewAssignments.workerId))
          .where(ofSite)
          .orderBy(asc(crewAssignments.assignedAt), asc(crewAssignments.id)),
        db
          .select({
            workerId: workshiftAssignments.workerId,
            id: workshifts.id,
            name: workshifts.name,
            assigned_at: workshiftAssignments.assignedAt,
          })
          .from(workshiftAssignments)
          .innerJoin(workshifts, eq(workshifts.id, workshiftAssignments.workshiftId))
          .innerJoin(workers, eq(workers.id, workshiftAssignments.workerId))
          .where(ofSite)
          .orderBy(asc(workshiftAssignments.assignedAt), asc(workshiftAssignments.id)),
      ]);
      const group = <T extends { workerId: number; assigned_at: string }>(rows: T[]) => {
        const byWorker = new Map<number, T[]>();
        for (const row of rows) {
          const normalised = { ...row, assigned_at: dateText(row.assigned_at) };
          const list = byWorker.get(row.workerId);
          if (list) list.push(normalised);
          else byWorker.set(row.workerId, [normalised]);
        }
        return byWorker;
      };
      const crewsOf = group(crewRows);
      const shiftsOf = group(shiftRows);
      const managed =
        principal.role === 'crew-manager' ? new Set(await managedCrewIds(db, principal.id, site.id)) : null;

      const list = [];
      for (const worker of workerRows) {
        const crew = currentAssignment(crewsOf.get(worker.id) ?? [], today);
        if (managed && !(crew && managed.has(crew.id))) continue;
        const shift = currentAssignment(shiftsOf.get(worker.id) ?? [], today);
        list.push({
          worker_id: worker.id,
          worker_name: worker.name,
          crew_id: crew?.id ?? null,
          crew_name: crew?.name ?? null,
          crew_assigned_at: crew?.assigned_at ?? null,
          crew_assigned_on: crew ? formatAssignmentDate(crew.assigned_at) : null,
          workshift_id: shift?.id ?? null,
          workshift_name: shift?.name ?? null,
          workshift_assigned_at: shift?.assigned_at ?? null,
        });
      }
      return ok({ date: today, workers: list });
    },
  );
};
