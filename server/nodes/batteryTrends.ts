import { type SQL, sql } from 'drizzle-orm';
import { BATTERY_TREND_DAYS, batteryForecast, type VoltagePoint } from '../../src/domain/batteryForecast';
import { BATTERY_VOLTS, type NodeType } from '../../src/domain/nodeHealth';
import type { BatteryForecast } from '../../src/domain/schemas/nodes';
import type { Db } from '../db/database';
import { msOf, timestampOf } from './nodeReadings';

/**
 * The nodes' battery voltage over the BATTERY_TREND_DAYS days up to a time, as hourly averages
 * (date_bin), for the battery forecast: one statement for every node of a site, or for one node.
 * Each point sits at the mean time of the reports it averages.
 *
 * A site's list asks for its nodes' trends every few seconds (the console polls it), and three
 * days of 2,000 nodes are ~576,000 reports (seconds of aggregation). So the site's hours that are
 * over are kept in memory, per database and site, and each later call reads only the reports since
 * the last of them: an hour counts as over HOUR_CLOSED_AFTER_MS after its end, so reports arriving
 * a little late still count; later ones are left out of its average until the process restarts.
 */

const HOUR_MS = 3_600_000;
const TREND_MS = BATTERY_TREND_DAYS * 86_400_000;
export const HOUR_CLOSED_AFTER_MS = 5 * 60_000;

export type VoltageTrends = Map<number, VoltagePoint[]>;

interface HourlyVoltage {
  id: number;
  hourMs: number;
  point: VoltagePoint;
}

async function hourlyVoltages(db: Db, which: SQL, fromMs: number, toMs: number): Promise<HourlyVoltage[]> {
  const result = (await db.execute(sql`
    select d.inventory_item_id as i, date_part('epoch', h.hour) as h, avg(date_part('epoch', d.ts)) as s,
      avg(d.battery_voltage) as v
    from node_diagnostics d
    cross join lateral (select date_bin('1 hour', d.ts, timestamptz '2000-01-01 00:00:00+00') as hour) h
    where ${which} and d.ts > ${timestampOf(fromMs)} and d.ts <= ${timestampOf(toMs)}
      and d.battery_voltage is not null
    group by d.inventory_item_id, h.hour`)) as unknown as {
    rows: { i: number; h: number | string; s: number | string; v: number | string }[];
  };
  return result.rows.map((row) => ({
    id: Number(row.i),
    hourMs: msOf(row.h),
    point: { ms: msOf(row.s), volts: Number(row.v) },
  }));
}

function add(trends: VoltageTrends, id: number, point: VoltagePoint): void {
  const points = trends.get(id);
  if (points) points.push(point);
  else trends.set(id, [point]);
}

interface SiteHours {
  /** Hours starting before this are over and kept in `closed`. */
  closedUntilMs: number;
  closed: { id: number; hourMs: number; point: VoltagePoint }[];
}

const siteHours = new WeakMap<Db, Map<number, SiteHours>>();

/** Every node's hourly voltages of the site over the trend window up to `atMs`. */
export async function siteVoltageTrends(db: Db, siteId: number, atMs: number): Promise<VoltageTrends> {
  const fromMs = atMs - TREND_MS;
  const closedUntilMs = Math.floor((atMs - HOUR_CLOSED_AFTER_MS) / HOUR_MS) * HOUR_MS;
  let sites = siteHours.get(db);
  if (!sites) {
    sites = new Map();
    siteHours.set(db, sites);
  }
  let kept = sites.get(siteId);
  // Kept hours of another window (a clock moved back, or a site unasked for days) start afresh.
  if (kept && (kept.closedUntilMs < fromMs || kept.closedUntilMs > closedUntilMs)) kept = undefined;
  const readFromMs = kept ? kept.closedUntilMs - 1 : fromMs;
  const fresh = await hourlyVoltages(db, sql`d.site_id = ${siteId}`, readFromMs, atMs);
  const closed = (kept?.closed ?? []).filter((hour) => hour.hourMs + HOUR_MS > fromMs);
  const open: HourlyVoltage[] = [];
  for (const hour of fresh) {
    if (kept && hour.hourMs < kept.closedUntilMs) continue;
    (hour.hourMs + HOUR_MS <= closedUntilMs ? closed : open).push(hour);
  }
  sites.set(siteId, { closedUntilMs, closed });
  const trends: VoltageTrends = new Map();
  for (const hour of closed) add(trends, hour.id, hour.point);
  for (const hour of open) add(trends, hour.id, hour.point);
  return trends;
}

/** One node's hourly voltages over the trend window up to `atMs` (any time: nothing kept). */
export async function nodeVoltageTrend(db: Db, inventoryItemId: number, atMs: number) {
  const hours = await hourlyVoltages(
    db,
    sql`d.inventory_item_id = ${inventoryItemId}`,
    atMs - TREND_MS,
    atMs,
  );
  return hours.map((hour) => hour.point);
}

/** The node's forecast at `atMs` from its hourly voltages and its latest reported voltage. */
export function forecastOf(
  type: NodeType,
  points: readonly VoltagePoint[],
  atMs: number,
  latestVolts: number | null,
): BatteryForecast {
  return batteryForecast({ points, cutoffVolts: BATTERY_VOLTS[type].cutoff, nowMs: atMs, latestVolts });
}
