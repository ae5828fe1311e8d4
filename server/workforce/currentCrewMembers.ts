import { eq, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../db/database';
import { sites } from '../db/schema';
import { siteToday } from '../workers/workerQueries';

const idList = (ids: readonly number[]): SQL =>
  sql.join(
    ids.map((id) => sql`${id}`),
    sql`, `,
  );

/**
 * The workers of a site whose current crew (spec §3: the latest crew assignment dated today or
 * earlier in the site's time zone) a user manages, optionally only among `workerIds`. Same lookup
 * as the worker list's crew-manager scope, so a worker the list hides is never named elsewhere.
 */
export async function currentCrewMembers(
  db: Db,
  userId: number,
  site: { id: number; timezone: string },
  workerIds?: readonly number[],
): Promise<Set<number>> {
  if (workerIds && workerIds.length === 0) return new Set();
  const among = workerIds === undefined ? sql`` : sql`and w.id in (${idList(workerIds)})`;
  const result = (await db.execute(sql`
    select w.id from workers w
    join lateral (
      select ca.crew_id from crew_assignments ca
      where ca.worker_id = w.id and ca.assigned_at <= ${siteToday(site.timezone)}
      order by ca.assigned_at desc, ca.id desc limit 1
    ) cc on true
    where w.site_id = ${site.id} ${among}
      and exists (select 1 from crew_managers cm where cm.crew_id = cc.crew_id and cm.user_id = ${userId})`)) as unknown as {
    rows: { id: number }[];
  };
  return new Set(result.rows.map((row) => Number(row.id)));
}

/**
 * Among `workerIds` of a site, each crew manager's current crew members: the users who manage
 * the current crew of at least one of them, each with those workers.
 */
export async function currentMembersByManager(
  db: Db,
  siteId: number,
  workerIds: readonly number[],
): Promise<Map<number, Set<number>>> {
  const byManager = new Map<number, Set<number>>();
  if (workerIds.length === 0) return byManager;
  const [site] = await db.select({ timezone: sites.timezone }).from(sites).where(eq(sites.id, siteId));
  if (!site) return byManager;
  const result = (await db.execute(sql`
    select cm.user_id, w.id as worker_id from workers w
    join lateral (
      select ca.crew_id from crew_assignments ca
      where ca.worker_id = w.id and ca.assigned_at <= ${siteToday(site.timezone)}
      order by ca.assigned_at desc, ca.id desc limit 1
    ) cc on true
    join crew_managers cm on cm.crew_id = cc.crew_id
    where w.site_id = ${siteId} and w.id in (${idList(workerIds)})`)) as unknown as {
    rows: { user_id: number; worker_id: number }[];
  };
  for (const row of result.rows) {
    const members = byManager.get(Number(row.user_id)) ?? new Set<number>();
    members.add(Number(row.worker_id));
    byManager.set(Number(row.user_id), members);
  }
  return byManager;
}
