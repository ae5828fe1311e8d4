import { type SQL, sql } from 'drizzle-orm';
import type { Span } from '../../src/domain/attendance';
import type { Db } from '../db/database';

/**
 * What the daily attendance report reads: the workers in reach, their dated crew and shift
 * assignments, the manual attendance of the range, and presence as spans. Presence comes from the
 * presence rollup (minute buckets, kept after raw positions expire) or, for comparison, from the
 * raw positions reduced to the same minute buckets; either way the gaps-and-islands step runs in
 * SQL, so a month of 2,000 workers is a few spans per worker and day, not millions of rows.
 */

type Rows<T> = { rows: T[] };

export interface AttendanceWorker {
  id: number;
  name: string;
  tag: string | null;
  subcontractorId: number | null;
  subcontractorName: string | null;
  workerRoleName: string | null;
}

export interface DatedAssignment {
  workerId: number;
  targetId: number;
  /** YYYY-MM-DD */
  assigned_at: string;
}

export interface ManualRow {
  workerId: number;
  day: string;
  present: boolean;
  checkIn: string | null;
  checkOut: string | null;
  notes: string | null;
}

const idList = (ids: readonly number[]): SQL =>
  sql.join(
    ids.map((id) => sql`${id}`),
    sql`, `,
  );

/** `and <column> in (ids)`, or nothing when every worker of the site is asked for. */
const amongWorkers = (column: SQL, ids: readonly number[] | null): SQL =>
  ids === null ? sql`` : sql`and ${column} in (${ids.length ? idList(ids) : sql`null`})`;

export async function attendanceWorkers(
  db: Db,
  siteId: number,
  filters: { subcontractorId?: number; workerRoleId?: number },
): Promise<AttendanceWorker[]> {
  const conditions: SQL[] = [sql`w.site_id = ${siteId}`];
  if (filters.subcontractorId !== undefined)
    conditions.push(sql`w.subcontractor_id = ${filters.subcontractorId}`);
  if (filters.workerRoleId !== undefined) conditions.push(sql`w.worker_role_id = ${filters.workerRoleId}`);
  const result = (await db.execute(sql`
    select w.id, w.name, w.worker_tag_id, w.subcontractor_id, s.name as subcontractor_name, r.name as role_name
    from workers w
    left join subcontractors s on s.id = w.subcontractor_id
    left join worker_roles r on r.id = w.worker_role_id
    where ${sql.join(conditions, sql` and `)}
    order by lower(w.name), w.id`)) as unknown as Rows<{
    id: number;
    name: string;
    worker_tag_id: string | null;
    subcontractor_id: number | null;
    subcontractor_name: string | null;
    role_name: string | null;
  }>;
  return result.rows.map((row) => ({
    id: Number(row.id),
    name: row.name,
    tag: row.worker_tag_id,
    subcontractorId: row.subcontractor_id === null ? null : Number(row.subcontractor_id),
    subcontractorName: row.subcontractor_name,
    workerRoleName: row.role_name,
  }));
}

/** Crew or shift assignments dated on or before `to`, per worker in date order (same date: by id). */
export async function datedAssignments(
  db: Db,
  kind: 'crew' | 'workshift',
  siteId: number,
  to: string,
  workerIds: readonly number[] | null,
): Promise<Map<number, DatedAssignment[]>> {
  const query =
    kind === 'crew'
      ? sql`select a.worker_id, a.crew_id as target_id, a.assigned_at::text as assigned_at
          from crew_assignments a join crews t on t.id = a.crew_id
          where t.site_id = ${siteId} and a.assigned_at <= ${to}::date ${amongWorkers(sql`a.worker_id`, workerIds)}
          order by a.worker_id, a.assigned_at, a.id`
      : sql`select a.worker_id, a.workshift_id as target_id, a.assigned_at::text as assigned_at
          from workshift_assignments a join workshifts t on t.id = a.workshift_id
          where t.site_id = ${siteId} and a.assigned_at <= ${to}::date ${amongWorkers(sql`a.worker_id`, workerIds)}
          order by a.worker_id, a.assigned_at, a.id`;
  const result = (await db.execute(query)) as unknown as Rows<{
    worker_id: number;
    target_id: number;
    assigned_at: string;
  }>;
  const byWorker = new Map<number, DatedAssignment[]>();
  for (const row of result.rows) {
    const workerId = Number(row.worker_id);
    const list = byWorker.get(workerId) ?? [];
    list.push({
      workerId,
      targetId: Number(row.target_id),
      assigned_at: String(row.assigned_at).slice(0, 10),
    });
    byWorker.set(workerId, list);
  }
  return byWorker;
}

export async function manualAttendanceRows(
  db: Db,
  siteId: number,
  from: string,
  to: string,
  workerIds: readonly number[] | null,
): Promise<Map<string, ManualRow>> {
  const result = (await db.execute(sql`
    select worker_id, day::text as day, present, check_in, check_out, notes from manual_attendance
    where site_id = ${siteId} and day between ${from}::date and ${to}::date
      ${amongWorkers(sql`worker_id`, workerIds)}`)) as unknown as Rows<{
    worker_id: number;
    day: string;
    present: boolean;
    check_in: string | null;
    check_out: string | null;
    notes: string | null;
  }>;
  const byKey = new Map<string, ManualRow>();
  for (const row of result.rows) {
    const workerId = Number(row.worker_id);
    const day = String(row.day).slice(0, 10);
    byKey.set(`${workerId}|${day}`, {
      workerId,
      day,
      present: Boolean(row.present),
      checkIn: row.check_in,
      checkOut: row.check_out,
      notes: row.notes,
    });
  }
  return byKey;
}

export type PresenceSource = 'rollups' | 'positions';

/**
 * Each worker's presence in [fromMs, toMs) as spans of whole minutes: a minute with any presence
 * on a floor of the site counts, and minutes at most `gapSeconds` apart (end of one to start of
 * the next) join one span.
 */
export async function presenceSpans(
  db: Db,
  source: PresenceSource,
  siteId: number,
  window: { fromMs: number; toMs: number },
  gapSeconds: number,
  workerIds: readonly number[] | null,
): Promise<Map<number, Span[]>> {
  const from = sql`${new Date(window.fromMs).toISOString()}::timestamptz`;
  const to = sql`${new Date(window.toMs).toISOString()}::timestamptz`;
  const buckets =
    source === 'rollups'
      ? sql`select worker_id, bucket from presence_minutes
          where site_id = ${siteId} and bucket >= ${from} and bucket < ${to} and seconds > 0
            ${amongWorkers(sql`worker_id`, workerIds)}
          group by worker_id, bucket`
      : sql`select worker_id, date_trunc('minute', ts) as bucket from positions
          where site_id = ${siteId} and ts >= ${from} and ts < ${to}
            and worker_id is not null and floor_id is not null
            ${amongWorkers(sql`worker_id`, workerIds)}
          group by 1, 2`;
  const result = (await db.execute(sql`
    with b as (${buckets}),
    marked as (
      select worker_id, bucket,
        case when bucket - lag(bucket) over (partition by worker_id order by bucket)
          <= make_interval(secs => ${gapSeconds + 60}) then 0 else 1 end as starts
      from b
    ),
    islands as (
      select worker_id, bucket, sum(starts) over (partition by worker_id order by bucket) as island from marked
    )
    select worker_id, (extract(epoch from min(bucket)) * 1000)::float8 as f,
      (extract(epoch from max(bucket)) * 1000 + 60000)::float8 as t
    from islands group by worker_id, island order by worker_id, f`)) as unknown as Rows<{
    worker_id: number;
    f: number;
    t: number;
  }>;
  const byWorker = new Map<number, Span[]>();
  for (const row of result.rows) {
    const workerId = Number(row.worker_id);
    const spans = byWorker.get(workerId) ?? [];
    spans.push({ fromMs: Number(row.f), toMs: Number(row.t) });
    byWorker.set(workerId, spans);
  }
  return byWorker;
}

export interface ShiftRow {
  id: number;
  name: string;
  startTime: string;
  endTime: string;
  breaks: { start: string; end: string }[];
  nonWorkingDays: number[];
}

export async function siteShiftsAndCrews(
  db: Db,
  siteId: number,
): Promise<{ shifts: Map<number, ShiftRow>; crews: Map<number, string> }> {
  const shifts = (await db.execute(sql`
    select id, name, start_time, end_time, breaks, non_working_days from workshifts
    where site_id = ${siteId}`)) as unknown as Rows<{
    id: number;
    name: string;
    start_time: string;
    end_time: string;
    breaks: unknown;
    non_working_days: unknown;
  }>;
  const crews = (await db.execute(
    sql`select id, name from crews where site_id = ${siteId}`,
  )) as unknown as Rows<{
    id: number;
    name: string;
  }>;
  const parse = <T>(value: unknown): T => (typeof value === 'string' ? JSON.parse(value) : value) as T;
  return {
    shifts: new Map(
      shifts.rows.map((row) => [
        Number(row.id),
        {
          id: Number(row.id),
          name: row.name,
          startTime: row.start_time,
          endTime: row.end_time,
          breaks: parse<{ start: string; end: string }[]>(row.breaks) ?? [],
          nonWorkingDays: parse<number[]>(row.non_working_days) ?? [],
        },
      ]),
    ),
    crews: new Map(crews.rows.map((row) => [Number(row.id), row.name])),
  };
}
