/**
 * Daily attendance (the /dailyAttendanceReport screen): one worker's site-local day computed from
 * its presence (minute buckets of the presence rollup, or raw positions), the work shift in force
 * that day and the manual attendance of an upload. Rules (docs/decisions.md, "Daily attendance"):
 * - present: a span with presence on a floor of the site; gaps up to OFFLINE_AFTER between two
 *   spans are bridged (a helmet reporting late is still there), longer gaps are not counted;
 * - a shift belongs to the day it starts on; a day's window runs from midnight to the next
 *   midnight, except after a shift crossing midnight: that day then runs on past its shift's end
 *   by half the time off (22:00–06:00: until 14:00), and the next day starts there, so the
 *   windows of consecutive days tile the timeline and a night shift's hours stay with it;
 * - hours in shift are on-site hours inside the shift minus its breaks; presence during a break is
 *   neither paid nor overtime; overtime is on-site hours outside the shift;
 * - late: arrival more than LATE_AFTER_MINUTES after the shift start; absent: a working day of the
 *   shift that has started, with no presence and no manual "present" (or a manual "absent");
 * - manual attendance wins for the effective hours and the flags; both are kept.
 */
import { ROLLUP_BUCKET_MS } from './analytics';
import { siteInstant } from './siteClock';
import { minutesOf, type ShiftTimes, shiftLength } from './workshiftClock';

/** Arrival more than this many minutes after the shift start is late. */
export const LATE_AFTER_MINUTES = 5;
/** The longest range one report may cover, in days (a month). */
export const ATTENDANCE_MAX_DAYS = 31;

/** A time span [fromMs, toMs). */
export interface Span {
  fromMs: number;
  toMs: number;
}

/** Attendance typed in an upload for one worker and day. */
export interface ManualEntry {
  present: boolean;
  /** HH:mm, site-local; null when not given. */
  checkIn: string | null;
  checkOut: string | null;
}

export interface AttendanceDayInput {
  /** YYYY-MM-DD, site-local. */
  day: string;
  timeZone: string;
  /** The shift in force on `day` (latest assignment on or before it), or null. */
  shift: ShiftTimes | null;
  /** The shift in force on the day before: its night shift's morning hours are that day's. */
  previousShift: ShiftTimes | null;
  /** Presence spans around the day, in any order; they are bridged and clipped here. */
  presence: readonly Span[];
  offlineAfterSeconds: number;
  manual: ManualEntry | null;
  /** Now: a shift that has not started yet cannot be missed. */
  nowMs: number;
}

export type AttendanceStatus = 'present' | 'absent' | 'off' | 'upcoming';

export interface AttendanceDay {
  /** The day's window, instants. */
  window: Span;
  firstSeenMs: number | null;
  lastSeenMs: number | null;
  onSiteSeconds: number;
  /** On-site seconds during the shift's breaks (not paid, not overtime). */
  breakSeconds: number;
  /** On-site seconds inside the shift, breaks excluded. */
  shiftSeconds: number;
  /** On-site seconds outside the shift (all of them on a non-working day of the shift). */
  overtimeSeconds: number;
  /** shiftSeconds + overtimeSeconds (on-site seconds without the breaks). */
  workedSeconds: number;
  /** From the manual check-in and check-out, breaks excluded; null without both times. */
  manualSeconds: number | null;
  /** What the day counts: the manual hours where there are some, else the worked seconds. */
  effectiveSeconds: number;
  late: boolean;
  absent: boolean;
  status: AttendanceStatus;
  /** Whether the shift works on this day. */
  workingDay: boolean;
  /** The bridged presence inside the window (for headcount by hour). */
  presence: Span[];
}

const MINUTE_MS = 60_000;
const DAY_MINUTES = 24 * 60;
const modDay = (minutes: number) => ((minutes % DAY_MINUTES) + DAY_MINUTES) % DAY_MINUTES;

/** siteInstant remembered: a month's report asks the same few wall times for every worker. */
const instants = new Map<string, number>();
function instant(day: string, secondsOfDay: number, timeZone: string): number {
  const key = `${day}|${secondsOfDay}|${timeZone}`;
  let ms = instants.get(key);
  if (ms === undefined) {
    if (instants.size > 20_000) instants.clear();
    ms = siteInstant(day, secondsOfDay, timeZone);
    instants.set(key, ms);
  }
  return ms;
}

/** `YYYY-MM-DD` moved by whole days. */
export function addDays(day: string, days: number): string {
  const ms = Date.parse(`${day}T00:00:00Z`) + days * 86_400_000;
  return new Date(ms).toISOString().slice(0, 10);
}

/** Every day from `from` to `to`, both included. */
export function daysBetween(from: string, to: string): string[] {
  const days: string[] = [];
  for (let day = from; day <= to; day = addDays(day, 1)) days.push(day);
  return days;
}

/** Minute buckets (their start instants) as spans a bucket wide. */
export function bucketSpans(bucketStartsMs: readonly number[], bucketMs = ROLLUP_BUCKET_MS): Span[] {
  return bucketStartsMs.map((fromMs) => ({ fromMs, toMs: fromMs + bucketMs }));
}

/** Spans sorted and merged; a gap of at most `gapMs` between two is bridged. */
export function bridgeGaps(spans: readonly Span[], gapMs: number): Span[] {
  const sorted = spans.filter((s) => s.toMs > s.fromMs).sort((a, b) => a.fromMs - b.fromMs);
  const merged: Span[] = [];
  for (const span of sorted) {
    const last = merged[merged.length - 1];
    if (last && span.fromMs - last.toMs <= gapMs) last.toMs = Math.max(last.toMs, span.toMs);
    else merged.push({ ...span });
  }
  return merged;
}

function clip(spans: readonly Span[], window: Span): Span[] {
  const clipped: Span[] = [];
  for (const span of spans) {
    const fromMs = Math.max(span.fromMs, window.fromMs);
    const toMs = Math.min(span.toMs, window.toMs);
    if (toMs > fromMs) clipped.push({ fromMs, toMs });
  }
  return clipped;
}

/** Milliseconds the two sorted, non-overlapping span lists share. */
function overlapMs(a: readonly Span[], b: readonly Span[]): number {
  let total = 0;
  for (const x of a) {
    for (const y of b) {
      const from = Math.max(x.fromMs, y.fromMs);
      const to = Math.min(x.toMs, y.toMs);
      if (to > from) total += to - from;
    }
  }
  return total;
}

const weekdayOf = (day: string) => new Date(`${day}T00:00:00Z`).getUTCDay();

/** Whether the shift runs on a day (it is not one of its non-working days). */
export function worksOn(shift: ShiftTimes | null, day: string): shift is ShiftTimes {
  return shift !== null && !shift.nonWorkingDays.includes(weekdayOf(day));
}

function startMinutes(shift: ShiftTimes): number {
  const start = minutesOf(shift.startTime);
  if (start === null) throw new RangeError(`"${shift.startTime}" is not an HH:mm time`);
  return start;
}

/**
 * Minutes past the next midnight that the day of `day` reaches: 0 unless its shift crosses
 * midnight; then the shift's end plus half the time off before the next start, so the overtime
 * just after a night shift stays with it and the next day starts well before its own shift.
 */
function spillMinutes(shift: ShiftTimes | null, day: string): number {
  if (!worksOn(shift, day)) return 0;
  const length = shiftLength(shift);
  const end = startMinutes(shift) + length;
  if (end <= DAY_MINUTES) return 0;
  return end - DAY_MINUTES + Math.floor((DAY_MINUTES - length) / 2);
}

/** The instants a day's attendance covers (see the rules above). */
export function attendanceWindow(
  day: string,
  timeZone: string,
  shift: ShiftTimes | null,
  previousShift: ShiftTimes | null,
): Span {
  return {
    fromMs: instant(day, spillMinutes(previousShift, addDays(day, -1)) * 60, timeZone),
    toMs: instant(addDays(day, 1), spillMinutes(shift, day) * 60, timeZone),
  };
}

/** The shift on a day as a span, and its breaks as spans (wall-clock times of the site). */
export function shiftSpans(
  shift: ShiftTimes,
  day: string,
  timeZone: string,
): { whole: Span; breaks: Span[] } {
  const start = startMinutes(shift);
  const at = (minutesFromStart: number) => instant(day, (start + minutesFromStart) * 60, timeZone);
  const length = shiftLength(shift);
  const breaks: Span[] = [];
  for (const pause of shift.breaks) {
    const from = minutesOf(pause.start);
    const to = minutesOf(pause.end);
    if (from === null || to === null) continue;
    const offset = modDay(from - start);
    const end = Math.min(length, offset + modDay(to - from));
    if (end > offset) breaks.push({ fromMs: at(offset), toMs: at(end) });
  }
  return { whole: { fromMs: at(0), toMs: at(length) }, breaks: breaks.sort((a, b) => a.fromMs - b.fromMs) };
}

/** The manual entry's check-in to check-out as a span (a check-out before the check-in is the next day). */
export function manualSpan(manual: ManualEntry, day: string, timeZone: string): Span | null {
  if (!manual.present || manual.checkIn === null || manual.checkOut === null) return null;
  const checkIn = minutesOf(manual.checkIn);
  const checkOut = minutesOf(manual.checkOut);
  if (checkIn === null || checkOut === null) return null;
  const outMinutes = checkOut > checkIn ? checkOut : checkOut + DAY_MINUTES;
  return {
    fromMs: instant(day, checkIn * 60, timeZone),
    toMs: instant(day, outMinutes * 60, timeZone),
  };
}

/** One worker's day. */
export function attendanceDay(input: AttendanceDayInput): AttendanceDay {
  const { day, timeZone, shift, manual } = input;
  const window = attendanceWindow(day, timeZone, shift, input.previousShift);
  const presence = clip(bridgeGaps(input.presence, input.offlineAfterSeconds * 1000), window);
  const onSiteMs = presence.reduce((sum, s) => sum + s.toMs - s.fromMs, 0);
  const workingDay = worksOn(shift, day);

  let breakMs = 0;
  let shiftMs = 0;
  let overtimeMs = 0;
  let shiftStartMs: number | null = null;
  let breaks: Span[] = [];
  if (workingDay) {
    const spans = shiftSpans(shift, day, timeZone);
    shiftStartMs = spans.whole.fromMs;
    breaks = spans.breaks;
    const inShiftMs = overlapMs(presence, [spans.whole]);
    breakMs = overlapMs(presence, breaks);
    shiftMs = inShiftMs - breakMs;
    overtimeMs = onSiteMs - inShiftMs;
  } else if (shift !== null) {
    overtimeMs = onSiteMs;
  } else {
    // No shift in force: nothing to be in or out of; every on-site hour is worked.
    shiftMs = onSiteMs;
  }
  const workedMs = shiftMs + overtimeMs;

  const span = manual ? manualSpan(manual, day, timeZone) : null;
  const manualMs = span
    ? span.toMs - span.fromMs - overlapMs([span], breaks)
    : manual && !manual.present
      ? 0
      : null;
  const effectiveMs = manual && !manual.present ? 0 : (manualMs ?? workedMs);

  const firstSeenMs = presence[0]?.fromMs ?? null;
  const lastSeenMs = presence[presence.length - 1]?.toMs ?? null;
  const arrivalMs = span?.fromMs ?? firstSeenMs;
  const lateAfterMs = shiftStartMs === null ? null : shiftStartMs + LATE_AFTER_MINUTES * MINUTE_MS;
  const started = lateAfterMs !== null && input.nowMs >= lateAfterMs;
  const presentByManual = manual?.present ?? null;
  const absent = presentByManual === false || (started && presentByManual === null && presence.length === 0);
  const late = !absent && lateAfterMs !== null && arrivalMs !== null && arrivalMs > lateAfterMs;

  let status: AttendanceStatus = 'off';
  if (absent) status = 'absent';
  else if (presence.length > 0 || presentByManual === true) status = 'present';
  else if (workingDay && !started) status = 'upcoming';

  const seconds = (ms: number) => Math.round(ms / 1000);
  return {
    window,
    firstSeenMs,
    lastSeenMs,
    onSiteSeconds: seconds(onSiteMs),
    breakSeconds: seconds(breakMs),
    shiftSeconds: seconds(shiftMs),
    overtimeSeconds: seconds(overtimeMs),
    workedSeconds: seconds(workedMs),
    manualSeconds: manualMs === null ? null : seconds(manualMs),
    effectiveSeconds: seconds(effectiveMs),
    late,
    absent,
    status,
    workingDay,
    presence,
  };
}

/** Seconds as hours rounded to two decimals (spec §9 shows hours with two decimals). */
export function hoursOf(seconds: number): number {
  return Math.round(seconds / 36) / 100;
}

/**
 * For each hour of the site-local day (0–23), the hours in which each span had presence, counted
 * once per span list (one worker's day): `counts[h]` goes up by one when any span touches hour h.
 * `dayStartMs` is the site-local midnight of the day; hours past the next midnight wrap around.
 */
export function addHourlyPresence(counts: number[], spans: readonly Span[], dayStartMs: number): void {
  const hours = new Set<number>();
  for (const span of spans) {
    const first = Math.floor((span.fromMs - dayStartMs) / 3_600_000);
    const last = Math.floor((span.toMs - 1 - dayStartMs) / 3_600_000);
    for (let h = first; h <= last && hours.size < 24; h++) hours.add(((h % 24) + 24) % 24);
  }
  for (const h of hours) counts[h] = (counts[h] ?? 0) + 1;
}
