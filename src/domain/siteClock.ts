/**
 * The site's wall clock: days and clock times of the analytics and history screens are the
 * site's (spec §9), whatever the browser's own time zone. An unknown zone reads as UTC.
 */
const wallClocks = new Map<string, Intl.DateTimeFormat>();

function wallClock(timeZone: string): Intl.DateTimeFormat {
  let format = wallClocks.get(timeZone);
  if (!format) {
    try {
      format = new Intl.DateTimeFormat('en-US', {
        timeZone,
        hourCycle: 'h23',
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
        hour: '2-digit',
        minute: '2-digit',
        second: '2-digit',
      });
    } catch {
      format = wallClock('UTC');
    }
    wallClocks.set(timeZone, format);
  }
  return format;
}

/** The wall clock of an instant in a time zone: `YYYY-MM-DD` and `HH:MM:SS`. */
export function wallTime(ms: number, timeZone: string): { date: string; time: string } {
  const parts: Record<string, string> = {};
  for (const part of wallClock(timeZone).formatToParts(ms)) parts[part.type] = part.value;
  return {
    date: `${parts.year}-${parts.month}-${parts.day}`,
    time: `${parts.hour}:${parts.minute}:${parts.second}`,
  };
}

/** `YYYY-MM-DD` of the day an instant falls on in the site's time zone. */
export function siteDayValue(ms: number, timeZone: string): string {
  return wallTime(ms, timeZone).date;
}

/** `YYYY-MM-DDTHH:MM` of an instant in the site's time zone, as datetime-local inputs take it. */
export function siteInputValue(ms: number, timeZone: string): string {
  const { date, time } = wallTime(ms, timeZone);
  return `${date}T${time.slice(0, 5)}`;
}

/** The clock time (HH:MM:SS) of an instant in the site's time zone. */
export function clockTime(ms: number, timeZone: string): string {
  return wallTime(ms, timeZone).time;
}

/**
 * The instant `secondsOfDay` after the start of `YYYY-MM-DD` on the site's wall clock, or NaN:
 * the wall time is read back twice so a day whose offset changes (DST) settles on the right one.
 */
export function siteInstant(day: string, secondsOfDay: number, timeZone: string): number {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!match || !Number.isFinite(secondsOfDay)) return Number.NaN;
  const wanted = Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])) + secondsOfDay * 1000;
  if (!Number.isFinite(wanted)) return Number.NaN;
  let guess = wanted;
  for (let round = 0; round < 2; round++) {
    const { date, time } = wallTime(guess, timeZone);
    const shown = Date.parse(`${date}T${time}Z`);
    if (!Number.isFinite(shown)) return Number.NaN;
    guess -= shown - wanted;
  }
  return guess;
}

/** A site day as instants: its midnight to the next day's (23 or 25 hours on a DST change). */
export function siteDayRange(day: string, timeZone: string): { fromMs: number; toMs: number } {
  const fromMs = siteInstant(day, 0, timeZone);
  const next = Number.isFinite(fromMs) ? siteDayValue(fromMs + 36 * 3_600_000, timeZone) : day;
  return { fromMs, toMs: siteInstant(next, 0, timeZone) };
}

/** A datetime-local input's `YYYY-MM-DDTHH:MM` on the site's wall clock, as an instant, or NaN. */
export function siteInputInstant(text: string, timeZone: string): number {
  const match = /^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2})$/.exec(text);
  if (!match) return Number.NaN;
  return siteInstant(match[1], Number(match[2]) * 3600 + Number(match[3]) * 60, timeZone);
}
