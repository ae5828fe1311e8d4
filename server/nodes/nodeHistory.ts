import { sql } from 'drizzle-orm';
import type { NodeHealthReading, NodeType } from '../../src/domain/nodeHealth';
import { nodeHealthHistory } from '../../src/domain/nodeHealthHistory';
import type { NodeHistory } from '../../src/domain/schemas/nodes';
import type { Db } from '../db/database';
import { forecastOf, nodeVoltageTrend } from './batteryTrends';
import { healthReadingOf, type ReadingRecord, readingColumns, timestampOf } from './nodeReadings';

/**
 * One node's history over [from, to) for the /nodes chart and the asset item: its reports as
 * columns (averages of equal buckets once there are more than MAX_HISTORY_POINTS), its health
 * state spans (src/domain/nodeHealthHistory.ts, from every report, not the averages) and its
 * battery forecast as of the range's end (or now, if that is earlier).
 */

export const MAX_HISTORY_POINTS = 1000;
/** Bucket widths a chart reads easily; the narrowest that keeps the points within the maximum. */
const BUCKET_WIDTHS_MS = [1, 2, 5, 10, 15, 30, 60, 120, 180, 360, 720, 1440].map((m) => m * 60_000);

export interface HistoryNode {
  id: number;
  nodeId: string;
  type: NodeType;
}

/** The bucket width for a range: points at most MAX_HISTORY_POINTS (aligned buckets included). */
export function bucketWidthMs(rangeMs: number): number {
  const needed = rangeMs / (MAX_HISTORY_POINTS - 1);
  return BUCKET_WIDTHS_MS.find((width) => width >= needed) ?? Math.ceil(needed / 86_400_000) * 86_400_000;
}

type Report = NodeHealthReading;

function columnsOf(reports: readonly Report[]) {
  return {
    t: reports.map((r) => r.tsMs),
    batteryVoltage: reports.map((r) => r.batteryVoltage),
    linkQuality: reports.map((r) => r.linkQuality),
    bufferUsage: reports.map((r) => r.bufferUsage),
    displacementError: reports.map((r) => r.displacementError),
  };
}

/** Averages of the reports in each `widthMs` bucket (aligned to the epoch), at the bucket's start. */
function bucketed(reports: readonly Report[], widthMs: number) {
  const columns = columnsOf([]);
  let bucket = Number.NaN;
  let count = 0;
  let volts = 0;
  let link = 0;
  let buffer = 0;
  let displacement = 0;
  let displaced = 0;
  const flush = () => {
    if (count === 0) return;
    columns.t.push(bucket);
    columns.batteryVoltage.push(volts / count);
    columns.linkQuality.push(link / count);
    columns.bufferUsage.push(buffer / count);
    columns.displacementError.push(displaced === 0 ? null : displacement / displaced);
  };
  for (const report of reports) {
    const start = Math.floor(report.tsMs / widthMs) * widthMs;
    if (start !== bucket) {
      flush();
      bucket = start;
      count = 0;
      volts = 0;
      link = 0;
      buffer = 0;
      displacement = 0;
      displaced = 0;
    }
    count += 1;
    volts += report.batteryVoltage;
    link += report.linkQuality;
    buffer += report.bufferUsage;
    if (report.displacementError !== null) {
      displacement += report.displacementError;
      displaced += 1;
    }
  }
  flush();
  return columns;
}

/** The node's reports in [from, to), after the latest one before `from` (for the state at `from`). */
async function reportsAround(db: Db, inventoryItemId: number, fromMs: number, toMs: number) {
  const columns = readingColumns('d');
  const result = (await db.execute(sql`
    (select ${columns} from node_diagnostics d
      where d.inventory_item_id = ${inventoryItemId} and d.ts < ${timestampOf(fromMs)}
      order by d.ts desc limit 1)
    union all
    (select ${columns} from node_diagnostics d
      where d.inventory_item_id = ${inventoryItemId} and d.ts >= ${timestampOf(fromMs)}
        and d.ts < ${timestampOf(toMs)}
      order by d.ts)`)) as unknown as { rows: (ReadingRecord & { s: number | string })[] };
  const reports = result.rows.map(healthReadingOf);
  // The union keeps each branch's order; the report before `from` comes first.
  reports.sort((a, b) => a.tsMs - b.tsMs);
  return reports;
}

export async function nodeHistory(
  db: Db,
  node: HistoryNode,
  range: { fromMs: number; toMs: number; nowMs: number; movedThresholdM: number },
): Promise<NodeHistory> {
  const { fromMs, toMs, nowMs } = range;
  const reports = await reportsAround(db, node.id, fromMs, toMs);
  const inRange = reports.length > 0 && reports[0].tsMs < fromMs ? reports.slice(1) : reports;
  const bucketMs = inRange.length > MAX_HISTORY_POINTS ? bucketWidthMs(toMs - fromMs) : null;
  // The state is known up to now: a range reaching into the future has no spans there.
  const spans = nodeHealthHistory({
    readings: reports,
    fromMs,
    toMs: Math.min(toMs, Math.max(fromMs, nowMs)),
    context: { type: node.type, movedThresholdM: range.movedThresholdM },
  });
  const forecastAt = Math.min(toMs, nowMs);
  const trend = await nodeVoltageTrend(db, node.id, forecastAt);
  const latest = reports.filter((r) => r.tsMs <= forecastAt).at(-1);
  return {
    nodeId: node.nodeId,
    type: node.type,
    from: new Date(fromMs).toISOString(),
    to: new Date(toMs).toISOString(),
    bucketMs,
    ...(bucketMs === null ? columnsOf(inRange) : bucketed(inRange, bucketMs)),
    healthStates: spans.map((s) => ({
      from: new Date(s.fromMs).toISOString(),
      to: new Date(s.toMs).toISOString(),
      state: s.state,
    })),
    forecast: forecastOf(node.type, trend, forecastAt, latest?.batteryVoltage ?? null),
  };
}
