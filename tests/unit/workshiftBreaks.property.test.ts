import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BREAK_MESSAGES, breakProblems } from '../../src/domain/workshiftBreaks';
import { shiftStateAtLocal } from '../../src/domain/workshiftClock';

const DAY = 24 * 60;
const hhmm = (minutes: number) => {
  const m = ((minutes % DAY) + DAY) % DAY;
  return `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
};

/** A shift (start, length 1..1440) with valid breaks: sorted, disjoint, inside the shift. */
const validShift = fc
  .record({
    start: fc.integer({ min: 0, max: DAY - 1 }),
    length: fc.integer({ min: 2, max: DAY }),
    cuts: fc.uniqueArray(fc.integer({ min: 0, max: DAY }), { maxLength: 8 }),
  })
  .map(({ start, length, cuts }) => {
    const points = [...new Set(cuts.map((cut) => cut % (length + 1)))].sort((a, b) => a - b);
    const breaks: { from: number; to: number }[] = [];
    for (let i = 0; i + 1 < points.length; i += 2) {
      const from = points[i] as number;
      const to = points[i + 1] as number;
      breaks.push({ from, to });
    }
    return { start, length, breaks };
  });

const toShift = (s: { start: number; length: number; breaks: { from: number; to: number }[] }) => ({
  start: hhmm(s.start),
  end: hhmm(s.start + s.length),
  breaks: s.breaks.map((b) => ({ start: hhmm(s.start + b.from), end: hhmm(s.start + b.to) })),
});

describe('breakProblems', () => {
  it('accepts sorted, disjoint breaks inside the shift, midnight crossing included', () => {
    fc.assert(
      fc.property(validShift, (s) => {
        expect(breakProblems(toShift(s))).toEqual([]);
      }),
      { numRuns: 500 },
    );
  });

  it('agrees with the simulator clock: a valid break minute is a break, every other shift minute is work', () => {
    fc.assert(
      fc.property(validShift, fc.integer({ min: 0, max: DAY - 1 }), (s, offset) => {
        fc.pre(offset < s.length);
        const shift = toShift(s);
        const state = shiftStateAtLocal(
          { startTime: shift.start, endTime: shift.end, breaks: shift.breaks, nonWorkingDays: [] },
          { weekday: 3, minutes: (s.start + offset) % DAY },
        );
        const inBreak = s.breaks.some((b) => offset >= b.from && offset < b.to);
        expect(state).toBe(inBreak ? 'break' : 'working');
      }),
      { numRuns: 500 },
    );
  });

  it('reports two breaks listed in reverse order as not sequential, never as conflicting', () => {
    fc.assert(
      fc.property(validShift, (s) => {
        fc.pre(s.breaks.length >= 2);
        const reversed = { ...s, breaks: [...s.breaks].reverse() };
        const problems = breakProblems(toShift(reversed));
        expect(problems).toEqual([BREAK_MESSAGES.sequential]);
      }),
      { numRuns: 300 },
    );
  });

  it('reports overlapping breaks as conflicting', () => {
    fc.assert(
      fc.property(validShift, (s) => {
        const first = s.breaks[0];
        fc.pre(first !== undefined && first.to - first.from >= 2);
        if (!first) return;
        const inner = { from: first.from + 1, to: first.to };
        const shift = toShift({ ...s, breaks: [first, inner, ...s.breaks.slice(1)] });
        expect(breakProblems(shift)).toContain(BREAK_MESSAGES.conflicting);
        expect(breakProblems(shift)).not.toContain(BREAK_MESSAGES.outside);
      }),
      { numRuns: 300 },
    );
  });

  it('reports a break starting or ending outside a shift shorter than a day', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: DAY - 1 }),
        fc.integer({ min: 2, max: DAY - 2 }),
        fc.integer({ min: 1, max: DAY - 1 }),
        (start, length, outside) => {
          fc.pre(outside > length);
          // A one-minute break starting after the shift ended (before it starts again).
          fc.pre(outside + 1 < DAY);
          const shift = toShift({ start, length, breaks: [{ from: outside, to: outside + 1 }] });
          expect(breakProblems(shift)).toEqual([BREAK_MESSAGES.outside]);
          // A break beginning inside but running past the end.
          const past = toShift({
            start,
            length,
            breaks: [{ from: length - 1, to: Math.min(outside, DAY - 1) }],
          });
          expect(breakProblems(past)).toContain(BREAK_MESSAGES.outside);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('reports breaks lasting longer than the shift', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: DAY - 1 }), fc.integer({ min: 1, max: 600 }), (start, length) => {
        // Two breaks each covering the whole shift: together twice its length.
        const whole = { from: 0, to: length };
        expect(breakProblems(toShift({ start, length, breaks: [whole, whole] }))).toContain(
          BREAK_MESSAGES.duration,
        );
      }),
      { numRuns: 200 },
    );
  });

  it('gives each message at most once, in spec order', () => {
    const order = Object.values(BREAK_MESSAGES) as string[];
    const time = fc.integer({ min: 0, max: DAY - 1 }).map(hhmm);
    fc.assert(
      fc.property(
        time,
        time,
        fc.array(fc.record({ start: time, end: time }), { maxLength: 6 }),
        (start, end, breaks) => {
          const problems = breakProblems({ start, end, breaks });
          expect(new Set(problems).size).toBe(problems.length);
          const indexes = problems.map((p) => order.indexOf(p));
          expect(indexes.every((i) => i >= 0)).toBe(true);
          expect([...indexes].sort((a, b) => a - b)).toEqual(indexes);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('handles the fixed examples of the spec messages', () => {
    expect(
      breakProblems({ start: '22:00', end: '06:00', breaks: [{ start: '01:00', end: '01:30' }] }),
    ).toEqual([]);
    expect(
      breakProblems({ start: '22:00', end: '06:00', breaks: [{ start: '07:00', end: '07:30' }] }),
    ).toEqual([BREAK_MESSAGES.outside]);
    expect(
      breakProblems({
        start: '08:00',
        end: '17:00',
        breaks: [
          { start: '12:00', end: '13:00' },
          { start: '10:00', end: '10:15' },
        ],
      }),
    ).toEqual([BREAK_MESSAGES.sequential]);
    expect(
      breakProblems({
        start: '08:00',
        end: '17:00',
        breaks: [
          { start: '12:00', end: '13:00' },
          { start: '12:30', end: '13:30' },
        ],
      }),
    ).toEqual([BREAK_MESSAGES.conflicting]);
    expect(
      breakProblems({ start: '08:00', end: '10:00', breaks: [{ start: '09:00', end: '08:30' }] }),
    ).toEqual([BREAK_MESSAGES.duration, BREAK_MESSAGES.sequential]);
    expect(
      breakProblems({ start: '06:00', end: '06:00', breaks: [{ start: '05:00', end: '06:00' }] }),
    ).toEqual([]);
  });
});
