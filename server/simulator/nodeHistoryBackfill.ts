import { and, desc, eq, gte, lte, sql } from 'drizzle-orm';
import { positionsRetentionDays, retentionCutoffMs } from '../analytics/positionPartitions';
import type { Db } from '../db/database';
import { nodeDiagnostics } from '../db/schema';
import { writeNodeDiagnostics } from '../ingest/nodeWriter';
import { floorMates, type NodeReport, nodeReport, nodeStory } from './nodeBehaviour';
import type { SiteModel } from './siteModel';

/** The demo's node history reaches this many days back from the simulator's start. */
export const NODE_HISTORY_DAYS = 3;
/** One report per node every this many milliseconds (the live simulator reports every ~10 s). */
export const NODE_HISTORY_STEP_MS = 5 * 60_000;
/** Half an hour of reports per write (~360 rows): each write is one transaction of the ingest's node writer. */
const STEPS_PER_WRITE = 6;
const DAY_MS = 86_400_000;

export interface NodeHistoryBackfill {
  /** Reports written (0 when the history was already there). */
  rows: number;
  /** The first and last instant written; null when nothing was missing. */
  from: Date | null;
  to: Date | null;
  /** How long it took. */
  ms: number;
}

export interface NodeHistoryBackfillOptions {
  db: Db;
  siteId: number;
  model: SiteModel;
  /** The simulator's start: the history ends before it, where the live reports begin. */
  nowMs: number;
  /** Stops between writes (the simulator closing). */
  signal?: AbortSignal;
}

/**
 * Writes what the demo's nodes would have reported over the last NODE_HISTORY_DAYS days, one
 * report per node every 5 minutes, through the ingest's node writer (partitions, displacement,
 * anchor-moved incidents) in time order. It starts after the site's latest report on its grid in
 * that window, so a restart writes only the gap since the last run and a second start writes nothing;
 * the key (inventory item, ts) would drop a duplicate anyway. Nothing before the retention cut-off.
 */
export async function backfillNodeHistory(options: NodeHistoryBackfillOptions): Promise<NodeHistoryBackfill> {
  const { db, siteId, model, nowMs, signal } = options;
  const started = performance.now();
  const windowStartMs = Math.max(
    nowMs - NODE_HISTORY_DAYS * DAY_MS,
    retentionCutoffMs(nowMs, positionsRetentionDays(db)),
  );
  const [latest] = await db
    .select({ ts: nodeDiagnostics.ts })
    .from(nodeDiagnostics)
    .where(
      and(
        eq(nodeDiagnostics.siteId, siteId),
        gte(nodeDiagnostics.ts, new Date(windowStartMs)),
        lte(nodeDiagnostics.ts, new Date(nowMs)),
        // Only an earlier backfill's reports (on its 5-minute grid) say where it stopped: the
        // demo seed's one report of each unapproved anchor, written at the seed's instant, must
        // not make a fresh start skip the whole history.
        sql`mod((extract(epoch from ${nodeDiagnostics.ts}) * 1000)::bigint, ${NODE_HISTORY_STEP_MS}) = 0`,
      ),
    )
    .orderBy(desc(nodeDiagnostics.ts))
    .limit(1);
  // On the 5-minute grid, so every run stamps the same instants.
  const firstMs = latest
    ? (Math.floor(latest.ts.getTime() / NODE_HISTORY_STEP_MS) + 1) * NODE_HISTORY_STEP_MS
    : Math.ceil(windowStartMs / NODE_HISTORY_STEP_MS) * NODE_HISTORY_STEP_MS;
  const story = nodeStory(model);
  const mates = floorMates(model.nodes);
  let rows = 0;
  let lastMs: number | null = null;
  for (let batchMs = firstMs; batchMs < nowMs; batchMs += STEPS_PER_WRITE * NODE_HISTORY_STEP_MS) {
    if (signal?.aborted) break;
    const reports: NodeReport[] = [];
    const endMs = Math.min(nowMs, batchMs + STEPS_PER_WRITE * NODE_HISTORY_STEP_MS);
    for (let atMs = batchMs; atMs < endMs; atMs += NODE_HISTORY_STEP_MS) {
      for (const node of model.nodes) {
        const report = nodeReport(node, mates.get(node.nodeId) ?? [], atMs, story);
        if (report) reports.push(report);
      }
      lastMs = atMs;
    }
    rows += (await writeNodeDiagnostics(db, siteId, reports)).accepted;
    // The embedded database answers within the same turn of the event loop: without a pause the
    // backfill would hold it (HTTP, MQTT, timers) until its last write.
    await new Promise((resolve) => setImmediate(resolve));
  }
  return {
    rows,
    from: lastMs === null ? null : new Date(firstMs),
    to: lastMs === null ? null : new Date(lastMs),
    ms: performance.now() - started,
  };
}
