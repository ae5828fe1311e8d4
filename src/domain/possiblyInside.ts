import { localTime, minutesOf, type ShiftTimes, shiftLength, shiftStateAt } from './workshiftClock';

/** A silent helmet never counts as possibly inside for longer than this before the alarm. */
export const POSSIBLY_INSIDE_MAX_HOURS = 12;

const HOUR_MS = 3600_000;
const MINUTE_MS = 60_000;

/**
 * Since when a helmet that was already silent at the alarm still counts as possibly inside (a
 * person with a dead battery): the site's setting in hours when it has one (at most 12), else the
 * start of the earliest of the site's shifts running at the alarm, never more than 12 h before it;
 * with no shift running, 12 h. A helmet silent since before then is not on the roll.
 */
export function possiblyInsideSince(
  alarmAt: Date,
  setting: { possiblyInsideHours: number | null },
  shifts: readonly ShiftTimes[],
  timeZone: string,
): Date {
  const limit = alarmAt.getTime() - POSSIBLY_INSIDE_MAX_HOURS * HOUR_MS;
  if (setting.possiblyInsideHours !== null)
    return new Date(Math.max(limit, alarmAt.getTime() - setting.possiblyInsideHours * HOUR_MS));
  const local = localTime(alarmAt, timeZone);
  let earliest = alarmAt.getTime();
  for (const shift of shifts) {
    if (shiftStateAt(shift, alarmAt, timeZone) === 'off') continue;
    const start = minutesOf(shift.startTime);
    if (start === null) continue;
    const sinceStart = (local.minutes - start + 1440) % 1440;
    if (sinceStart >= shiftLength(shift)) continue;
    // local.minutes is whole minutes: the seconds of the alarm's minute count too.
    earliest = Math.min(
      earliest,
      alarmAt.getTime() - sinceStart * MINUTE_MS - (alarmAt.getTime() % MINUTE_MS),
    );
  }
  if (earliest === alarmAt.getTime()) return new Date(limit);
  return new Date(Math.max(limit, earliest));
}
