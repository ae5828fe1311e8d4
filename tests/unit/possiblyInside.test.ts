import { describe, expect, it } from 'vitest';
import { possiblyInsideSince } from '../../src/domain/possiblyInside';

const day = { breaks: [], nonWorkingDays: [] };
const DAY_SHIFT = { ...day, startTime: '07:00', endTime: '17:00' };
const NIGHT_SHIFT = { ...day, startTime: '19:00', endTime: '05:00' };
// 2026-11-26 10:30:15 in Dubai (UTC+4).
const ALARM = new Date('2026-11-26T06:30:15.000Z');

describe('how long a silent helmet still counts as possibly inside', () => {
  it('is since the start of the shift running at the alarm', () => {
    expect(
      possiblyInsideSince(ALARM, { possiblyInsideHours: null }, [DAY_SHIFT, NIGHT_SHIFT], 'Asia/Dubai'),
    ).toEqual(new Date('2026-11-26T03:00:00.000Z'));
  });

  it('takes the earliest start when shifts overlap, never more than 12 h back', () => {
    const longShift = { ...day, startTime: '20:00', endTime: '12:00' };
    expect(
      possiblyInsideSince(ALARM, { possiblyInsideHours: null }, [DAY_SHIFT, longShift], 'Asia/Dubai'),
    ).toEqual(new Date('2026-11-25T18:30:15.000Z'));
  });

  it('is 12 h when no shift runs, and the site setting when it has one (at most 12 h)', () => {
    expect(possiblyInsideSince(ALARM, { possiblyInsideHours: null }, [NIGHT_SHIFT], 'Asia/Dubai')).toEqual(
      new Date('2026-11-25T18:30:15.000Z'),
    );
    expect(possiblyInsideSince(ALARM, { possiblyInsideHours: 2 }, [DAY_SHIFT], 'Asia/Dubai')).toEqual(
      new Date('2026-11-26T04:30:15.000Z'),
    );
    expect(possiblyInsideSince(ALARM, { possiblyInsideHours: 48 }, [DAY_SHIFT], 'Asia/Dubai')).toEqual(
      new Date('2026-11-25T18:30:15.000Z'),
    );
  });
});
