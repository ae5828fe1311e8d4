import { sql } from 'drizzle-orm';
import {
  ACTIVITY_STATUS_MESSAGES,
  type ActivityStatus,
  isBookable,
  notBookableMessage,
  refusalOf,
  transitionFor,
} from '../../src/domain/activityStatus';
import { isHoursFigure, isQuantityFigure } from '../../src/domain/productivity';
import {
  type ActivityChange,
  type ActivityChangeResult,
  PRODUCTIVITY_MESSAGES,
} from '../../src/domain/schemas/productivity';
import type { Principal } from '../auth/principal';
import type { Db } from '../db/database';
import type { Executor } from '../db/executor';
import { notFound } from '../http/errors';
import { loadActivities } from './activityRows';
import { type LockedActivity, lockActivities, recordStatusChanges } from './activityWrites';
import { siteDelayCodes } from './delayCodes';

interface PlannedWrite {
  id: number;
  installed: string | null;
  booked: string | null;
  actual: string | null;
  status: ActivityStatus;
  rejectionReason: string | null;
  from: ActivityStatus;
  reason: string | null;
  addDelays: { delay_code_id: number; hours_lost: number; notes: string | null }[];
  removeDelayIds: number[];
}

const given = <K extends keyof ActivityChange>(change: ActivityChange, key: K) =>
  Object.hasOwn(change, key) && change[key] !== undefined;

const isBooking = (change: ActivityChange) =>
  given(change, 'installed_quantity') ||
  given(change, 'booked_hours') ||
  given(change, 'actual_hours') ||
  (change.add_delays?.length ?? 0) > 0 ||
  (change.remove_delay_ids?.length ?? 0) > 0;

/** What one change would write, or why it is refused (the row then stays as it is). */
function planOf(
  change: ActivityChange,
  row: LockedActivity,
  principal: Principal,
  delayCodeIds: ReadonlySet<number>,
  delaysOfRow: ReadonlySet<number>,
): PlannedWrite | string {
  if (change.version !== row.version) return ACTIVITY_STATUS_MESSAGES.stale;
  const booking = isBooking(change);
  if (!booking && !change.action) return PRODUCTIVITY_MESSAGES.nothingToChange;
  const installed = change.installed_quantity;
  if (installed !== undefined && installed !== null && !isQuantityFigure(installed))
    return PRODUCTIVITY_MESSAGES.installedQuantityInvalid;
  const booked = change.booked_hours;
  if (booked !== undefined && booked !== null && !isHoursFigure(booked))
    return PRODUCTIVITY_MESSAGES.bookedHoursInvalid;
  const actual = change.actual_hours;
  if (actual !== undefined && actual !== null && !isHoursFigure(actual))
    return PRODUCTIVITY_MESSAGES.actualHoursInvalid;
  for (const delay of change.add_delays ?? []) {
    if (!(isHoursFigure(delay.hours_lost) && delay.hours_lost > 0))
      return PRODUCTIVITY_MESSAGES.hoursLostInvalid;
    if (!delayCodeIds.has(delay.delay_code_id)) return PRODUCTIVITY_MESSAGES.delayCodeUnknown;
  }
  for (const delayId of change.remove_delay_ids ?? [])
    if (!delaysOfRow.has(delayId)) return PRODUCTIVITY_MESSAGES.delayUnknown;
  if (booking && !isBookable(row.status)) return notBookableMessage(row.status);
  let status = row.status;
  let rejectionReason = row.rejectionReason;
  const reason = change.reason?.trim() || null;
  if (change.action) {
    const refusal = refusalOf(principal.role, row.status, change.action);
    if (refusal) return refusal;
    if (change.action === 'reject' && reason === null) return ACTIVITY_STATUS_MESSAGES.reasonRequired;
    status = transitionFor(principal.role, row.status, change.action)?.to ?? row.status;
    if (change.action === 'reject') rejectionReason = reason;
    if (change.action === 'submit') rejectionReason = null;
  }
  const figure = (value: number | null | undefined, current: string | null) =>
    value === undefined ? current : value === null ? null : String(value);
  return {
    id: row.id,
    installed: figure(installed, row.installedQuantity),
    booked: figure(booked, row.bookedHours),
    actual: figure(actual, row.actualHours),
    status,
    rejectionReason,
    from: row.status,
    reason: change.action ? reason : null,
    addDelays: (change.add_delays ?? []).map((delay) => ({
      delay_code_id: delay.delay_code_id,
      hours_lost: delay.hours_lost,
      notes: delay.notes?.trim() || null,
    })),
    removeDelayIds: change.remove_delay_ids ?? [],
  };
}

async function delayIdsByActivity(tx: Executor, activityIds: readonly number[]) {
  const byActivity = new Map<number, Set<number>>();
  const result = (await tx.execute(sql`
    select id, activity_id from activity_delays
    where activity_id = any(${`{${activityIds.join(',')}}`}::int[])`)) as unknown as {
    rows: { id: number; activity_id: number }[];
  };
  for (const row of result.rows) {
    const set = byActivity.get(Number(row.activity_id)) ?? new Set<number>();
    set.add(Number(row.id));
    byActivity.set(Number(row.activity_id), set);
  }
  return byActivity;
}

async function writePlans(tx: Executor, plans: readonly PlannedWrite[], userId: number) {
  await tx.execute(sql`
    update activities a set
      installed_quantity = v.installed, booked_hours = v.booked, actual_hours = v.actual,
      status = v.status, rejection_reason = v.rejection_reason,
      version = a.version + 1, updated_at = now()
    from jsonb_to_recordset(${JSON.stringify(
      plans.map((plan) => ({
        id: plan.id,
        installed: plan.installed,
        booked: plan.booked,
        actual: plan.actual,
        status: plan.status,
        rejection_reason: plan.rejectionReason,
      })),
    )}::jsonb) as v(id int, installed numeric, booked numeric, actual numeric, status text, rejection_reason text)
    where a.id = v.id`);
  const removed = plans.flatMap((plan) => plan.removeDelayIds);
  if (removed.length > 0)
    await tx.execute(sql`delete from activity_delays where id = any(${`{${removed.join(',')}}`}::int[])`);
  const added = plans.flatMap((plan) => plan.addDelays.map((delay) => ({ activity_id: plan.id, ...delay })));
  if (added.length > 0)
    await tx.execute(sql`
      insert into activity_delays (activity_id, delay_code_id, hours_lost, notes, created_by)
      select v.activity_id, v.delay_code_id, v.hours_lost, v.notes, ${userId}
      from jsonb_to_recordset(${JSON.stringify(added)}::jsonb)
        as v(activity_id int, delay_code_id int, hours_lost numeric, notes text)`);
  await recordStatusChanges(
    tx,
    plans
      .filter((plan) => plan.status !== plan.from)
      .map((plan) => ({ id: plan.id, from: plan.from, to: plan.status, reason: plan.reason })),
    userId,
  );
}

/**
 * POST /sites/{id}/activity/bulk: every change checked on its own (version, bookable status,
 * figures, delay codes, the transition table, a reason for a rejection); those that pass are
 * written in one transaction, each bumping the version, and the others change nothing.
 */
export async function applyActivityChanges(
  db: Db,
  principal: Principal,
  site: { id: number; timezone: string },
  changes: readonly ActivityChange[],
): Promise<ActivityChangeResult[]> {
  return db.transaction(async (tx) => {
    const ids = [...new Set(changes.map((change) => change.id))];
    const rows = await lockActivities(tx, principal, site.id, ids);
    if (rows.size < ids.length) throw notFound('Activity');
    const delayCodeIds = new Set((await siteDelayCodes(tx, site.id)).map((code) => code.id));
    const delays = await delayIdsByActivity(tx, [...rows.keys()]);
    const seen = new Set<number>();
    const outcomes = changes.map((change): PlannedWrite | { id: number; message: string } => {
      const row = rows.get(change.id);
      if (!row) throw notFound('Activity');
      if (seen.has(change.id)) return { id: change.id, message: PRODUCTIVITY_MESSAGES.duplicateRow };
      seen.add(change.id);
      const plan = planOf(change, row, principal, delayCodeIds, delays.get(row.id) ?? new Set());
      return typeof plan === 'string' ? { id: change.id, message: plan } : plan;
    });
    const plans = outcomes.filter((outcome): outcome is PlannedWrite => 'status' in outcome);
    if (plans.length > 0) await writePlans(tx, plans, principal.id);
    const written = new Map(
      (await loadActivities(tx, principal, site, { ids: plans.map((plan) => plan.id) })).map((activity) => [
        activity.id,
        activity,
      ]),
    );
    return outcomes.map((outcome): ActivityChangeResult => {
      if ('message' in outcome) return { id: outcome.id, ok: false, message: outcome.message };
      const activity = written.get(outcome.id);
      if (!activity) throw notFound('Activity');
      return { id: outcome.id, ok: true, activity };
    });
  });
}
