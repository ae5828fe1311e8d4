import { type SQL, sql } from 'drizzle-orm';
import { POSITION_SAMPLE_SECONDS, ROLLUP_BUCKET_MS } from '../../src/domain/analytics';
import type { FloorCorners } from '../../src/domain/floor';
import { type FloorGrid, floorGrid } from '../../src/domain/geo';
import type { Heatmap } from '../../src/domain/schemas/analytics';
import type { Db } from '../db/database';
import type { TimeWindow } from './historyWindow';

/**
 * The heatmap of one floor over [from, to): worker-seconds per cell of `floorGrid(corners,
 * cellSizeMetres)`. Without a filter the whole minutes come from the rollup
 * (presence_cell_minutes) and only the partial first and last minute from raw positions, so the
 * answer is exact for any window and costs a few thousand rollup rows instead of millions of
 * positions. A filter (crew, subcontractor, role) needs each position's worker, so it reads raw
 * positions; both paths count a stored position as POSITION_SAMPLE_SECONDS in the cell its point
 * falls in, as the ingest's rollup does, and leave out points outside the floor.
 */

/** The floor fields the heatmap reads. */
export interface HeatmapFloor {
  id: number;
  siteId: number;
  cellSizeMetres: number;
  aLat: number;
  aLong: number;
  bLat: number;
  bLong: number;
  cLat: number;
  cLong: number;
  dLat: number;
  dLong: number;
}

export interface HeatmapFilters {
  crewId?: number;
  subcontractorId?: number;
  workerRoleId?: number;
}

export const hasFilters = (filters: HeatmapFilters): boolean =>
  filters.crewId !== undefined || filters.subcontractorId !== undefined || filters.workerRoleId !== undefined;

export function cornersOfFloor(floor: HeatmapFloor): FloorCorners {
  return {
    a: { lat: floor.aLat, long: floor.aLong },
    b: { lat: floor.bLat, long: floor.bLong },
    c: { lat: floor.cLat, long: floor.cLong },
    d: { lat: floor.dLat, long: floor.dLong },
  };
}

/** Worker-seconds per cell, keyed `y * columns + x`. */
export type CellSeconds = Map<number, number>;

/** Raw positions are read in pages of this many rows, so memory stays flat whatever the window. */
const RAW_PAGE_ROWS = 100_000;

type Rows<T> = { rows: T[] };

const at = (date: Date) => sql`${date.toISOString()}::timestamptz`;

/**
 * The positions of the floor in the window matching the filters, each counted in its cell.
 * Pages walk (ts, inventory_item_id), the positions' own order, so none is read twice.
 */
export async function addRawCells(
  db: Db,
  floor: HeatmapFloor,
  grid: FloorGrid,
  window: TimeWindow,
  filters: HeatmapFilters,
  cells: CellSeconds,
  timezone = 'UTC',
): Promise<void> {
  const conditions: SQL[] = [
    sql`p.floor_id = ${floor.id}`,
    sql`p.site_id = ${floor.siteId}`,
    sql`p.ts >= ${at(window.from)}`,
    sql`p.ts < ${at(window.to)}`,
  ];
  const joins: SQL[] = [];
  if (filters.subcontractorId !== undefined || filters.workerRoleId !== undefined) {
    joins.push(sql`join workers w on w.id = p.worker_id`);
    if (filters.subcontractorId !== undefined)
      conditions.push(sql`w.subcontractor_id = ${filters.subcontractorId}`);
    if (filters.workerRoleId !== undefined) conditions.push(sql`w.worker_role_id = ${filters.workerRoleId}`);
  }
  let crewSpans = sql``;
  if (filters.crewId !== undefined) {
    // The crew a worker was in on the position's date (site time zone): each crew assignment
    // holds from its date until the worker's next one (spec §3; same date: the later row wins).
    crewSpans = sql`with crew_spans as (
      select ca.worker_id, ca.crew_id, ca.assigned_at,
        lead(ca.assigned_at) over (partition by ca.worker_id order by ca.assigned_at, ca.id) as until
      from crew_assignments ca
      where ca.worker_id in (select id from workers where site_id = ${floor.siteId})
    ) `;
    joins.push(sql`join crew_spans cs on cs.worker_id = p.worker_id and cs.crew_id = ${filters.crewId}
      and (p.ts at time zone ${timezone})::date >= cs.assigned_at
      and (cs.until is null or (p.ts at time zone ${timezone})::date < cs.until)`);
  }
  let after: SQL | null = null;
  for (;;) {
    const page = (await db.execute(sql`${crewSpans}
      select p.lat, p.long, date_part('epoch', p.ts) as s, p.inventory_item_id as i
      from positions p ${sql.join(joins, sql` `)}
      where ${sql.join(after ? [...conditions, after] : conditions, sql` and `)}
      order by p.ts, p.inventory_item_id
      limit ${RAW_PAGE_ROWS}`)) as unknown as Rows<{ lat: number; long: number; s: number; i: number }>;
    const rows = page.rows;
    for (const row of rows) {
      const cell = grid.cellOf({ lat: row.lat, long: row.long });
      if (!cell) continue;
      const key = cell.y * grid.columns + cell.x;
      cells.set(key, (cells.get(key) ?? 0) + POSITION_SAMPLE_SECONDS);
    }
    if (rows.length < RAW_PAGE_ROWS) return;
    const last = rows[rows.length - 1];
    const microseconds = Math.round(Number(last.s) * 1e6);
    const lastTs = sql`('epoch'::timestamptz + ${String(microseconds)}::bigint * interval '1 microsecond')`;
    // `ts >= last` lets the (floor_id, ts) index start where the page stopped.
    after = sql`p.ts >= ${lastTs} and (p.ts, p.inventory_item_id) > (${lastTs}, ${Number(last.i)}::int)`;
  }
}

/** The rollup's worker-seconds of the floor's whole minutes in [fromBucket, toBucket). */
async function addRollupCells(
  db: Db,
  floor: HeatmapFloor,
  grid: FloorGrid,
  fromBucket: Date,
  toBucket: Date,
  cells: CellSeconds,
): Promise<void> {
  const result = (await db.execute(sql`
    select cell_x as x, cell_y as y, sum(worker_seconds)::float8 as seconds
    from presence_cell_minutes
    where floor_id = ${floor.id} and bucket >= ${at(fromBucket)} and bucket < ${at(toBucket)}
    group by cell_x, cell_y`)) as unknown as Rows<{ x: number; y: number; seconds: number }>;
  for (const row of result.rows) {
    // Cells of a grid the floor no longer has (its cell size or corners changed) are left out.
    if (row.x < 0 || row.y < 0 || row.x >= grid.columns || row.y >= grid.rows) continue;
    const key = row.y * grid.columns + row.x;
    cells.set(key, (cells.get(key) ?? 0) + Number(row.seconds));
  }
}

/** The rollup path: whole minutes from the rollup, the partial edge minutes from raw positions. */
export async function heatmapCellsFromRollups(
  db: Db,
  floor: HeatmapFloor,
  grid: FloorGrid,
  window: TimeWindow,
): Promise<CellSeconds> {
  const cells: CellSeconds = new Map();
  const fromMs = window.from.getTime();
  const toMs = window.to.getTime();
  const firstWhole = Math.ceil(fromMs / ROLLUP_BUCKET_MS) * ROLLUP_BUCKET_MS;
  const lastWhole = Math.floor(toMs / ROLLUP_BUCKET_MS) * ROLLUP_BUCKET_MS;
  if (firstWhole >= lastWhole) {
    // Less than one whole minute: the positions themselves.
    await addRawCells(db, floor, grid, window, {}, cells);
    return cells;
  }
  await addRollupCells(db, floor, grid, new Date(firstWhole), new Date(lastWhole), cells);
  if (fromMs < firstWhole)
    await addRawCells(db, floor, grid, { from: window.from, to: new Date(firstWhole) }, {}, cells);
  if (lastWhole < toMs)
    await addRawCells(db, floor, grid, { from: new Date(lastWhole), to: window.to }, {}, cells);
  return cells;
}

/** The raw path: every position of the window, filtered by the worker's crew, subcontractor, role. */
export async function heatmapCellsFromRaw(
  db: Db,
  floor: HeatmapFloor,
  grid: FloorGrid,
  window: TimeWindow,
  filters: HeatmapFilters,
  timezone = 'UTC',
): Promise<CellSeconds> {
  const cells: CellSeconds = new Map();
  await addRawCells(db, floor, grid, window, filters, cells, timezone);
  return cells;
}

/** The reply: non-empty cells in (y, x) order, as three columns. */
export function heatmapOf(
  floor: HeatmapFloor,
  grid: FloorGrid,
  window: TimeWindow,
  cells: CellSeconds,
  source: Heatmap['source'],
): Heatmap {
  const keys = [...cells.entries()]
    .filter(([, seconds]) => seconds > 0)
    .map(([key]) => key)
    .sort((a, b) => a - b);
  const x = keys.map((key) => key % grid.columns);
  const y = keys.map((key) => Math.floor(key / grid.columns));
  const workerSeconds = keys.map((key) => cells.get(key) ?? 0);
  return {
    floorId: floor.id,
    from: window.from.toISOString(),
    to: window.to.toISOString(),
    cellSizeMetres: grid.cellSizeMetres,
    columns: grid.columns,
    rows: grid.rows,
    x,
    y,
    workerSeconds,
    maxWorkerSeconds: workerSeconds.reduce((max, value) => Math.max(max, value), 0),
    source,
  };
}

/** The floor's heatmap over the window: rollups when no filter is given, raw positions otherwise. */
export async function floorHeatmap(
  db: Db,
  floor: HeatmapFloor,
  window: TimeWindow,
  filters: HeatmapFilters,
  timezone: string,
): Promise<Heatmap> {
  const grid = floorGrid(cornersOfFloor(floor), floor.cellSizeMetres);
  if (hasFilters(filters)) {
    const cells = await heatmapCellsFromRaw(db, floor, grid, window, filters, timezone);
    return heatmapOf(floor, grid, window, cells, 'raw');
  }
  return heatmapOf(floor, grid, window, await heatmapCellsFromRollups(db, floor, grid, window), 'rollup');
}
