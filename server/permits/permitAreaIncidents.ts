import { and, eq, gt, inArray, lte, sql } from 'drizzle-orm';
import type { LongLat } from '../../src/domain/floor';
import {
  ALERTING_PERMIT_TYPES,
  enteredPermitAreas,
  type PermitRule,
  type PermitStatus,
  type PermitType,
  type PermitWorker,
} from '../../src/domain/workPermits';
import type { Tx } from '../db/executor';
import { incidents, sites, workPermits } from '../db/schema';
import { scheduleRaisedIncidents } from '../safety/incidentStore';
import { siteToday } from '../workers/workerQueries';

/** One helmet's step forward in a position batch: where it was before, where it is now. */
export interface HelmetMove {
  inventoryItemId: number;
  workerId: number | null;
  previous: { floorId: number; point: LongLat } | null;
  floorId: number;
  point: LongLat;
  ts: Date;
}

/**
 * The alerting permits of these floors that are active and valid at some time of the batch: one
 * small query per batch, answered by the floor index; none (the usual case) ends the work there.
 */
async function candidatePermits(tx: Tx, siteId: number, moves: readonly HelmetMove[]): Promise<PermitRule[]> {
  const floorIds = [...new Set(moves.map((move) => move.floorId))];
  const times = moves.map((move) => move.ts.getTime());
  const rows = await tx
    .select()
    .from(workPermits)
    .where(
      and(
        eq(workPermits.siteId, siteId),
        inArray(workPermits.floorId, floorIds),
        eq(workPermits.status, 'active'),
        inArray(workPermits.type, [...ALERTING_PERMIT_TYPES]),
        lte(workPermits.validFrom, new Date(Math.max(...times))),
        gt(workPermits.validTo, new Date(Math.min(...times))),
      ),
    );
  return rows.map((row) => ({
    id: row.id,
    floorId: row.floorId,
    type: row.type as PermitType,
    status: row.status as PermitStatus,
    validFromMs: row.validFrom.getTime(),
    validToMs: row.validTo.getTime(),
    area: row.area,
    holderCrewId: row.holderCrewId,
    holderSubcontractorId: row.holderSubcontractorId,
  }));
}

/**
 * The workers' subcontractor and current crew (spec §3: the latest crew assignment dated on or
 * before the site's today), by worker id.
 */
async function permitWorkers(
  tx: Tx,
  siteId: number,
  workerIds: readonly number[],
): Promise<Map<number, PermitWorker>> {
  if (workerIds.length === 0) return new Map();
  const [site] = await tx.select({ timezone: sites.timezone }).from(sites).where(eq(sites.id, siteId));
  const result = (await tx.execute(sql`
    select w.id, w.subcontractor_id, cc.crew_id from workers w
    left join lateral (
      select ca.crew_id from crew_assignments ca
      where ca.worker_id = w.id and ca.assigned_at <= ${siteToday(site?.timezone ?? 'UTC')}
      order by ca.assigned_at desc, ca.id desc limit 1
    ) cc on true
    where w.site_id = ${siteId} and w.id = any(${sql.param([...workerIds])}::int[])`)) as unknown as {
    rows: { id: number; subcontractor_id: number | null; crew_id: number | null }[];
  };
  return new Map(
    result.rows.map((row) => [
      Number(row.id),
      {
        crewId: row.crew_id === null ? null : Number(row.crew_id),
        subcontractorId: row.subcontractor_id === null ? null : Number(row.subcontractor_id),
      },
    ]),
  );
}

/**
 * A helmet stepping from outside into the area of an active hot-work permit it does not hold
 * raises a `permitAreaEntry` incident (issue 19), in the position writer's transaction. One per
 * entry: staying inside raises nothing, leaving and coming back raises again; a redelivered
 * position (same helmet and ts) raises nothing twice. Entering two permits' areas at once raises
 * one incident, for the permit of the lowest id (incidents are unique per helmet, type and ts).
 */
export async function raisePermitAreaIncidents(
  tx: Tx,
  siteId: number,
  moves: readonly HelmetMove[],
): Promise<number[]> {
  if (moves.length === 0) return [];
  const permits = await candidatePermits(tx, siteId, moves);
  if (permits.length === 0) return [];
  // First without the holder rule: only helmets that entered an area need their worker read.
  const entering = moves
    .map((move) => ({
      move,
      permits: enteredPermitAreas(permits, move.previous, { ...move, atMs: move.ts.getTime() }, null),
    }))
    .filter((candidate) => candidate.permits.length > 0);
  if (entering.length === 0) return [];
  const workers = await permitWorkers(tx, siteId, [
    ...new Set(entering.map(({ move }) => move.workerId).filter((id): id is number => id !== null)),
  ]);
  const rows: (typeof incidents.$inferInsert)[] = [];
  for (const { move } of entering) {
    const worker = move.workerId === null ? null : (workers.get(move.workerId) ?? null);
    const [permit] = enteredPermitAreas(
      permits,
      move.previous,
      { ...move, atMs: move.ts.getTime() },
      worker,
    ).sort((a, b) => a.id - b.id);
    if (!permit) continue;
    rows.push({
      siteId,
      type: 'permitAreaEntry',
      inventoryItemId: move.inventoryItemId,
      workerId: move.workerId,
      floorId: move.floorId,
      workPermitId: permit.id,
      ts: move.ts,
    });
  }
  if (rows.length === 0) return [];
  const inserted = await tx
    .insert(incidents)
    .values(rows)
    .onConflictDoNothing()
    .returning({ id: incidents.id });
  const ids = inserted.map((row) => row.id);
  await scheduleRaisedIncidents(tx, siteId, ids);
  return ids;
}
