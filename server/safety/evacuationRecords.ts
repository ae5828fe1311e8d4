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

/** Rows as the drivers answer raw SQL (pg and PGlite both give `{ rows }`). */
const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

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
  if (records.length === 0) return new Set();
  const column = <T>(pick: (record: EvacuationWorkerRecord) => T) => sql.param(records.map(pick));
  // One statement whatever the number of workers: an array per column, not a parameter per value.
  const result = await tx.execute(sql`
    insert into ${evacuationWorkers} (session_id, worker_id, inventory_item_id, status, included_at,
      status_changed_at, safe_at, acknowledged_at, accounted_at, origin_floor_id, left_floor_at,
      redirected_at, redirect_zone_id)
    select ${sessionId}, * from unnest(
      ${column((r) => r.workerId)}::int[], ${column((r) => r.inventoryItemId)}::int[],
      ${column((r) => r.status)}::text[], ${column((r) => r.includedAt)}::timestamptz[],
      ${column((r) => r.statusChangedAt)}::timestamptz[], ${column((r) => r.safeAt)}::timestamptz[],
      ${column((r) => r.acknowledgedAt)}::timestamptz[], ${column((r) => r.accountedAt)}::timestamptz[],
      ${column((r) => r.originFloorId)}::int[], ${column((r) => r.leftFloorAt)}::timestamptz[],
      ${column((r) => r.redirectedAt)}::timestamptz[], ${column((r) => r.redirectZoneId)}::int[])
    on conflict do nothing
    returning worker_id as "workerId"`);
  return new Set(rowsOf<{ workerId: number }>(result).map((row) => Number(row.workerId)));
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
  if (changes.length === 0) return;
  const column = <T>(pick: (change: StatusChange) => T) => sql.param(changes.map(pick));
  await tx.execute(sql`
    insert into ${evacuationStatusEvents} (session_id, worker_id, from_status, to_status, cause, at)
    select ${sessionId}, * from unnest(
      ${column((c) => c.workerId)}::int[], ${column((c) => c.from)}::text[], ${column((c) => c.to)}::text[],
      ${column((c) => c.cause)}::text[], ${column((c) => c.at)}::timestamptz[])`);
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
