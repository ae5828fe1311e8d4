import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { and, asc, eq, inArray, ne, type SQL, sql } from 'drizzle-orm';
import { Type } from 'typebox';
import { LIMITS } from '../../src/domain/limits';
import { messages } from '../../src/domain/messages';
import { IdParamsSchema, IdSchema, NameSchema, successOf } from '../../src/domain/schemas/sites';
import { CrewManagerUserSchema } from '../../src/domain/schemas/workforce';
import { SafeString } from '../../src/domain/text';
import { allow } from '../auth/authenticate';
import { type Principal, principalOf } from '../auth/principal';
import { requireSite } from '../auth/tenancy';
import type { Db } from '../db/database';
import { uniqueViolation } from '../db/errors';
import { crewAssignments, crewManagers, crews, users } from '../db/schema';
import { ok } from '../http/envelope';
import { conflict, forbidden, notFound } from '../http/errors';
import { requiredName } from '../http/input';
import type { Services } from '../services';
import {
  AssignBodySchema,
  AssignReplySchema,
  assignmentDate,
  managesCrew,
  requireSiteWorkers,
} from './assignments';
import { selectCrewManagerUsers, siteCrewManagersWhere } from './crewManagerUsers';

const CrewSchema = Type.Object({
  id: Type.Integer(),
  site_id: Type.Integer(),
  name: Type.String(),
  /** Users with the crew-manager role who manage the crew. */
  manager_ids: Type.Array(Type.Integer()),
  created_at: Type.String(),
  updated_at: Type.String(),
});
const CrewReply = successOf(CrewSchema);
const CrewBodySchema = Type.Object({ name: NameSchema });
const CrewQuerySchema = Type.Object({ search: Type.Optional(SafeString({ maxLength: LIMITS.nameMax })) });
const CrewParamsSchema = Type.Object({ id: IdSchema, crewId: IdSchema });
const ManagersBodySchema = Type.Object({ userIds: Type.Array(IdSchema, { maxItems: 100 }) });

type CrewRow = typeof crews.$inferSelect;
const duplicate = () => conflict(messages.duplicateName('Crew'));

async function withManagers(db: Db, rows: CrewRow[]) {
  const ids = rows.map((row) => row.id);
  const managers = ids.length
    ? await db.select().from(crewManagers).where(inArray(crewManagers.crewId, ids))
    : [];
  return rows.map((row) => ({
    id: row.id,
    site_id: row.siteId,
    name: row.name,
    manager_ids: managers
      .filter((m) => m.crewId === row.id)
      .map((m) => m.userId)
      .sort((a, b) => a - b),
    created_at: new Date(row.createdAt).toISOString(),
    updated_at: new Date(row.updatedAt).toISOString(),
  }));
}

/** Crews a crew manager does not manage are as unknown to it as another client's. */
function visibleCrewsWhere(principal: Principal): SQL | undefined {
  return principal.role === 'crew-manager' ? managesCrew(principal.id) : undefined;
}

async function requireCrew(db: Db, principal: Principal, siteId: number, crewId: number): Promise<CrewRow> {
  const [crew] = await db
    .select()
    .from(crews)
    .where(and(eq(crews.id, crewId), eq(crews.siteId, siteId), visibleCrewsWhere(principal)))
    .limit(1);
  if (!crew) throw notFound('Crew');
  return crew;
}

async function nameTaken(db: Db, siteId: number, name: string, exceptId?: number): Promise<boolean> {
  const [row] = await db
    .select({ id: crews.id })
    .from(crews)
    .where(
      and(
        eq(crews.siteId, siteId),
        sql`lower(trim(${crews.name})) = lower(${name})`,
        exceptId === undefined ? undefined : ne(crews.id, exceptId),
      ),
    )
    .limit(1);
  return row !== undefined;
}

/** Naming a crew's managers is for the admin roles, not for crew managers. */
function adminOnly(principal: Principal): void {
  if (principal.role === 'crew-manager') throw forbidden();
}

/** Crews, their managers and crew assignments (spec §7 "Work shifts, crews, groups", "Workers"). */
export const crewRoutes: FastifyPluginAsyncTypebox<Services> = async (app, { db }) => {
  app.get(
    '/sites/:id/crews',
    {
      preValidation: allow('crews', 'open'),
      schema: {
        params: IdParamsSchema,
        querystring: CrewQuerySchema,
        response: { 200: successOf(Type.Array(CrewSchema)) },
      },
    },
    async (request) => {
      const principal = principalOf(request);
      const site = await requireSite(db, principal, request.params.id);
      const text = request.query.search?.trim();
      const rows = await db
        .select()
        .from(crews)
        .where(
          and(
            eq(crews.siteId, site.id),
            visibleCrewsWhere(principal),
            text ? sql`strpos(lower(${crews.name}), lower(${text})) > 0` : undefined,
          ),
        )
        .orderBy(sql`lower(${crews.name})`, asc(crews.id));
      return ok(await withManagers(db, rows));
    },
  );

  app.post(
    '/sites/:id/crews',
    {
      preValidation: allow('crews', 'write'),
      schema: { params: IdParamsSchema, body: CrewBodySchema, response: { 200: CrewReply } },
    },
    async (request) => {
      const principal = principalOf(request);
      const site = await requireSite(db, principal, request.params.id);
      const name = requiredName(request.body.name);
      if (await nameTaken(db, site.id, name)) throw duplicate();
      try {
        const row = await db.transaction(async (tx) => {
          const [created] = await tx.insert(crews).values({ siteId: site.id, name }).returning();
          // A crew manager's new crew is theirs to manage (and so stays visible to them).
          if (principal.role === 'crew-manager')
            await tx.insert(crewManagers).values({ crewId: created.id, userId: principal.id });
          return created;
        });
        const [crew] = await withManagers(db, [row]);
        return ok(crew, messages.created('Crew'));
      } catch (error) {
        if (uniqueViolation(error)) throw duplicate();
        throw error;
      }
    },
  );

  app.post(
    '/sites/:id/crews/:crewId',
    {
      preValidation: allow('crews', 'write'),
      schema: { params: CrewParamsSchema, body: CrewBodySchema, response: { 200: CrewReply } },
    },
    async (request) => {
      const principal = principalOf(request);
      const site = await requireSite(db, principal, request.params.id);
      const crew = await requireCrew(db, principal, site.id, request.params.crewId);
      const name = requiredName(request.body.name);
      if (await nameTaken(db, site.id, name, crew.id)) throw duplicate();
      try {
        const [row] = await db
          .update(crews)
          .set({ name, updatedAt: new Date() })
          .where(eq(crews.id, crew.id))
          .returning();
        const [updated] = await withManagers(db, [row]);
        return ok(updated, 'Crew is updated successfully');
      } catch (error) {
        if (uniqueViolation(error)) throw duplicate();
        throw error;
      }
    },
  );

  app.post(
    '/sites/:id/crews/:crewId/managers',
    {
      preValidation: allow('crews', 'write'),
      schema: { params: CrewParamsSchema, body: ManagersBodySchema, response: { 200: CrewReply } },
    },
    async (request) => {
      const principal = principalOf(request);
      adminOnly(principal);
      const site = await requireSite(db, principal, request.params.id);
      const crew = await requireCrew(db, principal, site.id, request.params.crewId);
      const userIds = [...new Set(request.body.userIds)];
      if (userIds.length) {
        const rows = await db
          .select({ id: users.id })
          .from(users)
          .where(and(inArray(users.id, userIds), siteCrewManagersWhere(site)));
        if (rows.length !== userIds.length) throw notFound('User');
      }
      await db.transaction(async (tx) => {
        await tx.delete(crewManagers).where(eq(crewManagers.crewId, crew.id));
        if (userIds.length)
          await tx.insert(crewManagers).values(userIds.map((userId) => ({ crewId: crew.id, userId })));
      });
      const [updated] = await withManagers(db, [crew]);
      return ok(updated, 'Crew managers are updated successfully');
    },
  );

  // The managers picker: listed by the server, with the rule naming managers applies.
  app.get(
    '/sites/:id/crew-manager-users',
    {
      preValidation: allow('crews', 'write'),
      schema: { params: IdParamsSchema, response: { 200: successOf(Type.Array(CrewManagerUserSchema)) } },
    },
    async (request) => {
      const principal = principalOf(request);
      adminOnly(principal);
      const site = await requireSite(db, principal, request.params.id);
      return ok(await selectCrewManagerUsers(db, site));
    },
  );

  app.post(
    '/sites/:id/workers/crews/:crewId/assign',
    {
      preValidation: allow('crews', 'write'),
      schema: {
        params: CrewParamsSchema,
        body: AssignBodySchema,
        response: { 200: successOf(AssignReplySchema) },
      },
    },
    async (request) => {
      const principal = principalOf(request);
      const site = await requireSite(db, principal, request.params.id);
      const crew = await requireCrew(db, principal, site.id, request.params.crewId);
      const assignedAt = assignmentDate(request.body.assigned_at);
      const workerIds = await requireSiteWorkers(db, principal, site.id, request.body.workerIds);
      await db.transaction(async (tx) => {
        await tx
          .insert(crewAssignments)
          .values(workerIds.map((workerId) => ({ crewId: crew.id, workerId, assignedAt })));
      });
      return ok({ assigned: workerIds.length, assigned_at: assignedAt }, 'Workers are assigned to the crew');
    },
  );
};
