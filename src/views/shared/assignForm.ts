import { isCalendarDate } from '../../domain/calendarDate';
import { currentAssignment } from '../../domain/currentAssignment';
import { messages } from '../../domain/messages';

/**
 * Pure helpers of the assignment dialogs (workers into a crew or a work shift from a date on)
 * and of the worker's assignment history. The current-assignment rule is the domain's.
 */

/** The English labels of spec §5 messages. */
export const ASSIGN_LABELS = {
  workers: 'Workers',
  crews: 'Crew',
  workshifts: 'Work shift',
  assignedAt: 'Assigned at',
} as const;

export interface AssignForm {
  workerIds: number[];
  /** The crew or shift picked, when the dialog lets the user pick one. */
  targetId: number | null;
  /** YYYY-MM-DD */
  assignedAt: string;
}

/** Problems by field (workerIds, targetId, assignedAt) in the spec's words; empty when none. */
export function assignProblems(
  form: AssignForm,
  kind: 'crews' | 'workshifts',
  picks: { workers: boolean; target: boolean },
): Record<string, string> {
  const problems: Record<string, string> = {};
  if (picks.workers && form.workerIds.length === 0)
    problems.workerIds = messages.required(ASSIGN_LABELS.workers);
  if (picks.target && form.targetId === null) problems.targetId = messages.required(ASSIGN_LABELS[kind]);
  const date = form.assignedAt.trim();
  if (date === '') problems.assignedAt = messages.required(ASSIGN_LABELS.assignedAt);
  else if (!isCalendarDate(date)) problems.assignedAt = `${ASSIGN_LABELS.assignedAt} is invalid`;
  return problems;
}

export interface HistoryRow<T> {
  assignment: T;
  /** Its place in the server's list (oldest first): a stable key, the same crew may come twice. */
  position: number;
  /** The assignment in force today (spec §3 rule). */
  current: boolean;
  /** Dated after today: not in force yet. */
  upcoming: boolean;
}

/**
 * A worker's crew or shift history, newest first (the server lists it oldest first), with the
 * current one and those still to come marked.
 */
export function assignmentHistory<T extends { assigned_at: string }>(
  assignments: readonly T[],
  today: string,
): HistoryRow<T>[] {
  const current = currentAssignment(assignments, today);
  return assignments
    .map((assignment, index) => ({ assignment, index }))
    .sort(
      (a, b) =>
        b.assignment.assigned_at.slice(0, 10).localeCompare(a.assignment.assigned_at.slice(0, 10)) ||
        b.index - a.index,
    )
    .map(({ assignment, index }) => ({
      assignment,
      position: index,
      current: assignment === current,
      upcoming: assignment.assigned_at.slice(0, 10) > today,
    }));
}

/** Workers added to a picked list once each, in the order picked. */
export function toggleId(ids: readonly number[], id: number): number[] {
  return ids.includes(id) ? ids.filter((other) => other !== id) : [...ids, id];
}

export interface ShiftMember {
  workerId: number;
  name: string;
  /** YYYY-MM-DD */
  assignedAt: string | null;
  crew: string | null;
}

/** The workers whose current shift is this one, newest assignment first, then by name. */
export function shiftMembers(
  workers: readonly {
    worker_id: number;
    worker_name: string;
    workshift_id: number | null;
    workshift_assigned_at: string | null;
    crew_name: string | null;
  }[],
  workshiftId: number,
): ShiftMember[] {
  return workers
    .filter((worker) => worker.workshift_id === workshiftId)
    .map((worker) => ({
      workerId: worker.worker_id,
      name: worker.worker_name,
      assignedAt: worker.workshift_assigned_at?.slice(0, 10) ?? null,
      crew: worker.crew_name,
    }))
    .sort((a, b) => (b.assignedAt ?? '').localeCompare(a.assignedAt ?? '') || a.name.localeCompare(b.name));
}
