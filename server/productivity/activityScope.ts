import { type SQL, sql } from 'drizzle-orm';
import type { Principal } from '../auth/principal';

/**
 * The activities a caller reaches on a site it may open: a crew manager only its crews'
 * (crew_managers, like the workers of its crews), everyone else all of them. `alias` is the
 * activities table's alias in the query.
 */
export function reachableActivitiesWhere(principal: Principal, alias: SQL = sql`a`): SQL {
  if (principal.role !== 'crew-manager') return sql`true`;
  return sql`${alias}.crew_id in (select crew_id from crew_managers where user_id = ${principal.id})`;
}

/** Whether a crew manager manages the crew (others are not limited to crews). */
export function managesCrewSql(principal: Principal, crewId: number): SQL {
  return sql`exists (select 1 from crew_managers where crew_id = ${crewId} and user_id = ${principal.id})`;
}
