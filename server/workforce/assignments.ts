import { and, eq, inArray, sql } from 'drizzle-orm';
import { Type } from 'typebox';
import { isCalendarDate } from '../../src/domain/calendarDate';
import { IdSchema } from '../../src/domain/schemas/sites';
import { SafeString } from '../../src/domain/text';
import type { Principal } from '../auth/principal';
import type { Db } from '../db/database';
import { crewManagers, crews, sites, workers } from '../db/schema';
import { forbidden, notFound, unprocessable } from '../http/errors';
import { currentCrewMembers } from './currentCrewMembers';

/** Up to this many workers in one assignment call. */
export const ASSIGN_MAX_WORKERS = 1000;

/** POST …/assign: workers and the date (in the site's time zone) the assignment starts. */
export const AssignBodySchema = Type.Object({
  workerIds: Type.Array(IdSchema, { minItems: 1, maxItems: ASSIGN_MAX_WORKERS }),
  assigned_at: SafeString({ minLength: 1, maxLength: 10 }),
});

export const AssignReplySchema = Type.Object({
  assigned: Type.Integer(),
  assigned_at: Type.String(),
});

/** A real calendar date as YYYY-MM-DD, or 422 on `assigned_at`. */
export function assignmentDate(value: string): string {
  if (!isCalendarDate(value)) {
    throw unprocessable({ assigned_at: 'Assigned at is invalid' });
  }
  return value;
}

/** The ids of the crews a crew manager manages on a site. */
export async function managedCrewIds(db: Db, userId: number, siteId: number): Promise<number[]> {
  const rows = await db
    .select({ id: crews.id })
    .from(crews)
    .innerJoin(crewManagers, eq(crewManagers.crewId, crews.id))
    .where(and(eq(crews.siteId, siteId), eq(crewManagers.userId, userId)));
  return rows.map((row) => row.id);
}

/** A crew manager naming a site worker outside the crews it manages today. */
export const NOT_A_CURRENT_CREW_MEMBER = 'Worker is not a current member of your crews';

/**
 * The distinct worker ids, each a worker of the site (404 "Worker not found" otherwise). A crew
 * manager may only name the current members of the crews it manages (spec: crew managers see
 * only their crews' workers; current as in the worker list): a worker who left its crews, or
 * joins them only at a later date, is refused with 403.
 */
export async function requireSiteWorkers(
  db: Db,
  principal: Principal,
  siteId: number,
  workerIds: readonly number[],
): Promise<number[]> {
  const ids = [...new Set(workerIds)];
  const rows = await db
    .select({ id: workers.id })
    .from(workers)
    .where(and(eq(workers.siteId, siteId), inArray(workers.id, ids)));
  if (rows.length !== ids.length) throw notFound('Worker');
  if (principal.role === 'crew-manager') {
    const [site] = await db
      .select({ id: sites.id, timezone: sites.timezone })
      .from(sites)
      .where(eq(sites.id, siteId));
    const members = await currentCrewMembers(db, principal.id, site, ids);
    if (members.size !== ids.length) throw forbidden(NOT_A_CURRENT_CREW_MEMBER);
  }
  return ids;
}

/** SQL for "the caller is a crew manager of this crew" used by scoped reads. */
export const managesCrew = (userId: number) =>
  sql`exists (select 1 from ${crewManagers} where ${crewManagers.crewId} = ${crews.id} and ${crewManagers.userId} = ${userId})`;
