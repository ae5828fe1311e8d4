import { type SQL, sql } from 'drizzle-orm';
import type { WorkerListQuery } from '../../src/domain/schemas/workers';
import { canonicalTimezone } from '../../src/domain/timezones';
import {
  WORKER_SORT_FIELDS,
  type WorkerFlat,
  type WorkerSortField,
  type WorkerStatistics,
} from '../../src/domain/workers';
import type { Principal } from '../auth/principal';
import type { Db } from '../db/database';
import { preparedRows } from '../db/preparedRows';
import { unprocessable } from '../http/errors';
import { WorkerListTotals } from './listTotals';
import { iso, rows } from './sqlRows';

/**
 * The worker reads of spec §7 "Workers" as plain SQL: one statement per list page (with the
 * total as a count subquery), the current crew and shift as lateral "latest assignment on or
 * before the site's date" lookups (spec §3), the helmet as the inventory row worn by the worker.
 */

export const pictureUrl = (siteId: number, workerId: number, file: string | null): string | null =>
  file ? `/api/sites/${siteId}/workers/${workerId}/picture` : null;

/** The site's calendar date in its own time zone (an unknown zone falls back to UTC). */
export function siteToday(timezone: string): SQL {
  return sql`(now() at time zone ${canonicalTimezone(timezone) ?? 'UTC'})::date`;
}

const SORT_SQL: Record<WorkerSortField, SQL> = {
  id: sql`w.id`,
  name: sql`lower(w.name)`,
  worker_tag_id: sql`w.worker_tag_id`,
  contact_number: sql`w.contact_number`,
  created_at: sql`w.created_at`,
  updated_at: sql`w.updated_at`,
  worker_role_name: sql`lower(r.name)`,
  subcontractor_name: sql`lower(s.name)`,
  wnt_inventory_id: sql`i.wnt_inventory_id`,
  last_seen: sql`i.last_seen`,
};

/** "name,asc" → ORDER BY; 422 on an unknown field or direction. */
export function orderBy(sort: string | undefined): SQL {
  if (!sort) return sql`lower(w.name) asc, w.id asc`;
  const [field, direction = 'asc', ...rest] = sort.split(',').map((part) => part.trim());
  if (
    rest.length > 0 ||
    !(WORKER_SORT_FIELDS as readonly string[]).includes(field ?? '') ||
    (direction !== 'asc' && direction !== 'desc')
  ) {
    throw unprocessable({ sort: 'Sort accepts field,asc or field,desc' });
  }
  const dir = direction === 'desc' ? sql`desc nulls last` : sql`asc nulls last`;
  return sql`${SORT_SQL[field as WorkerSortField]} ${dir}, w.id ${direction === 'desc' ? sql`desc` : sql`asc`}`;
}

/** What a crew manager may see: workers whose current crew it manages; undefined for others. */
export function scopeOf(principal: Principal): SQL | undefined {
  if (principal.role !== 'crew-manager') return undefined;
  return sql`exists (select 1 from crew_managers cm where cm.crew_id = cc.crew_id and cm.user_id = ${principal.id})`;
}

const BASE_JOINS = sql`
    left join inventory_items i on i.worker_id = w.id
    left join worker_roles r on r.id = w.worker_role_id
    left join subcontractors s on s.id = w.subcontractor_id`;

/** BASE_JOINS for the rows of one page: the helmet looked up per row, never a join over all helmets. */
const PAGE_JOINS = sql`
    left join lateral (select * from inventory_items hw where hw.worker_id = w.id limit 1) i on true
    left join worker_roles r on r.id = w.worker_role_id
    left join subcontractors s on s.id = w.subcontractor_id`;

function fromWorkers(today: SQL): SQL {
  return sql`
    from workers w ${BASE_JOINS}
    ${placeJoins(today)}`;
}

/** Location names and the current crew and shift (the lateral lookups are per row: keep them off large scans). */
function placeJoins(today: SQL): SQL {
  return sql`
    left join floors f on f.id = i.floor_id
    left join buildings b on b.id = f.building_id
    left join zones z on z.id = i.zone_id
    left join lateral (
      select ca.crew_id, c.name from crew_assignments ca join crews c on c.id = ca.crew_id
      where ca.worker_id = w.id and ca.assigned_at <= ${today}
      order by ca.assigned_at desc, ca.id desc limit 1
    ) cc on true
    left join lateral (
      select wa.workshift_id, ws.name from workshift_assignments wa join workshifts ws on ws.id = wa.workshift_id
      where wa.worker_id = w.id and wa.assigned_at <= ${today}
      order by wa.assigned_at desc, wa.id desc limit 1
    ) cw on true`;
}

/**
 * The worker status in force on the site's today (spec §7 "Worker status"): the latest-starting
 * spell covering it, a tie going to the later row as in src/domain/workerStatus.ts. A per-row
 * walk of worker_status_assignments_worker_idx, so only for the rows that are shown.
 */
function statusJoin(today: SQL): SQL {
  return sql`
    left join lateral (
      select st.name from worker_status_assignments sa join worker_statuses st on st.id = sa.status_id
      where sa.worker_id = w.id and sa.starts_on <= ${today} and (sa.ends_on is null or sa.ends_on >= ${today})
      order by sa.starts_on desc, sa.id desc limit 1
    ) wst on true`;
}

const WORKER_COLUMNS = sql`
  w.id, w.name, w.site_id, w.worker_tag_id, w.contact_number, w.helmet_color, w.picture_file,
  w.created_at, w.updated_at, w.worker_role_id, w.subcontractor_id`;

const FLAT_COLUMNS = sql`${WORKER_COLUMNS},
  i.id as inventory_id, i.assigned_at as inventory_assigned_at, i.is_online, i.is_active,
  i.wnt_inventory_id, i.last_seen, i.last_active_at,
  r.name as worker_role_name, s.name as subcontractor_name,
  b.name as building_name, f.name as floor_name, z.name as zone_name,
  cc.name as crew_name, cw.name as workshift_name, wst.name as worker_status`;

interface FlatRow {
  id: number;
  name: string;
  site_id: number;
  worker_tag_id: string | null;
  contact_number: string | null;
  helmet_color: string | null;
  picture_file: string | null;
  created_at: Date | string;
  updated_at: Date | string;
  worker_role_id: number | null;
  subcontractor_id: number | null;
  inventory_id: number | null;
  inventory_assigned_at: Date | string | null;
  is_online: boolean | null;
  is_active: boolean | null;
  wnt_inventory_id: string | null;
  last_seen: Date | string | null;
  last_active_at: Date | string | null;
  worker_role_name: string | null;
  subcontractor_name: string | null;
  building_name: string | null;
  floor_name: string | null;
  zone_name: string | null;
  crew_name: string | null;
  workshift_name: string | null;
  worker_status: string | null;
  revision?: number | string;
  total?: number | string | null;
}

function toFlat(row: FlatRow): WorkerFlat {
  return {
    id: row.id,
    media_url: pictureUrl(row.site_id, row.id, row.picture_file),
    name: row.name,
    site_id: row.site_id,
    worker_tag_id: row.worker_tag_id,
    contact_number: row.contact_number,
    helmet_color: row.helmet_color,
    created_at: iso(row.created_at) ?? '',
    updated_at: iso(row.updated_at) ?? '',
    inventory_id: row.inventory_id,
    inventory_assigned_at: iso(row.inventory_assigned_at),
    is_online: row.is_online,
    is_active: row.is_active,
    worker_role_id: row.worker_role_id,
    worker_role_name: row.worker_role_name,
    wnt_inventory_id: row.wnt_inventory_id,
    building_name: row.building_name,
    floor_name: row.floor_name,
    zone_name: row.zone_name,
    last_seen: iso(row.last_seen),
    last_active_at: iso(row.last_active_at),
    subcontractor_id: row.subcontractor_id,
    subcontractor_name: row.subcontractor_name,
    crew_name: row.crew_name,
    workshift_name: row.workshift_name,
    worker_status: row.worker_status,
  };
}

function filters(siteId: number, principal: Principal, query: WorkerListQuery): SQL {
  const parts: SQL[] = [sql`w.site_id = ${siteId}`];
  const scope = scopeOf(principal);
  if (scope) parts.push(scope);
  const search = query.search?.trim().toLowerCase();
  if (search) {
    // Name, tag and the worn helmet's id, each stored lower-cased on the worker's own row.
    parts.push(sql`(strpos(w.search_text, ${search}) > 0 or strpos(w.helmet_search_text, ${search}) > 0)`);
  }
  if (query.roleId) parts.push(sql`w.worker_role_id = ${query.roleId}`);
  if (query.subcontractorId) parts.push(sql`w.subcontractor_id = ${query.subcontractorId}`);
  if (query.crewId) parts.push(sql`cc.crew_id = ${query.crewId}`);
  if (query.workshiftId) parts.push(sql`cw.workshift_id = ${query.workshiftId}`);
  if (query.floorId) parts.push(sql`i.floor_id = ${query.floorId}`);
  // Spec §3: active = online and active; inactive = online, not active; offline = a helmet not online.
  if (query.status === 'active') parts.push(sql`i.is_online and i.is_active`);
  if (query.status === 'inactive') parts.push(sql`i.is_online and not i.is_active`);
  if (query.status === 'offline') parts.push(sql`i.id is not null and not i.is_online`);
  return sql.join(parts, sql` and `);
}

/**
 * Whether a list's total follows from the site's workforce revision alone: not when a filter reads
 * the date (current crew or shift), live helmet state (status, floor) or the crew-manager scope.
 */
export function totalFollowsRevision(principal: Principal, query: WorkerListQuery): boolean {
  return !query.crewId && !query.workshiftId && !query.status && !query.floorId && !scopeOf(principal);
}

/**
 * The one statement behind a list page (exported for the benchmark's bare-SQL baseline): the
 * page's ids first (filter, sort, limit over the cheap joins; with the default name sort an index
 * walk that stops after the page), the names and the lateral crew and shift lookups for those rows
 * alone, the site's workforce revision, and the total as a separate count that runs once, skips
 * the sort and the lookups, and does not run at all when `countedAtRevision` is still current.
 */
export function listWorkersSql(
  principal: Principal,
  site: { id: number; timezone: string },
  query: WorkerListQuery,
  countedAtRevision: number | null = null,
): SQL {
  const page = query.page ?? 1;
  const perPage = query.perPage ?? DEFAULT_PER_PAGE;
  const today = siteToday(site.timezone);
  const order = orderBy(query.sort);
  const from = listFrom(principal, query, today);
  const where = filters(site.id, principal, query);
  const count = sql`(select count(*) ${from} where ${where})`;
  // The page carries its workers' own columns: joining the workers table again costs a scan of it.
  return sql`with page as (
      select ${WORKER_COLUMNS} ${from} where ${where}
      order by ${order} limit ${perPage} offset ${(page - 1) * perPage}),
    rev as (select coalesce(max(revision), 0) as revision from workforce_revisions where site_id = ${site.id})
    select ${FLAT_COLUMNS}, rev.revision,
      ${countedAtRevision === null ? count : sql`case when rev.revision = ${countedAtRevision} then null else ${count} end`} as total
    from page w cross join rev ${PAGE_JOINS} ${placeJoins(today)} ${statusJoin(today)}
    order by ${order}`;
}

/**
 * The joins a list's filter and sort need: all of them when a crew or shift filter or the
 * crew-manager scope reads the current crew or shift; otherwise the role and subcontractor
 * (PostgreSQL drops those joins when a query does not read them) and the helmet only when a
 * status or floor filter or the sort reads it (the search reads the helmet's id from the worker).
 */
function listFrom(principal: Principal, query: WorkerListQuery, today: SQL): SQL {
  if (query.crewId || query.workshiftId || scopeOf(principal)) return fromWorkers(today);
  const sortField = query.sort?.split(',')[0]?.trim();
  if (query.status || query.floorId || sortField === 'wnt_inventory_id' || sortField === 'last_seen') {
    return sql`from workers w ${BASE_JOINS}`;
  }
  return sql`from workers w
    left join worker_roles r on r.id = w.worker_role_id
    left join subcontractors s on s.id = w.subcontractor_id`;
}

export interface WorkerPage {
  items: WorkerFlat[];
  meta: { page: number; perPage: number; total: number };
}

export const DEFAULT_PER_PAGE = 50;

export async function listWorkers(
  db: Db,
  principal: Principal,
  site: { id: number; timezone: string },
  query: WorkerListQuery,
  totals?: WorkerListTotals,
): Promise<WorkerPage> {
  const page = query.page ?? 1;
  const perPage = query.perPage ?? DEFAULT_PER_PAGE;
  const key =
    totals && totalFollowsRevision(principal, query) ? WorkerListTotals.keyOf(site.id, query) : null;
  const known = key ? totals?.get(key) : undefined;
  const found = await preparedRows<FlatRow>(
    db,
    listWorkersSql(principal, site, query, known?.revision ?? null),
  );
  let total = 0;
  if (found[0]) {
    const revision = Number(found[0].revision);
    if (found[0].total === null && known) total = known.total;
    else {
      total = Number(found[0].total);
      if (key) totals?.set(key, { revision, total });
    }
  }
  if (found.length === 0 && page > 1) {
    const from = listFrom(principal, query, siteToday(site.timezone));
    const [count] = await rows<{ total: number | string }>(
      db,
      sql`select count(*) as total ${from} where ${filters(site.id, principal, query)}`,
    );
    total = Number(count?.total ?? 0);
  }
  return { items: found.map(toFlat), meta: { page, perPage, total } };
}

/** One worker of the site the caller may see as a flat row, or null (→ 404). */
export async function findWorker(
  db: Db,
  principal: Principal,
  site: { id: number; timezone: string },
  workerId: number,
): Promise<WorkerFlat | null> {
  const [row] = await rows<FlatRow>(
    db,
    sql`select ${FLAT_COLUMNS} ${fromWorkers(siteToday(site.timezone))} ${statusJoin(siteToday(site.timezone))}
        where ${filters(site.id, principal, {})} and w.id = ${workerId}`,
  );
  return row ? toFlat(row) : null;
}

/** Totals by status, role and subcontractor over the workers the caller may see. */
export async function workerStatistics(
  db: Db,
  principal: Principal,
  site: { id: number; timezone: string },
): Promise<WorkerStatistics> {
  const from = sql`${fromWorkers(siteToday(site.timezone))} where ${filters(site.id, principal, {})}`;
  const [status] = await rows<Record<string, number | string>>(
    db,
    sql`select count(*) as total,
          count(*) filter (where i.is_online and i.is_active) as active,
          count(*) filter (where i.is_online and not i.is_active) as inactive,
          count(*) filter (where i.id is not null and not i.is_online) as offline,
          count(*) filter (where i.id is null) as no_helmet ${from}`,
  );
  const byRole = await rows<{ id: number | null; name: string | null; count: number | string }>(
    db,
    sql`select w.worker_role_id as id, r.name, count(*) as count ${from}
        group by w.worker_role_id, r.name order by lower(r.name) nulls last`,
  );
  const bySub = await rows<{ id: number | null; name: string | null; count: number | string }>(
    db,
    sql`select w.subcontractor_id as id, s.name, count(*) as count ${from}
        group by w.subcontractor_id, s.name order by lower(s.name) nulls last`,
  );
  const n = (value: number | string | undefined) => Number(value ?? 0);
  const counted = (row: { id: number | null; name: string | null; count: number | string }) => ({
    id: row.id,
    name: row.name,
    count: n(row.count),
  });
  return {
    total: n(status?.total),
    byStatus: {
      active: n(status?.active),
      inactive: n(status?.inactive),
      offline: n(status?.offline),
      noHelmet: n(status?.no_helmet),
    },
    byRole: byRole.map(counted),
    bySubcontractor: bySub.map(counted),
  };
}
