import { sql } from 'drizzle-orm';
import {
  ACTIVITY_STATUS_MESSAGES,
  type ActivityStatus,
  refusalOf,
  transitionFor,
} from '../../src/domain/activityStatus';
import {
  type ApprovalResult,
  type ApproveBulkBody,
  PRODUCTIVITY_MESSAGES,
} from '../../src/domain/schemas/productivity';
import type { Principal } from '../auth/principal';
import type { Db } from '../db/database';
import { notFound } from '../http/errors';
import { lockActivities, recordStatusChanges } from './activityWrites';

/**
 * POST /sites/{id}/activity/approve/bulk, set-based whatever the number of rows: one select
 * locking the caller's rows, the checks in memory (version, the transition table for `approve`),
 * one update of the approved rows (each version bumped) and one insert of their status changes,
 * in one transaction. A refused row is left as it is.
 */
export async function approveActivities(
  db: Db,
  principal: Principal,
  siteId: number,
  items: ApproveBulkBody['activities'],
): Promise<ApprovalResult[]> {
  return db.transaction(async (tx) => {
    const ids = [...new Set(items.map((item) => item.id))];
    const rows = await lockActivities(tx, principal, siteId, ids);
    if (rows.size < ids.length) throw notFound('Activity');
    const seen = new Set<number>();
    const approved: { id: number; from: ActivityStatus; to: ActivityStatus; reason: null }[] = [];
    const results = items.map((item): ApprovalResult => {
      const row = rows.get(item.id);
      if (!row) throw notFound('Activity');
      if (seen.has(item.id)) return { id: item.id, ok: false, message: PRODUCTIVITY_MESSAGES.duplicateRow };
      seen.add(item.id);
      if (item.version !== row.version)
        return { id: item.id, ok: false, message: ACTIVITY_STATUS_MESSAGES.stale };
      const refusal = refusalOf(principal.role, row.status, 'approve');
      const to = transitionFor(principal.role, row.status, 'approve')?.to;
      if (refusal || !to)
        return { id: item.id, ok: false, message: refusal ?? ACTIVITY_STATUS_MESSAGES.stale };
      approved.push({ id: item.id, from: row.status, to, reason: null });
      return { id: item.id, ok: true, status: to };
    });
    if (approved.length > 0) {
      await tx.execute(sql`
        update activities a set status = v.to_status, version = a.version + 1, updated_at = now()
        from jsonb_to_recordset(${JSON.stringify(
          approved.map((row) => ({ id: row.id, to_status: row.to })),
        )}::jsonb) as v(id int, to_status text)
        where a.id = v.id`);
      await recordStatusChanges(tx, approved, principal.id);
    }
    return results;
  });
}
