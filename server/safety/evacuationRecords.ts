import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { EvacuationStatus } from '../../src/domain/evacuation';
import type { EvacuationWorkerRecord, StatusChange } from '../../src/domain/evacuationRules';
import type { Executor, Tx } from '../db/executor';
import { evacuationAlarms, evacuationStatusEvents, evacuationWorkers } from '../db/schema';
import { chunks } from '../ingest/chunks';

/**
 * The included workers' records of an evacuation session and their status events, as stored:
 * read (optionally locked), inserted, updated. What a status becomes is decided by
 * src/domain/evacuationRules.ts, never here.
 */

const ROWS_PER_INSERT = 1000;

const iso = (date: Date | null) => date?.toISOString() ?? null;

/** A stored row of an included worker as the rules see it. */
export function toRecord(row: typeof evacuationWorkers.$inferSelect): EvacuationWorkerRecord {
  return {
    workerId: row.workerId,
    inventoryItemId: row.inventoryItemId,
    status: row.status as EvacuationStatus,
    includedAt: row.includedAt.toISOString(),
    statusChangedAt: row.statusChangedAt.toISOString(),
    safeAt: iso(row.safeAt),
    acknowledgedAt: iso(row.acknowledgedAt),
    accountedAt: iso(row.accountedAt),
    originFloorId: row.originFloorId,
    leftFloorAt: iso(row.leftFloorAt),
    redirectedAt: iso(row.redirectedAt),
    redirectZoneId: row.redirectZoneId,
  };
}

function toRow(sessionId: string, record: EvacuationWorkerRecord): typeof evacuationWorkers.$inferInsert {
  const date = (value: string | null) => (value === null ? null : new Date(value));
  return {
    sessionId,
    workerId: record.workerId,
    inventoryItemId: record.inventoryItemId,
    status: record.status,
    includedAt: new Date(record.includedAt),
    statusChangedAt: new Date(record.statusChangedAt),
    safeAt: date(record.safeAt),
    acknowledgedAt: date(record.acknowledgedAt),
    accountedAt: date(record.accountedAt),
    originFloorId: record.originFloorId,
    leftFloorAt: date(record.leftFloorAt),
    redirectedAt: date(record.redirectedAt),
    redirectZoneId: record.redirectZoneId,
  };
}

/** The included workers' records (all, or those of some helmets), without locking them. */
export function readRecords(
  db: Executor,
  sessionId: string,
  inventoryIds?: readonly number[],
): Promise<EvacuationWorkerRecord[]> {
  return selectRecords(db, sessionId, inventoryIds, false);
}

/**
 * The same, locked until the transaction ends, so that two processes evaluating the same workers
 * write one after the other.
 */
export function lockRecords(
  tx: Tx,
  sessionId: string,
  inventoryIds?: readonly number[],
): Promise<EvacuationWorkerRecord[]> {
  return selectRecords(tx, sessionId, inventoryIds, true);
}

async function selectRecords(
  db: Executor,
  sessionId: string,
  inventoryIds: readonly number[] | undefined,
  lock: boolean,
): Promise<EvacuationWorkerRecord[]> {
  if (inventoryIds?.length === 0) return [];
  const query = db
    .select()
    .from(evacuationWorkers)
    .where(
      and(
        eq(evacuationWorkers.sessionId, sessionId),
        inventoryIds ? inArray(evacuationWorkers.inventoryItemId, inventoryIds as number[]) : undefined,
      ),
    )
    .orderBy(asc(evacuationWorkers.workerId));
  const rows = lock ? await query.for('update') : await query;
  return rows.map(toRecord);
}

/** One included worker's record, or null when the worker is not on the session's roll. */
export async function recordOfWorker(
  db: Executor,
  sessionId: string,
  workerId: number,
): Promise<EvacuationWorkerRecord | null> {
  const [row] = await db
    .select()
    .from(evacuationWorkers)
    .where(and(eq(evacuationWorkers.sessionId, sessionId), eq(evacuationWorkers.workerId, workerId)));
  return row ? toRecord(row) : null;
}

/** Adds included workers; one already included (by another process) is left as it is. Returns who was added. */
export async function insertRecords(
  tx: Executor,
  sessionId: string,
  records: readonly EvacuationWorkerRecord[],
): Promise<Set<number>> {
  const added = new Set<number>();
  for (const slice of chunks(records, ROWS_PER_INSERT)) {
    const rows = await tx
      .insert(evacuationWorkers)
      .values(slice.map((record) => toRow(sessionId, record)))
      .onConflictDoNothing()
      .returning({ workerId: evacuationWorkers.workerId });
    for (const row of rows) added.add(row.workerId);
  }
  return added;
}

export async function updateRecords(
  tx: Executor,
  sessionId: string,
  records: readonly EvacuationWorkerRecord[],
): Promise<void> {
  for (const slice of chunks(records, ROWS_PER_INSERT))
    await tx
      .insert(evacuationWorkers)
      .values(slice.map((record) => toRow(sessionId, record)))
      .onConflictDoUpdate({
        target: [evacuationWorkers.sessionId, evacuationWorkers.workerId],
        set: {
          status: sql`excluded.status`,
          statusChangedAt: sql`excluded.status_changed_at`,
          safeAt: sql`excluded.safe_at`,
          acknowledgedAt: sql`excluded.acknowledged_at`,
          accountedAt: sql`excluded.accounted_at`,
          leftFloorAt: sql`excluded.left_floor_at`,
          redirectedAt: sql`excluded.redirected_at`,
          redirectZoneId: sql`excluded.redirect_zone_id`,
        },
      });
}

export async function insertStatusEvents(
  tx: Executor,
  sessionId: string,
  changes: readonly StatusChange[],
): Promise<void> {
  for (const slice of chunks(changes, ROWS_PER_INSERT))
    await tx.insert(evacuationStatusEvents).values(
      slice.map((change) => ({
        sessionId,
        workerId: change.workerId,
        fromStatus: change.from,
        toStatus: change.to,
        cause: change.cause,
        at: new Date(change.at),
      })),
    );
}

/** What the counters and the floors' clearing need of every included worker of a session. */
export async function readRollSummary(
  db: Executor,
  sessionId: string,
): Promise<Pick<EvacuationWorkerRecord, 'status' | 'originFloorId' | 'leftFloorAt' | 'statusChangedAt'>[]> {
  const rows = await db
    .select({
      status: evacuationWorkers.status,
      originFloorId: evacuationWorkers.originFloorId,
      leftFloorAt: evacuationWorkers.leftFloorAt,
      statusChangedAt: evacuationWorkers.statusChangedAt,
    })
    .from(evacuationWorkers)
    .where(eq(evacuationWorkers.sessionId, sessionId));
  return rows.map((r) => ({
    status: r.status as EvacuationStatus,
    originFloorId: r.originFloorId,
    leftFloorAt: iso(r.leftFloorAt),
    statusChangedAt: r.statusChangedAt.toISOString(),
  }));
}

/** Included helmets whose latest alarm command has not been confirmed (or was never sent). */
export async function countUndeliveredAlarms(db: Executor, sessionId: string): Promise<number> {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(evacuationWorkers)
    .where(
      and(
        eq(evacuationWorkers.sessionId, sessionId),
        sql`not exists (select 1 from ${evacuationAlarms} a
          where a.session_id = ${evacuationWorkers.sessionId}
            and a.inventory_item_id = ${evacuationWorkers.inventoryItemId}
            and a.delivered_at is not null
            and a.sent_at = (select max(latest.sent_at) from ${evacuationAlarms} latest
              where latest.session_id = a.session_id and latest.inventory_item_id = a.inventory_item_id))`,
      ),
    );
  return Number(row?.count ?? 0);
}
