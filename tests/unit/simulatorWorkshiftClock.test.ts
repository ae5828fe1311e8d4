import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  localTime,
  minutesOf,
  type ShiftTimes,
  shiftLength,
  shiftStateAt,
  shiftStateAtLocal,
} from '../../src/domain/workshiftClock';

const day: ShiftTimes = {
  startTime: '06:00',
  endTime: '18:00',
  breaks: [
    { start: '10:00', end: '10:15' },
    { start: '13:00', end: '14:00' },
  ],
  nonWorkingDays: [5],
};
const night: ShiftTimes = {
  startTime: '18:00',
  endTime: '06:00',
  breaks: [
    { start: '22:00', end: '22:15' },
    { start: '02:00', end: '02:30' },
  ],
  nonWorkingDays: [5],
};
const controlRoom: ShiftTimes = { startTime: '00:00', endTime: '00:00', breaks: [], nonWorkingDays: [] };

// Sunday 2025-03-02 … Saturday 2025-03-08; Dubai is UTC+4 all year (no daylight saving).
const dubai = (local: string) => new Date(`${local}+04:00`);

const hhmm = (minutes: number) =>
  `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
const time = fc.integer({ min: 0, max: 1439 }).map(hhmm);
const shiftArb = fc.record({
  startTime: time,
  endTime: time,
  breaks: fc.constant([] as { start: string; end: string }[]),
  nonWorkingDays: fc.uniqueArray(fc.integer({ min: 0, max: 6 }), { maxLength: 6 }),
});

describe('the work shift clock', () => {
  it('reads the day shift, its breaks and its non-working Friday in the site time zone', () => {
    expect(shiftStateAt(day, dubai('2025-03-03T05:59:00'), 'Asia/Dubai')).toBe('off');
    expect(shiftStateAt(day, dubai('2025-03-03T06:00:00'), 'Asia/Dubai')).toBe('working');
    expect(shiftStateAt(day, dubai('2025-03-03T10:05:00'), 'Asia/Dubai')).toBe('break');
    expect(shiftStateAt(day, dubai('2025-03-03T10:15:00'), 'Asia/Dubai')).toBe('working');
    expect(shiftStateAt(day, dubai('2025-03-03T13:30:00'), 'Asia/Dubai')).toBe('break');
    expect(shiftStateAt(day, dubai('2025-03-03T17:59:00'), 'Asia/Dubai')).toBe('working');
    expect(shiftStateAt(day, dubai('2025-03-03T18:00:00'), 'Asia/Dubai')).toBe('off');
    expect(shiftStateAt(day, dubai('2025-03-07T09:00:00'), 'Asia/Dubai')).toBe('off');
    // The same instant is 05:00 in Dubai but 02:00 in London: the zone decides.
    expect(shiftStateAt(day, new Date('2025-03-03T02:00:00Z'), 'UTC')).toBe('off');
    expect(shiftStateAt(day, new Date('2025-03-03T08:00:00Z'), 'UTC')).toBe('working');
  });

  it('runs a night shift across midnight, with a break after midnight, from the day it started', () => {
    expect(shiftStateAt(night, dubai('2025-03-03T23:00:00'), 'Asia/Dubai')).toBe('working');
    expect(shiftStateAt(night, dubai('2025-03-04T02:10:00'), 'Asia/Dubai')).toBe('break');
    expect(shiftStateAt(night, dubai('2025-03-04T05:59:00'), 'Asia/Dubai')).toBe('working');
    expect(shiftStateAt(night, dubai('2025-03-04T06:00:00'), 'Asia/Dubai')).toBe('off');
    // Friday night does not start; Saturday 01:00 belongs to it, so it is off as well.
    expect(shiftStateAt(night, dubai('2025-03-07T20:00:00'), 'Asia/Dubai')).toBe('off');
    expect(shiftStateAt(night, dubai('2025-03-08T01:00:00'), 'Asia/Dubai')).toBe('off');
    // Thursday night runs into Friday morning.
    expect(shiftStateAt(night, dubai('2025-03-07T01:00:00'), 'Asia/Dubai')).toBe('working');
  });

  it('treats an end equal to the start as around the clock', () => {
    expect(shiftLength(controlRoom)).toBe(1440);
    for (const hour of ['00:00', '03:30', '12:00', '23:59'])
      expect(shiftStateAt(controlRoom, dubai(`2025-03-07T${hour}:00`), 'Asia/Dubai')).toBe('working');
  });

  it('reads the local date, weekday and minutes of a zone', () => {
    expect(localTime(new Date('2025-03-02T21:30:00Z'), 'Asia/Dubai')).toEqual({
      date: '2025-03-03',
      weekday: 1,
      minutes: 90,
    });
    expect(minutesOf('24:00')).toBeNull();
    expect(minutesOf('7:00')).toBeNull();
    expect(() => shiftStateAt({ ...day, startTime: 'soon' }, new Date(), 'UTC')).toThrow(RangeError);
  });

  it('is on duty, over a week, exactly its length times its working days', () => {
    fc.assert(
      fc.property(shiftArb, (shift) => {
        let onDuty = 0;
        for (let minute = 0; minute < 7 * 1440; minute++) {
          const state = shiftStateAtLocal(shift, {
            weekday: Math.floor(minute / 1440),
            minutes: minute % 1440,
          });
          if (state !== 'off') onDuty++;
        }
        expect(onDuty).toBe(shiftLength(shift) * (7 - shift.nonWorkingDays.length));
      }),
      { numRuns: 60 },
    );
  });

  it('only breaks while the same shift without breaks would be working', () => {
    const withBreak = shiftArb.chain((shift) =>
      fc.record({
        shift: fc.constant(shift),
        offset: fc.integer({ min: 0, max: shiftLength(shift) - 1 }),
        length: fc.integer({ min: 1, max: 90 }),
        weekday: fc.integer({ min: 0, max: 6 }),
        minutes: fc.integer({ min: 0, max: 1439 }),
      }),
    );
    fc.assert(
      fc.property(withBreak, ({ shift, offset, length, weekday, minutes }) => {
        const start = minutesOf(shift.startTime)!;
        const end = Math.min(offset + length, shiftLength(shift));
        const breaks = [{ start: hhmm((start + offset) % 1440), end: hhmm((start + end) % 1440) }];
        const state = shiftStateAtLocal({ ...shift, breaks }, { weekday, minutes });
        const plain = shiftStateAtLocal(shift, { weekday, minutes });
        if (state === 'break') expect(plain).toBe('working');
        else expect(state).toBe(plain);
      }),
    );
  });
});
