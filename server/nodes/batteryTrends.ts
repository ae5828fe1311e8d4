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
 */

const TREND_MS = BATTERY_TREND_DAYS * 86_400_000;

export type VoltageTrends = Map<number, VoltagePoint[]>;

async function hourlyVoltages(db: Db, which: SQL, atMs: number): Promise<VoltageTrends> {
  const result = (await db.execute(sql`
    select d.inventory_item_id as i, avg(date_part('epoch', d.ts)) as s, avg(d.battery_voltage) as v
    from node_diagnostics d
    where ${which} and d.ts > ${timestampOf(atMs - TREND_MS)} and d.ts <= ${timestampOf(atMs)}
      and d.battery_voltage is not null
    group by d.inventory_item_id, date_bin('1 hour', d.ts, timestamptz '2000-01-01 00:00:00+00')`)) as unknown as {
    rows: { i: number; s: number | string; v: number | string }[];
  };
  const trends: VoltageTrends = new Map();
  for (const row of result.rows) {
    const id = Number(row.i);
    let points = trends.get(id);
    if (!points) {
      points = [];
      trends.set(id, points);
    }
    points.push({ ms: msOf(row.s), volts: Number(row.v) });
  }
  return trends;
}

export const siteVoltageTrends = (db: Db, siteId: number, atMs: number) =>
  hourlyVoltages(db, sql`d.site_id = ${siteId}`, atMs);

export async function nodeVoltageTrend(db: Db, inventoryItemId: number, atMs: number) {
  const trends = await hourlyVoltages(db, sql`d.inventory_item_id = ${inventoryItemId}`, atMs);
  return trends.get(inventoryItemId) ?? [];
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
