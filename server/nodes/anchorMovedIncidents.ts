import { and, eq, inArray, ne, or, type SQL, sql } from 'drizzle-orm';
import { statusesAllowing } from '../../src/domain/escalation';
import type { Executor } from '../db/executor';
import { incidentEvents, incidents, inventoryItems } from '../db/schema';
import { type AnchorWatch, advanceAnchorWatch } from './anchorMovedRule';
import { anchorMovedThreshold } from './movedThreshold';

/** An anchor of the site as the node ingest locked it, before this write. */
export interface WatchedAnchor {
  id: number;
  floorId: number | null;
  zoneId: number | null;
  displacedSince: Date | null;
  /** Its newest report before this write: older and equal reports change nothing. */
  lastSeen: Date | null;
}

export interface AnchorReport {
  anchor: WatchedAnchor;
  ms: number;
  /** Null when the anchor is not placed. */
  displacementMetres: number | null;
}

const ANCHOR_MOVED = 'anchorMoved';

/**
 * Runs the "anchor moved" rule (anchorMovedRule.ts) over one write's anchor reports, inside the
 * ingest's transaction, with the anchors' rows already locked: raises and resolves incidents
 * and keeps `displaced_since`. Only reports newer than the anchor's previous newest move it on,
 * in time order, so a redelivered or late report never raises or resolves anything a second
 * time. The site's threshold is read on every write, so a change applies to the next report.
 * Answers the incidents raised or resolved, for the safety screens once committed.
 */
export async function watchAnchorReports(
  tx: Executor,
  siteId: number,
  reports: readonly AnchorReport[],
  now: Date,
): Promise<number[]> {
  const byAnchor = new Map<number, AnchorReport[]>();
  for (const report of reports) {
    const { anchor } = report;
    if (report.displacementMetres === null) continue;
    if (anchor.lastSeen !== null && report.ms <= anchor.lastSeen.getTime()) continue;
    const list = byAnchor.get(anchor.id);
    if (list) list.push(report);
    else byAnchor.set(anchor.id, [report]);
  }
  if (byAnchor.size === 0) return [];
  const threshold = await anchorMovedThreshold(tx, siteId);
  const watches = await currentWatches(
    tx,
    [...byAnchor.values()].map((list) => list[0].anchor),
  );
  const touched: number[] = [];
  const displaced: { id: number; since: string | null }[] = [];
  for (const [anchorId, list] of byAnchor) {
    list.sort((a, b) => a.ms - b.ms);
    const anchor = list[0].anchor;
    let watch = watches.get(anchorId) as AnchorWatch;
    let appliedMs = Number.NEGATIVE_INFINITY;
    for (const report of list) {
      if (report.ms <= appliedMs) continue;
      appliedMs = report.ms;
      const advanced = advanceAnchorWatch(watch, report, threshold);
      if (advanced.step === 'raise') {
        const id = await raiseAnchorMoved(tx, siteId, anchor, new Date(report.ms), now);
        advanced.watch.openIncidentId = id;
        if (id !== null) touched.push(id);
      } else if (advanced.step === 'resolve') {
        const where = eq(incidents.id, watch.openIncidentId as number);
        touched.push(...(await resolveAnchorMoved(tx, where, new Date(report.ms), null)));
      }
      watch = advanced.watch;
    }
    if (watch.displacedSinceMs !== (anchor.displacedSince?.getTime() ?? null))
      displaced.push({
        id: anchorId,
        since: watch.displacedSinceMs === null ? null : new Date(watch.displacedSinceMs).toISOString(),
      });
  }
  if (displaced.length > 0)
    await tx.execute(sql`
      update ${inventoryItems} as i set displaced_since = v.since
      from unnest(${sql.param(displaced.map((d) => d.id))}::int[], ${sql.param(displaced.map((d) => d.since))}::timestamptz[])
        as v(id, since)
      where i.id = v.id`);
  return [...new Set(touched)];
}

/** Each anchor's watch: its displacement, its open incident, whether this displacement raised one. */
async function currentWatches(
  tx: Executor,
  anchors: readonly WatchedAnchor[],
): Promise<Map<number, AnchorWatch>> {
  const watches = new Map<number, AnchorWatch>(
    anchors.map((anchor) => [
      anchor.id,
      {
        displacedSinceMs: anchor.displacedSince?.getTime() ?? null,
        openIncidentId: null,
        raisedDuringDisplacement: false,
      },
    ]),
  );
  const rows = await tx
    .select({
      id: incidents.id,
      anchorId: incidents.inventoryItemId,
      status: incidents.status,
      ts: incidents.ts,
    })
    .from(incidents)
    .innerJoin(inventoryItems, eq(inventoryItems.id, incidents.inventoryItemId))
    .where(
      and(
        inArray(
          incidents.inventoryItemId,
          anchors.map((anchor) => anchor.id),
        ),
        eq(incidents.type, ANCHOR_MOVED),
        or(ne(incidents.status, 'resolved'), sql`${incidents.ts} >= ${inventoryItems.displacedSince}`),
      ),
    );
  for (const row of rows) {
    const watch = watches.get(row.anchorId) as AnchorWatch;
    if (row.status !== 'resolved') watch.openIncidentId = row.id;
    if (watch.displacedSinceMs !== null && row.ts.getTime() >= watch.displacedSinceMs)
      watch.raisedDuringDisplacement = true;
  }
  return watches;
}

/**
 * An "anchor moved" incident at the anchor's floor and zone, at the report's time: no worker,
 * and no escalation schedule (it climbs only by hand). Its 'raised' event is dated by the server.
 */
async function raiseAnchorMoved(
  tx: Executor,
  siteId: number,
  anchor: WatchedAnchor,
  ts: Date,
  now: Date,
): Promise<number | null> {
  const [row] = await tx
    .insert(incidents)
    .values({
      siteId,
      type: ANCHOR_MOVED,
      status: 'open',
      level: 0,
      inventoryItemId: anchor.id,
      workerId: null,
      floorId: anchor.floorId,
      zoneId: anchor.zoneId,
      ts,
      nextEscalationAt: null,
    })
    .onConflictDoNothing()
    .returning({ id: incidents.id });
  if (!row) return null;
  await tx.insert(incidentEvents).values({ incidentId: row.id, kind: 'raised', level: 0, at: now });
  return row.id;
}

/** Resolves the unresolved anchorMoved incidents `where` picks, at `at`, by a person or by none (the anchor's report). */
async function resolveAnchorMoved(tx: Executor, where: SQL, at: Date, by: number | null): Promise<number[]> {
  const resolved = await tx
    .update(incidents)
    .set({ status: 'resolved', resolvedAt: at, resolvedBy: by, nextEscalationAt: null })
    .where(
      and(where, eq(incidents.type, ANCHOR_MOVED), inArray(incidents.status, statusesAllowing('resolve'))),
    )
    .returning({ id: incidents.id, level: incidents.level });
  if (resolved.length > 0)
    await tx
      .insert(incidentEvents)
      .values(resolved.map((row) => ({ incidentId: row.id, kind: 'resolved', level: row.level, by, at })));
  return resolved.map((row) => row.id);
}

/**
 * An anchor placed again (its position set, approved or not): where it was measured from is new,
 * so its displacement starts over and its open "anchor moved" incident is resolved by the person
 * who placed it, in the caller's transaction. Answers the incidents resolved. Not an anchor, or
 * nothing open: nothing.
 */
export async function settleAnchorMovedOnPlacement(
  tx: Executor,
  inventoryItemId: number,
  by: number,
  now: Date,
): Promise<number[]> {
  await tx
    .update(inventoryItems)
    .set({ displacedSince: null })
    .where(and(eq(inventoryItems.id, inventoryItemId), eq(inventoryItems.type, 'anchor')));
  return resolveAnchorMoved(tx, eq(incidents.inventoryItemId, inventoryItemId), now, by);
}
