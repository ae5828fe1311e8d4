import { and, eq, type SQL, sql } from 'drizzle-orm';
import type { AssignmentListQuery } from '../../src/domain/schemas/groups';
import type { Principal } from '../auth/principal';
import type { Db } from '../db/database';
import { workers } from '../db/schema';
import { notFound } from '../http/errors';
import { rows } from '../workers/sqlRows';
import { currentCrewMembers } from '../workforce/currentCrewMembers';

export const ASSIGNMENTS_PER_PAGE = 50;

/**
 * Which workers of a site an assignment list may name, as a condition on `w.id` (`w` being the
 * workers table): all of them, or for a crew manager the current members of its crews (the
 * worker list's rule, server/workforce/currentCrewMembers.ts), or none. A
 * `worker_id` outside the site or out of the caller's sight is a 404, as the worker itself is.
 */
export async function visibleWorkersWhere(
  db: Db,
  principal: Principal,
  site: { id: number; timezone: string },
  workerId: number | undefined,
): Promise<SQL> {
  const members = principal.role === 'crew-manager' ? await currentCrewMembers(db, principal.id, site) : null;
  if (workerId !== undefined) {
    const [worker] = await db
      .select({ id: workers.id })
      .from(workers)
      .where(and(eq(workers.id, workerId), eq(workers.siteId, site.id)))
      .limit(1);
    if (!worker || (members && !members.has(workerId))) throw notFound('Worker');
    return sql`w.id = ${workerId}`;
  }
  if (!members) return sql`true`;
  if (members.size === 0) return sql`false`;
  // One array parameter, however many members: a list of parameters has a ceiling.
  return sql`w.id = any(${`{${[...members].join(',')}}`}::int[])`;
}

export interface AssignmentPage<T> {
  items: T[];
  meta: { page: number; perPage: number; total: number };
}

/**
 * A page of an assignment list: `select` is the select list, `from` the FROM and WHERE (filtered
 * to the site and the visible workers), `order` the ORDER BY. Counted apart, so a page past the
 * end still says the total.
 */
export async function assignmentPage<T>(
  db: Db,
  query: AssignmentListQuery,
  parts: { select: SQL; from: SQL; order: SQL },
): Promise<AssignmentPage<T>> {
  const page = query.page ?? 1;
  const perPage = query.perPage ?? ASSIGNMENTS_PER_PAGE;
  const [items, [count]] = await Promise.all([
    rows<T>(
      db,
      sql`select ${parts.select} ${parts.from} order by ${parts.order}
          limit ${perPage} offset ${(page - 1) * perPage}`,
    ),
    rows<{ total: number | string }>(db, sql`select count(*) as total ${parts.from}`),
  ]);
  return { items, meta: { page, perPage, total: Number(count?.total ?? 0) } };
}
