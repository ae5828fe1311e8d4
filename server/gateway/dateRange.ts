import { isCalendarDay } from '../../src/domain/calendarDate';
import { wallTime } from '../../src/domain/siteClock';

/**
 * Date ranges of the gateway's queries, as Cube reads them: wall-clock times of the query's time
 * zone. Bounds are kept as local `YYYY-MM-DDTHH:mm:ss.SSS` texts and turned into instants by
 * PostgreSQL (`…::timestamp at time zone $tz`), so JavaScript never computes a zone offset.
 */

export type LocalRange = [from: string, to: string];

const LOCAL_TIME = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3}))?)?)?$/;

export class DateRangeError extends Error {}

/** `YYYY-MM-DD[THH:mm[:ss[.SSS]]]` as a full local time; a date alone is its day's first or last instant. */
export function localBound(value: string, end: boolean): string {
  const match = LOCAL_TIME.exec(value.trim());
  if (!match || !isCalendarDay(value.trim())) {
    throw new DateRangeError(
      `Invalid date "${value.slice(0, 40)}": use YYYY-MM-DD or YYYY-MM-DDTHH:mm:ss, a local time of the query's timezone`,
    );
  }
  const [, year, month, day, hour, minute, second, fraction] = match;
  if (Number(year) < 1900) throw new DateRangeError(`Invalid date "${value.slice(0, 40)}": before 1900`);
  if (hour === undefined) return `${year}-${month}-${day}T${end ? '23:59:59.999' : '00:00:00.000'}`;
  if (Number(hour) > 23 || Number(minute) > 59 || Number(second ?? 0) > 59) {
    throw new DateRangeError(`Invalid time in "${value.slice(0, 40)}"`);
  }
  const millis = (fraction ?? (end && second === undefined ? '999' : '000')).padEnd(3, '0');
  const seconds = second ?? (end ? '59' : '00');
  return `${year}-${month}-${day}T${hour}:${minute}:${seconds}.${millis}`;
}

/** An explicit [from, to] range; `to` must not come before `from`. */
export function explicitRange(from: string, to: string): LocalRange {
  const range: LocalRange = [localBound(from, false), localBound(to, true)];
  if (range[0] > range[1]) throw new DateRangeError('The date range ends before it starts');
  return range;
}

type Unit = 'second' | 'minute' | 'hour' | 'day' | 'week' | 'month' | 'quarter' | 'year';
const UNITS: readonly Unit[] = ['second', 'minute', 'hour', 'day', 'week', 'month', 'quarter', 'year'];

/** Wall-clock fields held in a UTC Date, so calendar arithmetic needs no zone. */
function wallClockNow(now: Date, timeZone: string): Date {
  const { date, time } = wallTime(now.getTime(), timeZone);
  return new Date(Date.parse(`${date}T${time}Z`) + now.getUTCMilliseconds());
}

/** The start of the unit holding `wall`; weeks start on Monday (ISO, as PostgreSQL's date_trunc). */
function startOf(wall: Date, unit: Unit): Date {
  const y = wall.getUTCFullYear();
  const m = wall.getUTCMonth();
  const d = wall.getUTCDate();
  switch (unit) {
    case 'second':
      return new Date(Date.UTC(y, m, d, wall.getUTCHours(), wall.getUTCMinutes(), wall.getUTCSeconds()));
    case 'minute':
      return new Date(Date.UTC(y, m, d, wall.getUTCHours(), wall.getUTCMinutes()));
    case 'hour':
      return new Date(Date.UTC(y, m, d, wall.getUTCHours()));
    case 'day':
      return new Date(Date.UTC(y, m, d));
    case 'week':
      return new Date(Date.UTC(y, m, d - ((wall.getUTCDay() + 6) % 7)));
    case 'month':
      return new Date(Date.UTC(y, m, 1));
    case 'quarter':
      return new Date(Date.UTC(y, m - (m % 3), 1));
    case 'year':
      return new Date(Date.UTC(y, 0, 1));
  }
}

/** `start` moved by `n` units (calendar units for month, quarter, year). */
function add(start: Date, unit: Unit, n: number): Date {
  const fixed: Partial<Record<Unit, number>> = {
    second: 1_000,
    minute: 60_000,
    hour: 3_600_000,
    day: 86_400_000,
    week: 604_800_000,
  };
  const step = fixed[unit];
  if (step !== undefined) return new Date(start.getTime() + n * step);
  const months = unit === 'month' ? n : unit === 'quarter' ? 3 * n : 12 * n;
  return new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + months, 1));
}

const text = (wall: Date) => wall.toISOString().slice(0, 23);

/** [start, end of the unit `count` units later), as inclusive local bounds. */
function unitsFrom(start: Date, unit: Unit, count: number): LocalRange {
  return [text(start), text(new Date(add(start, unit, count).getTime() - 1))];
}

/**
 * Relative ranges as Cube words them: `today`, `yesterday`, `this <unit>`, `last <unit>`,
 * `last N <units>` (the N whole units before the current one, as Cube), `next <unit>`.
 */
export function relativeRange(value: string, timeZone: string, now: Date): LocalRange {
  const phrase = value.trim().toLowerCase().replace(/\s+/g, ' ');
  const wall = wallClockNow(now, timeZone);
  if (phrase === 'today') return unitsFrom(startOf(wall, 'day'), 'day', 1);
  if (phrase === 'yesterday') return unitsFrom(add(startOf(wall, 'day'), 'day', -1), 'day', 1);
  if (phrase === 'tomorrow') return unitsFrom(add(startOf(wall, 'day'), 'day', 1), 'day', 1);
  const single = /^(this|last|next) (\w+)$/.exec(phrase);
  if (single && (UNITS as readonly string[]).includes(single[2])) {
    const unit = single[2] as Unit;
    const shift = single[1] === 'this' ? 0 : single[1] === 'last' ? -1 : 1;
    return unitsFrom(add(startOf(wall, unit), unit, shift), unit, 1);
  }
  const several = /^last (\d{1,4}) (\w+?)s?$/.exec(phrase);
  if (several && (UNITS as readonly string[]).includes(several[2])) {
    const unit = several[2] as Unit;
    const n = Number(several[1]);
    if (n >= 1) return unitsFrom(add(startOf(wall, unit), unit, -n), unit, n);
  }
  throw new DateRangeError(
    `Unsupported date range "${value.slice(0, 40)}": use [from, to], today, yesterday, this/last/next week|month|…, or last N days|hours|…`,
  );
}
