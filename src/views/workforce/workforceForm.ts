import type { ShiftBreakTimes, Workshift, WorkshiftBody } from '../../api/workforce/workshifts';
import { LIMITS } from '../../domain/limits';
import { messages } from '../../domain/messages';
import { nameProblem } from '../../domain/nameRule';
import { breakProblems } from '../../domain/workshiftBreaks';
import { minutesOf } from '../../domain/workshiftClock';

/**
 * Pure helpers of the crews, work shifts, worker roles and subcontractors forms. The rules are
 * the domain's (breakProblems is the server's own check); these only word them per field.
 */

/** Spec §8, shown before a dirty form is closed. */
export const CANCEL_UPDATES_MESSAGE =
  'You are about to cancel all your updates. All changes will be unsaved, proceed?';

export interface WorkshiftForm {
  name: string;
  category: string;
  /** 0 = Sunday … 6 = Saturday. */
  nonWorkingDays: number[];
  start: string;
  end: string;
  breaks: ShiftBreakTimes[];
}

export interface WorkshiftProblems {
  /** By field: name, category, start, end, `breaks.<i>.start`, `breaks.<i>.end`. */
  fields: Record<string, string>;
  /** The break rules of spec §5, each once. */
  breaks: string[];
}

export function workshiftForm(shift: Workshift | null): WorkshiftForm {
  return {
    name: shift?.name ?? '',
    category: shift?.category ?? '',
    nonWorkingDays: [...(shift?.non_working_days ?? [])].sort((a, b) => a - b),
    start: shift?.start ?? '',
    end: shift?.end ?? '',
    breaks: (shift?.breaks ?? []).map((pause) => ({ ...pause })),
  };
}

function timeProblem(label: string, value: string): string | null {
  if (!value.trim()) return messages.required(label);
  return minutesOf(value.trim()) === null ? `${label} must be a time (HH:mm)` : null;
}

/** Every problem of a work shift form; nothing to show when both parts are empty. */
export function workshiftProblems(form: WorkshiftForm): WorkshiftProblems {
  const fields: Record<string, string> = {};
  const add = (key: string, problem: string | null) => {
    if (problem) fields[key] = problem;
  };
  add('name', nameProblem('Name', form.name));
  if (form.category.trim().length > LIMITS.nameMax)
    add('category', messages.maxChars('Category', LIMITS.nameMax));
  add('start', timeProblem('Start time', form.start));
  add('end', timeProblem('End time', form.end));
  form.breaks.forEach((pause, index) => {
    add(`breaks.${index}.start`, timeProblem('Break start time', pause.start));
    add(`breaks.${index}.end`, timeProblem('Break end time', pause.end));
  });
  const breaks = breakProblems({
    start: form.start.trim(),
    end: form.end.trim(),
    breaks: form.breaks.map((pause) => ({ start: pause.start.trim(), end: pause.end.trim() })),
  });
  return { fields, breaks };
}

export function hasProblems(problems: WorkshiftProblems): boolean {
  return Object.keys(problems.fields).length > 0 || problems.breaks.length > 0;
}

/** What the server receives: trimmed, days sorted and unique. */
export function workshiftBody(form: WorkshiftForm): WorkshiftBody {
  return {
    name: form.name.trim(),
    category: form.category.trim(),
    non_working_days: [...new Set(form.nonWorkingDays)].sort((a, b) => a - b),
    start: form.start.trim(),
    end: form.end.trim(),
    breaks: form.breaks.map((pause) => ({ start: pause.start.trim(), end: pause.end.trim() })),
  };
}

/** Names whose text contains the search, ignoring case and surrounding spaces. */
export function matchesSearch(name: string, search: string): boolean {
  const needle = search.trim().toLocaleLowerCase();
  return needle === '' || name.toLocaleLowerCase().includes(needle);
}

/** Short weekday names, Sunday first, in the console's language. */
export function weekdayNames(locale: string): string[] {
  const format = new Intl.DateTimeFormat(locale === 'ar' ? 'ar' : 'en-US', {
    weekday: 'short',
    timeZone: 'UTC',
  });
  // 2023-01-01 was a Sunday.
  return Array.from({ length: 7 }, (_, day) => format.format(new Date(Date.UTC(2023, 0, 1 + day))));
}

export interface CrewMember {
  workerId: number;
  name: string;
  /** YYYY-MM-DD */
  assignedAt: string | null;
  workshift: string | null;
}

export interface CrewSummary {
  members: CrewMember[];
  /** The newest current assignment date among the members (YYYY-MM-DD), or null. */
  lastAssignedAt: string | null;
}

/** Current members of each crew, by crew id, newest assignment first. */
export function crewSummaries(
  workers: readonly {
    worker_id: number;
    worker_name: string;
    crew_id: number | null;
    crew_assigned_at: string | null;
    workshift_name: string | null;
  }[],
): Map<number, CrewSummary> {
  const crews = new Map<number, CrewSummary>();
  for (const worker of workers) {
    if (worker.crew_id === null) continue;
    const summary = crews.get(worker.crew_id) ?? { members: [], lastAssignedAt: null };
    const assignedAt = worker.crew_assigned_at?.slice(0, 10) ?? null;
    summary.members.push({
      workerId: worker.worker_id,
      name: worker.worker_name,
      assignedAt,
      workshift: worker.workshift_name,
    });
    if (assignedAt && (summary.lastAssignedAt === null || assignedAt > summary.lastAssignedAt))
      summary.lastAssignedAt = assignedAt;
    crews.set(worker.crew_id, summary);
  }
  for (const summary of crews.values())
    summary.members.sort(
      (a, b) => (b.assignedAt ?? '').localeCompare(a.assignedAt ?? '') || a.name.localeCompare(b.name),
    );
  return crews;
}
