import { type SQL, sql } from 'drizzle-orm';
import { type ActivityStatus, actionsFor } from '../../src/domain/activityStatus';
import { productivityOf, sumHours } from '../../src/domain/productivity';
import type { Activity, ActivityDelay } from '../../src/domain/schemas/productivity';
import { canonicalTimezone } from '../../src/domain/timezones';
import type { Principal } from '../auth/principal';
import type { Executor } from '../db/executor';
import { reachableActivitiesWhere } from './activityScope';
import { presenceHoursOf } from './presenceHours';

export const ACTIVITY_SORT_SQL = {
  day: sql`a.day`,
  name: sql`lower(a.name)`,
  status: sql`array_position(array['assigned','in_progress','delayed','done','in_review','approved_by_cm','approved'], a.status)`,
  crew: sql`lower(c.name)`,
  code: sql`lower(ac.code)`,
} as const;

export interface ActivitySelection {
  /** Site-local days, both included. */
  from?: string;
  to?: string;
  crewId?: number;
  status?: ActivityStatus;
  activityCodeId?: number;
  search?: string;
  ids?: readonly number[];
  sort?: { field: keyof typeof ACTIVITY_SORT_SQL; descending: boolean };
}

interface ActivityRecord {
  id: number;
  site_id: number;
  day: string;
  name: string;
  code_id: number;
  code: string;
  code_name: string;
  uom: string;
  target_rate: string;
  crew_id: number | null;
  crew_name: string | null;
  location_group_id: number | null;
  location_group_name: string | null;
  zone_id: number | null;
  zone_name: string | null;
  target_quantity: string | null;
  planned_quantity: string;
  installed_quantity: string | null;
  planned_hours: string;
  booked_hours: string | null;
  actual_hours: string | null;
  status: ActivityStatus;
  rejection_reason: string | null;
  version: number;
}

const numberOrNull = (value: string | number | null) => (value === null ? null : Number(value));
const ref = (id: number | null, name: string | null) =>
  id === null ? null : { id: Number(id), name: name ?? '' };

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** The caller's activities of a site matching the selection, with presence hours and delays. */
export async function loadActivities(
  db: Executor,
  principal: Principal,
  site: { id: number; timezone: string },
  selection: ActivitySelection,
): Promise<Activity[]> {
  if (selection.ids && selection.ids.length === 0) return [];
  const where: SQL[] = [sql`a.site_id = ${site.id}`, reachableActivitiesWhere(principal)];
  if (selection.from) where.push(sql`a.day >= ${selection.from}::date`);
  if (selection.to) where.push(sql`a.day <= ${selection.to}::date`);
  if (selection.crewId !== undefined) where.push(sql`a.crew_id = ${selection.crewId}`);
  if (selection.status) where.push(sql`a.status = ${selection.status}`);
  if (selection.activityCodeId !== undefined)
    where.push(sql`a.activity_code_id = ${selection.activityCodeId}`);
  if (selection.ids) where.push(sql`a.id = any(${`{${selection.ids.join(',')}}`}::int[])`);
  const search = selection.search?.trim();
  if (search) {
    const pattern = `%${escapeLike(search.toLowerCase())}%`;
    where.push(
      sql`(lower(a.name) like ${pattern} or lower(ac.code) like ${pattern} or lower(ac.name) like ${pattern})`,
    );
  }
  const sort = selection.sort ?? { field: 'day', descending: false };
  const direction = sort.descending ? sql`desc` : sql`asc`;
  const result = (await db.execute(sql`
    select a.id, a.site_id, a.day::text as day, a.name,
      ac.id as code_id, ac.code, ac.name as code_name, ac.uom, ac.target_rate::text as target_rate,
      a.crew_id, c.name as crew_name, a.location_group_id, lg.name as location_group_name,
      a.zone_id, z.name as zone_name,
      a.target_quantity::text as target_quantity, a.planned_quantity::text as planned_quantity,
      a.installed_quantity::text as installed_quantity, a.planned_hours::text as planned_hours,
      a.booked_hours::text as booked_hours, a.actual_hours::text as actual_hours,
      a.status, a.rejection_reason, a.version
    from activities a
    join activity_codes ac on ac.id = a.activity_code_id
    left join crews c on c.id = a.crew_id
    left join location_groups lg on lg.id = a.location_group_id
    left join zones z on z.id = a.zone_id
    where ${sql.join(where, sql` and `)}
    order by ${ACTIVITY_SORT_SQL[sort.field]} ${direction} nulls last, a.id ${direction}`)) as unknown as {
    rows: ActivityRecord[];
  };
  const ids = result.rows.map((row) => Number(row.id));
  const timeZone = canonicalTimezone(site.timezone) ?? 'UTC';
  // One after the other: inside a transaction both run on its one connection anyway.
  const presence = await presenceHoursOf(db, site.id, timeZone, ids);
  const delays = await delaysOf(db, ids);
  return result.rows.map((row) => activityOf(row, presence, delays, principal));
}

async function delaysOf(db: Executor, activityIds: readonly number[]): Promise<Map<number, ActivityDelay[]>> {
  const byActivity = new Map<number, ActivityDelay[]>();
  if (activityIds.length === 0) return byActivity;
  const result = (await db.execute(sql`
    select d.id, d.activity_id, d.hours_lost::text as hours_lost, d.notes,
      dc.id as code_id, dc.code, dc.name
    from activity_delays d join delay_codes dc on dc.id = d.delay_code_id
    where d.activity_id = any(${`{${activityIds.join(',')}}`}::int[])
    order by d.activity_id, d.id`)) as unknown as {
    rows: {
      id: number;
      activity_id: number;
      hours_lost: string;
      notes: string | null;
      code_id: number;
      code: string;
      name: string;
    }[];
  };
  for (const row of result.rows) {
    const list = byActivity.get(Number(row.activity_id)) ?? [];
    list.push({
      id: Number(row.id),
      delay_code: { id: Number(row.code_id), code: row.code, name: row.name },
      hours_lost: Number(row.hours_lost),
      notes: row.notes,
    });
    byActivity.set(Number(row.activity_id), list);
  }
  return byActivity;
}

function activityOf(
  row: ActivityRecord,
  presence: Map<number, number>,
  delaysByActivity: Map<number, ActivityDelay[]>,
  principal: Principal,
): Activity {
  const id = Number(row.id);
  const targetRate = Number(row.target_rate);
  const installed = numberOrNull(row.installed_quantity);
  const typed = numberOrNull(row.actual_hours);
  const presenceHours = presence.get(id) ?? null;
  const actual = typed ?? presenceHours;
  const { earned, gain, loss } = productivityOf(installed, targetRate, actual);
  const delays = delaysByActivity.get(id) ?? [];
  return {
    id,
    site_id: Number(row.site_id),
    day: row.day.slice(0, 10),
    name: row.name,
    activity_code: {
      id: Number(row.code_id),
      code: row.code,
      name: row.code_name,
      uom: row.uom,
      target_rate: targetRate,
    },
    crew: ref(row.crew_id, row.crew_name),
    location_group: ref(row.location_group_id, row.location_group_name),
    zone: ref(row.zone_id, row.zone_name),
    target_quantity: numberOrNull(row.target_quantity),
    planned_quantity: Number(row.planned_quantity),
    installed_quantity: installed,
    planned_hours: Number(row.planned_hours),
    booked_hours: numberOrNull(row.booked_hours),
    presence_hours: presenceHours,
    actual_hours: actual,
    actual_hours_typed: typed !== null,
    earned_hours: earned,
    gain_hours: gain,
    loss_hours: loss,
    delays,
    delay_lost_hours: sumHours(delays.map((delay) => delay.hours_lost)),
    status: row.status,
    rejection_reason: row.rejection_reason,
    version: Number(row.version),
    actions: actionsFor(principal.role, row.status),
  };
}
