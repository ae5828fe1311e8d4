/**
 * Validation of a work shift's breaks (spec §5). Times are HH:mm wall-clock times; a shift whose
 * end is before its start crosses midnight and one whose end equals its start runs around the
 * clock (see workshiftClock.ts). Break positions are measured from the shift start, so a break at
 * 01:00 inside a 22:00–06:00 shift sits 3 hours into it.
 */
import { minutesOf } from './workshiftClock';

export const BREAK_MESSAGES = {
  duration: "Breaks duration can't exceed workshift duration",
  sequential: 'Breaks must be sequential',
  conflicting: 'Breaks are conflicting with each other',
  outside: 'Break start or end time cannot fall outside workshift period',
} as const;

export interface ShiftWithBreaks {
  /** HH:mm */
  start: string;
  /** HH:mm */
  end: string;
  breaks: readonly { start: string; end: string }[];
}

const MINUTES_PER_DAY = 24 * 60;
const modDay = (minutes: number) => ((minutes % MINUTES_PER_DAY) + MINUTES_PER_DAY) % MINUTES_PER_DAY;

/**
 * Every break problem of a shift, each message once, in the order spec §5 lists them:
 * - duration: the breaks together last longer than the shift;
 * - sequential: a break does not end after it starts, or starts before the break listed before it;
 * - conflicting: two breaks overlap;
 * - outside: a break starts or ends outside the shift period.
 * An empty list means the breaks are valid. Times that are not HH:mm are left to the format check.
 */
export function breakProblems(shift: ShiftWithBreaks): string[] {
  const start = minutesOf(shift.start);
  const end = minutesOf(shift.end);
  if (start === null || end === null) return [];
  const length = modDay(end - start) || MINUTES_PER_DAY;
  const spans: { from: number; to: number; duration: number }[] = [];
  for (const pause of shift.breaks) {
    const from = minutesOf(pause.start);
    const to = minutesOf(pause.end);
    if (from === null || to === null) continue;
    const fromPos = modDay(from - start);
    let toPos = modDay(to - start);
    // A break ending exactly when a round-the-clock shift ends sits at the end, not the start.
    if (toPos === 0 && length === MINUTES_PER_DAY && fromPos > 0) toPos = MINUTES_PER_DAY;
    spans.push({ from: fromPos, to: toPos, duration: modDay(to - from) });
  }

  const problems = new Set<string>();
  const total = spans.reduce((sum, span) => sum + span.duration, 0);
  if (total > length) problems.add(BREAK_MESSAGES.duration);
  spans.forEach((span, index) => {
    if (span.to <= span.from) problems.add(BREAK_MESSAGES.sequential);
    const previous = spans[index - 1];
    if (previous && span.from < previous.from) problems.add(BREAK_MESSAGES.sequential);
  });
  const proper = spans.filter((span) => span.to > span.from);
  for (let i = 0; i < proper.length; i++) {
    for (let j = i + 1; j < proper.length; j++) {
      const a = proper[i];
      const b = proper[j];
      if (a && b && a.from < b.to && b.from < a.to) problems.add(BREAK_MESSAGES.conflicting);
    }
  }
  if (spans.some((span) => span.from > length || span.to > length)) problems.add(BREAK_MESSAGES.outside);
  return Object.values(BREAK_MESSAGES).filter((message) => problems.has(message));
}

/** The first break problem of a shift, or null when its breaks are valid. */
export function firstBreakProblem(shift: ShiftWithBreaks): string | null {
  return breakProblems(shift)[0] ?? null;
}
