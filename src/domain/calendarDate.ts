import { localTime } from './workshiftClock';

/** True for a real calendar date written YYYY-MM-DD (no 30 February rolling over into March). */
export function isCalendarDate(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  return isCalendarDay(value);
}

/** Whether the YYYY-MM-DD at the start of an ISO text names a day that exists. */
export function isCalendarDay(iso: string): boolean {
  const [year, month, day] = iso.slice(0, 10).split('-').map(Number);
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** The date (YYYY-MM-DD) it is in a time zone; an unknown zone reads as UTC. */
export function calendarDateIn(timeZone: string, now: Date = new Date()): string {
  try {
    return localTime(now, timeZone).date;
  } catch {
    return now.toISOString().slice(0, 10);
  }
}
