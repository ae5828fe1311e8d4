import { sql } from 'drizzle-orm';
import type { ActivityStatus } from '../../src/domain/activityStatus';
import type { Principal } from '../auth/principal';
import type { Executor } from '../db/executor';
import { reachableActivitiesWhere } from './activityScope';

export interface LockedActivity {
  id: number;
  status: ActivityStatus;
  version: number;
  installedQuantity: string | null;
  bookedHours: string | null;
  actualHours: string | null;
  rejectionReason: string | null;
}

/**
 * The caller's activities among `ids` on the site, locked until the transaction ends so a
 * version checked here is the version written over: one select, whatever the number of rows.
 */
export async function lockActivities(
  tx: Executor,
  principal: Principal,
  siteId: number,
  ids: readonly number[],
): Promise<Map<number, LockedActivity>> {
  const rows = new Map<number, LockedActivity>();
  if (ids.length === 0) return rows;
  const result = (await tx.execute(sql`
    select a.id, a.status, a.version, a.installed_quantity::text as installed_quantity,
      a.booked_hours::text as booked_hours, a.actual_hours::text as actual_hours, a.rejection_reason
    from activities a
    where a.site_id = ${siteId} and a.id = any(${`{${ids.join(',')}}`}::int[])
      and ${reachableActivitiesWhere(principal)}
    order by a.id
    for update`)) as unknown as {
    rows: {
      id: number;
      status: ActivityStatus;
      version: number;
      installed_quantity: string | null;
      booked_hours: string | null;
      actual_hours: string | null;
      rejection_reason: string | null;
    }[];
  };
  for (const row of result.rows)
    rows.set(Number(row.id), {
      id: Number(row.id),
      status: row.status,
      version: Number(row.version),
      installedQuantity: row.installed_quantity,
      bookedHours: row.booked_hours,
      actualHours: row.actual_hours,
      rejectionReason: row.rejection_reason,
    });
  return rows;
}

/** One row of activity_status_changes per status change, in one statement. */
export async function recordStatusChanges(
  tx: Executor,
  changes: readonly { id: number; from: ActivityStatus; to: ActivityStatus; reason: string | null }[],
  userId: number,
): Promise<void> {
  if (changes.length === 0) return;
  await tx.execute(sql`
    insert into activity_status_changes (activity_id, from_status, to_status, reason, changed_by)
    select v.id, v.from_status, v.to_status, v.reason, ${userId}
    from jsonb_to_recordset(${JSON.stringify(
      changes.map((change) => ({
        id: change.id,
        from_status: change.from,
        to_status: change.to,
        reason: change.reason,
      })),
    )}::jsonb) as v(id int, from_status text, to_status text, reason text)`);
}
