/**
 * Where a worker's work shift stands at an instant: off, working or on a break. Shift times are
 * HH:mm wall-clock times in the site's time zone; an end before the start crosses midnight, and
 * an end equal to the start is a shift around the clock (24 hours, e.g. a control room).
 * A shift belongs to the day it starts on: a night shift starting on a non-working day does not
 * happen, and its early-morning hours on the next day are off too.
 */

export interface ShiftTimes {
  /** HH:mm */
  startTime: string;
  endTime: string;
  breaks: readonly { start: string; end: string }[];
  /** 0 = Sunday … 6 = Saturday. */
  nonWorkingDays: readonly number[];
}

export type ShiftState = 'off' | 'working' | 'break';

/** A wall-clock reading in a time zone. */
export interface LocalTime {
  /** YYYY-MM-DD */
  date: string;
  /** 0 = Sunday … 6 = Saturday. */
  weekday: number;
  /** Minutes since local midnight, 0–1439. */
  minutes: number;
}

const MINUTES_PER_DAY = 24 * 60;
const HH_MM = /^([01]\d|2[0-3]):([0-5]\d)$/;

/** Minutes since midnight of an HH:mm time, or null when the text is not one. */
export function minutesOf(time: string): number | null {
  const match = HH_MM.exec(time);
  return match ? Number(match[1]) * 60 + Number(match[2]) : null;
}

function requiredMinutes(time: string): number {
  const minutes = minutesOf(time);
  if (minutes === null) throw new RangeError(`"${time}" is not an HH:mm time`);
  return minutes;
}

const modDay = (minutes: number) => ((minutes % MINUTES_PER_DAY) + MINUTES_PER_DAY) % MINUTES_PER_DAY;

/** How long the shift lasts in minutes: 1440 when it runs around the clock. */
export function shiftLength(shift: Pick<ShiftTimes, 'startTime' | 'endTime'>): number {
  const length = modDay(requiredMinutes(shift.endTime) - requiredMinutes(shift.startTime));
  return length === 0 ? MINUTES_PER_DAY : length;
}

/** The shift's state at a local wall-clock time (weekday and minutes of the day). */
export function shiftStateAtLocal(
  shift: ShiftTimes,
  local: Pick<LocalTime, 'weekday' | 'minutes'>,
): ShiftState {
  const start = requiredMinutes(shift.startTime);
  const sinceStart = modDay(local.minutes - start);
  if (sinceStart >= shiftLength(shift)) return 'off';
  // Before today's start time the running shift began yesterday.
  const startDay = local.minutes >= start ? local.weekday : (local.weekday + 6) % 7;
  if (shift.nonWorkingDays.includes(startDay)) return 'off';
  for (const pause of shift.breaks) {
    const from = modDay(requiredMinutes(pause.start) - start);
    const length = modDay(requiredMinutes(pause.end) - requiredMinutes(pause.start));
    if (sinceStart >= from && sinceStart < from + length) return 'break';
  }
  return 'working';
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** The wall clock of an IANA time zone at an instant. */
export function localTime(instant: Date, timeZone: string): LocalTime {
  const parts: Record<string, string> = {};
  for (const part of formatterFor(timeZone).formatToParts(instant)) parts[part.type] = part.value;
  const date = `${parts.year}-${parts.month}-${parts.day}`;
  const weekday = new Date(`${date}T00:00:00Z`).getUTCDay();
  return { date, weekday, minutes: Number(parts.hour) * 60 + Number(parts.minute) };
}

/** The shift's state at an instant in the site's time zone. */
export function shiftStateAt(shift: ShiftTimes, instant: Date, timeZone: string): ShiftState {
  return shiftStateAtLocal(shift, localTime(instant, timeZone));
}
