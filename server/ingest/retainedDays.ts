import type { Rejection } from '../../src/domain/ingestValidation';
import {
  type DailyPartitionedTable,
  ensurePositionPartitions,
  forgetKnownPartitions,
  isMissingPartition,
  positionsRetentionDays,
  retentionCutoffMs,
} from '../analytics/positionPartitions';
import type { Db } from '../db/database';

/**
 * Splits a batch at the retention's cutoff (POSITIONS_RETENTION_DAYS): an entry whose day is
 * past it would land in a dropped partition, so it is refused as beyondRetention.
 */
export function refuseBeyondRetention<T extends { ts: string }>(
  db: Db,
  entries: readonly T[],
  nowMs: number = Date.now(),
): { kept: T[]; refused: Rejection[] } {
  const cutoff = retentionCutoffMs(nowMs, positionsRetentionDays(db));
  const kept: T[] = [];
  const refused: Rejection[] = [];
  for (const entry of entries) {
    if (Date.parse(entry.ts) < cutoff) refused.push({ reason: 'beyondRetention', entry });
    else kept.push(entry);
  }
  return { kept, refused };
}

/**
 * Runs a write into a daily partitioned table once the partitions of its entries' days exist,
 * created outside the write's transaction (creating one waits for running writers). A partition
 * dropped behind this process's back (another process's retention, by hand) makes every day be
 * checked again and the write run once more.
 */
export async function writeIntoDays<R>(
  db: Db,
  table: DailyPartitionedTable,
  entries: readonly { ts: string }[],
  write: () => Promise<R>,
): Promise<R> {
  const days = entries.map((entry) => Date.parse(entry.ts));
  await ensurePositionPartitions(db, days, table);
  try {
    return await write();
  } catch (error) {
    if (!isMissingPartition(error)) throw error;
    forgetKnownPartitions(db);
    await ensurePositionPartitions(db, days, table);
    return write();
  }
}
