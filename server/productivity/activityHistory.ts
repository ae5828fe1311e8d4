import { sql } from 'drizzle-orm';
import type { ActivityHistoryEntry } from '../../src/domain/schemas/productivity';
import type { Db } from '../db/database';

/** An activity's status changes, oldest first, with who made them. */
export async function activityHistory(db: Db, activityId: number): Promise<ActivityHistoryEntry[]> {
  const result = (await db.execute(sql`
    select s.from_status, s.to_status, s.reason, u.name as changed_by_name, s.created_at as changed_at
    from activity_status_changes s left join users u on u.id = s.changed_by
    where s.activity_id = ${activityId}
    order by s.created_at, s.id`)) as unknown as {
    rows: ActivityHistoryEntry[] & { changed_at: string | Date }[];
  };
  return result.rows.map((row) => ({
    from_status: row.from_status,
    to_status: row.to_status,
    reason: row.reason,
    changed_by_name: row.changed_by_name,
    changed_at: new Date(row.changed_at).toISOString(),
  }));
}
