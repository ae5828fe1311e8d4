import { sql } from 'drizzle-orm';
import { hoursOfMinutes } from '../../src/domain/productivity';
import type { Executor } from '../db/executor';

/**
 * Presence-derived hours of activities (issue 21): the worker-hours of the activity's crew inside
 * its zone (or, without a zone, the zones of its location group) on its site-local day, from the
 * presence_minutes rollup. The crew's members are the workers whose crew that day is the
 * activity's crew (their latest assignment dated on or before the day). A minute a worker spends
 * in two overlapping zones of a group counts once. An activity without a crew, or without a zone
 * and a location group, has none (null); with them and no presence, 0.
 */
export async function presenceHoursOf(
  db: Executor,
  siteId: number,
  timeZone: string,
  activityIds: readonly number[],
): Promise<Map<number, number>> {
  const hours = new Map<number, number>();
  if (activityIds.length === 0) return hours;
  const result = (await db.execute(sql`
    with act as (
      select a.id, a.crew_id, a.zone_id, a.location_group_id, a.day,
        (a.day::timestamp at time zone ${timeZone}) as day_start,
        ((a.day + 1)::timestamp at time zone ${timeZone}) as day_end
      from activities a
      where a.site_id = ${siteId} and a.id = any(${`{${activityIds.join(',')}}`}::int[])
        and a.crew_id is not null and (a.zone_id is not null or a.location_group_id is not null)
    ),
    act_zones as (
      select id, zone_id from act where zone_id is not null
      union
      select act.id, lgz.zone_id from act
      join location_group_zones lgz on lgz.group_id = act.location_group_id
      where act.zone_id is null
    ),
    members as (
      select distinct act.id, ca.worker_id from act
      join crew_assignments ca on ca.crew_id = act.crew_id and ca.assigned_at <= act.day
      where not exists (
        select 1 from crew_assignments later
        where later.worker_id = ca.worker_id and later.assigned_at <= act.day
          and (later.assigned_at > ca.assigned_at or (later.assigned_at = ca.assigned_at and later.id > ca.id)))
    ),
    minutes as (
      select act.id, pm.worker_id, pm.bucket, max(pm.seconds) as seconds
      from act
      join members m on m.id = act.id
      join act_zones az on az.id = act.id
      join presence_minutes pm on pm.site_id = ${siteId} and pm.worker_id = m.worker_id
        and pm.zone_id = az.zone_id and pm.bucket >= act.day_start and pm.bucket < act.day_end
      group by act.id, pm.worker_id, pm.bucket
    )
    select act.id, coalesce((select sum(seconds) from minutes where minutes.id = act.id), 0)::float8 as seconds
    from act`)) as unknown as { rows: { id: number; seconds: number }[] };
  for (const row of result.rows) hours.set(Number(row.id), hoursOfMinutes(Number(row.seconds) / 60));
  return hours;
}
