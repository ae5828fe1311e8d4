import { calendarDateIn } from '../../domain/calendarDate';
import { siteInstant } from '../../domain/siteClock';

/** A range of whole days in the site's time zone, both ends included, as YYYY-MM-DD. */
export interface DayRange {
  readonly from: string;
  readonly to: string;
}

const DAY_MS = 86_400_000;

function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

/**
 * Spec §9: the default range is this week, Sunday to Saturday as the console's other week
 * ranges are (dayjs's default), in the site's own calendar.
 */
export function currentWeekIn(timeZone: string, now: Date = new Date()): DayRange {
  const today = calendarDateIn(timeZone, now);
  const weekday = new Date(`${today}T00:00:00Z`).getUTCDay();
  const from = addDays(today, -weekday);
  return { from, to: addDays(from, 6) };
}

/** The instant a day starts in `timeZone` (midnight there), as epoch milliseconds. */
export function startOfDayIn(date: string, timeZone: string): number {
  return siteInstant(date, 0, timeZone);
}

/** The range as instants: from the first day's midnight to the midnight after the last day. */
export function rangeInstants(range: DayRange, timeZone: string): { fromMs: number; toMs: number } {
  return { fromMs: startOfDayIn(range.from, timeZone), toMs: startOfDayIn(addDays(range.to, 1), timeZone) };
}

/** Spec §9: start-of-day dates are sent in UTC as YYYY-MM-DDTHH:mm:ss. */
export function utcSeconds(ms: number): string {
  return new Date(ms).toISOString().slice(0, 19);
}

/** Whether `range` is two real days in order. */
export function isValidRange(range: DayRange): boolean {
  const from = Date.parse(`${range.from}T00:00:00Z`);
  const to = Date.parse(`${range.to}T00:00:00Z`);
  return Number.isFinite(from) && Number.isFinite(to) && from <= to;
}

/** How many days `range` spans, both ends included (a day and the same day: 1). */
export function rangeDays(range: DayRange): number {
  return (Date.parse(`${range.to}T00:00:00Z`) - Date.parse(`${range.from}T00:00:00Z`)) / 86_400_000 + 1;
}
