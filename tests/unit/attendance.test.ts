import { describe, expect, it } from 'vitest';
import {
  type AttendanceDayInput,
  addHourlyPresence,
  attendanceDay,
  bridgeGaps,
  bucketSpans,
  hoursOf,
  type Span,
} from '../../src/domain/attendance';
import { siteInstant } from '../../src/domain/siteClock';
import type { ShiftTimes } from '../../src/domain/workshiftClock';

// Dubai is UTC+4 all year: 08:00 on the site is 04:00 UTC.
const ZONE = 'Asia/Dubai';
const DAY = '2026-03-10'; // a Tuesday
const NEXT = '2026-03-11';
const at = (day: string, hhmm: string, zone = ZONE) => {
  const [h, m] = hhmm.split(':').map(Number);
  return siteInstant(day, h * 3600 + m * 60, zone);
};

/** Minute buckets from `from` (included) to `to` (excluded), site-local HH:mm. */
function minutes(fromDay: string, from: string, toDay: string, to: string, zone = ZONE): Span[] {
  const starts: number[] = [];
  for (let ms = at(fromDay, from, zone); ms < at(toDay, to, zone); ms += 60_000) starts.push(ms);
  return bucketSpans(starts);
}

const DAY_SHIFT: ShiftTimes = {
  startTime: '08:00',
  endTime: '17:00',
  breaks: [{ start: '12:00', end: '13:00' }],
  nonWorkingDays: [5], // Friday
};
const NIGHT_SHIFT: ShiftTimes = {
  startTime: '22:00',
  endTime: '06:00',
  breaks: [{ start: '02:00', end: '02:30' }],
  nonWorkingDays: [],
};

const LATER = Date.parse('2030-01-01T00:00:00Z');

function day(overrides: Partial<AttendanceDayInput>): ReturnType<typeof attendanceDay> {
  return attendanceDay({
    day: DAY,
    timeZone: ZONE,
    shift: DAY_SHIFT,
    previousShift: DAY_SHIFT,
    presence: [],
    offlineAfterSeconds: 60,
    manual: null,
    nowMs: LATER,
    ...overrides,
  });
}

const hours = (seconds: number | null) => (seconds === null ? null : hoursOf(seconds));

describe('daily attendance of one worker', () => {
  it('splits a day shift into hours in shift, break and overtime, in the site time zone', () => {
    const result = day({ presence: minutes(DAY, '07:30', DAY, '17:30') });
    expect(result.firstSeenMs).toBe(at(DAY, '07:30'));
    expect(new Date(result.firstSeenMs ?? 0).toISOString()).toBe('2026-03-10T03:30:00.000Z');
    expect(result.lastSeenMs).toBe(at(DAY, '17:30'));
    expect(hours(result.onSiteSeconds)).toBe(10);
    expect(hours(result.breakSeconds)).toBe(1);
    expect(hours(result.shiftSeconds)).toBe(8);
    expect(hours(result.overtimeSeconds)).toBe(1);
    expect(hours(result.effectiveSeconds)).toBe(9);
    expect(result).toMatchObject({ late: false, absent: false, status: 'present', manualSeconds: null });
  });

  it('does not count a helmet silent for an hour, but bridges a gap up to OFFLINE_AFTER', () => {
    const silent = day({
      presence: [...minutes(DAY, '08:00', DAY, '10:00'), ...minutes(DAY, '11:00', DAY, '17:00')],
    });
    expect(hours(silent.onSiteSeconds)).toBe(8);
    expect(hours(silent.shiftSeconds)).toBe(7);
    expect(silent.lastSeenMs).toBe(at(DAY, '17:00'));

    // One minute bucket missing (a 60 s gap) is bridged at OFFLINE_AFTER = 60 s, not at 30 s.
    const presence = [...minutes(DAY, '08:00', DAY, '09:00'), ...minutes(DAY, '09:01', DAY, '10:00')];
    expect(hours(day({ presence }).onSiteSeconds)).toBe(2);
    expect(day({ presence, offlineAfterSeconds: 30 }).onSiteSeconds).toBe(2 * 3600 - 60);
  });

  it('flags late only after five minutes past the shift start', () => {
    expect(day({ presence: minutes(DAY, '08:05', DAY, '17:00') }).late).toBe(false);
    const late = day({ presence: minutes(DAY, '08:10', DAY, '17:00') });
    expect(late).toMatchObject({ late: true, absent: false, status: 'present' });
  });

  it('gives a night shift crossing midnight to the day it starts, breaks subtracted', () => {
    const presence = minutes(DAY, '21:50', NEXT, '06:20');
    const night = day({ shift: NIGHT_SHIFT, previousShift: NIGHT_SHIFT, presence });
    expect(night.firstSeenMs).toBe(at(DAY, '21:50'));
    expect(night.lastSeenMs).toBe(at(NEXT, '06:20'));
    expect(hours(night.onSiteSeconds)).toBe(8.5);
    expect(hours(night.breakSeconds)).toBe(0.5);
    expect(hours(night.shiftSeconds)).toBe(7.5);
    expect(hours(night.overtimeSeconds)).toBe(0.5);
    expect(night.late).toBe(false);
    // The next day does not count the same morning again, and is absent without presence.
    const following = day({ day: NEXT, shift: NIGHT_SHIFT, previousShift: NIGHT_SHIFT, presence });
    expect(following).toMatchObject({ onSiteSeconds: 0, absent: true, status: 'absent' });
  });

  it('lets the manual entry win for the effective hours while keeping the computed ones', () => {
    const presence = minutes(DAY, '08:00', DAY, '17:00');
    const manual = day({ presence, manual: { present: true, checkIn: '08:00', checkOut: '16:00' } });
    expect(hours(manual.shiftSeconds)).toBe(8);
    expect(hours(manual.manualSeconds)).toBe(7); // 8 h minus the 1 h break
    expect(hours(manual.effectiveSeconds)).toBe(7);

    const markedAbsent = day({ presence, manual: { present: false, checkIn: null, checkOut: null } });
    expect(markedAbsent).toMatchObject({ absent: true, status: 'absent', effectiveSeconds: 0 });
    expect(hours(markedAbsent.onSiteSeconds)).toBe(9);

    const typedOnly = day({ manual: { present: true, checkIn: '08:30', checkOut: '17:00' } });
    expect(typedOnly).toMatchObject({ absent: false, late: true, status: 'present', onSiteSeconds: 0 });
    expect(hours(typedOnly.effectiveSeconds)).toBe(7.5);

    const overnight = day({
      shift: NIGHT_SHIFT,
      previousShift: NIGHT_SHIFT,
      manual: { present: true, checkIn: '22:00', checkOut: '06:00' },
    });
    expect(hours(overnight.manualSeconds)).toBe(7.5);
  });

  it('is absent on a working day that started without presence, not before it starts or on a day off', () => {
    expect(day({})).toMatchObject({ absent: true, status: 'absent' });
    expect(day({ nowMs: at(DAY, '08:03') })).toMatchObject({ absent: false, status: 'upcoming' });
    const friday = '2026-03-13';
    expect(day({ day: friday })).toMatchObject({ absent: false, status: 'off', workingDay: false });
    const cameOnDayOff = day({ day: friday, presence: minutes(friday, '09:00', friday, '11:00') });
    expect(hours(cameOnDayOff.overtimeSeconds)).toBe(2);
    expect(cameOnDayOff.late).toBe(false);
    expect(day({ shift: null, previousShift: null })).toMatchObject({ absent: false, status: 'off' });
  });

  it('reads the day in the site time zone, not in UTC', () => {
    // 22:00–23:59 UTC on the 10th is 02:00–03:59 on the 11th in Dubai.
    const spans = [{ fromMs: Date.parse('2026-03-10T22:00:00Z'), toMs: Date.parse('2026-03-11T00:00:00Z') }];
    const noShift = { shift: null, previousShift: null, presence: spans };
    expect(day({ ...noShift, day: DAY }).onSiteSeconds).toBe(0);
    expect(hours(day({ ...noShift, day: NEXT }).onSiteSeconds)).toBe(2);
    expect(hours(day({ ...noShift, day: DAY, timeZone: 'UTC' }).onSiteSeconds)).toBe(2);
  });

  it('keeps a nine-hour shift nine hours on the day clocks go forward', () => {
    const zone = 'America/New_York';
    const dst = '2026-03-08';
    const result = day({ day: dst, timeZone: zone, presence: minutes(dst, '08:00', dst, '17:00', zone) });
    expect(hours(result.onSiteSeconds)).toBe(9);
    expect(hours(result.shiftSeconds)).toBe(8);
    expect(result.window.toMs - result.window.fromMs).toBe(23 * 3_600_000);
  });
});

describe('attendance helpers', () => {
  it('merges overlapping and touching spans', () => {
    expect(
      bridgeGaps(
        [
          { fromMs: 10, toMs: 20 },
          { fromMs: 0, toMs: 5 },
          { fromMs: 15, toMs: 30 },
        ],
        0,
      ),
    ).toEqual([
      { fromMs: 0, toMs: 5 },
      { fromMs: 10, toMs: 30 },
    ]);
  });

  it('counts a worker once per hour of the day it was on site, wrapping past midnight', () => {
    const counts = new Array<number>(24).fill(0);
    const midnight = at(DAY, '00:00');
    addHourlyPresence(
      counts,
      [...minutes(DAY, '08:30', DAY, '09:10'), ...minutes(DAY, '09:20', DAY, '09:30')],
      midnight,
    );
    addHourlyPresence(counts, minutes(DAY, '23:30', NEXT, '01:00'), midnight);
    expect(counts[8]).toBe(1);
    expect(counts[9]).toBe(1);
    expect(counts[10]).toBe(0);
    expect(counts[23]).toBe(1);
    expect(counts[0]).toBe(1);
  });

  it('rounds hours to two decimals', () => {
    expect(hoursOf(3600 * 7.5 + 17)).toBe(7.5);
    expect(hoursOf(100)).toBe(0.03);
  });
});
