import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { currentAssignment, formatAssignmentDate } from '../../src/domain/currentAssignment';

const date = fc
  .date({ min: new Date('2020-01-01T00:00:00Z'), max: new Date('2030-12-31T00:00:00Z'), noInvalidDate: true })
  .map((d) => d.toISOString().slice(0, 10));

const assignments = fc.array(fc.record({ id: fc.nat(), assigned_at: date }), { maxLength: 12 });

describe('currentAssignment', () => {
  it('is the latest assignment dated today or earlier', () => {
    fc.assert(
      fc.property(assignments, date, (list, today) => {
        const current = currentAssignment(list, today);
        const eligible = list.filter((a) => a.assigned_at <= today);
        if (eligible.length === 0) {
          expect(current).toBeNull();
          return;
        }
        expect(current).not.toBeNull();
        if (!current) return;
        expect(current.assigned_at <= today).toBe(true);
        expect(eligible.every((a) => a.assigned_at <= current.assigned_at)).toBe(true);
        // Among equal dates the last listed wins.
        const sameDay = eligible.filter((a) => a.assigned_at === current.assigned_at);
        expect(current).toBe(sameDay[sameDay.length - 1]);
      }),
      { numRuns: 500 },
    );
  });

  it('ignores future assignments and does not depend on order of distinct dates', () => {
    fc.assert(
      fc.property(assignments, date, (list, today) => {
        const unique = [...new Map(list.map((a) => [a.assigned_at, a])).values()];
        const reversed = [...unique].reverse();
        expect(currentAssignment(unique, today)).toBe(currentAssignment(reversed, today));
        const future = unique.filter((a) => a.assigned_at > today);
        const past = unique.filter((a) => a.assigned_at <= today);
        expect(currentAssignment([...past, ...future], today)).toBe(currentAssignment(past, today));
      }),
      { numRuns: 500 },
    );
  });

  it('reads ISO timestamps by their date part', () => {
    expect(currentAssignment([{ assigned_at: '2026-11-22T23:00:00.000Z' }], '2026-11-22')).not.toBeNull();
    expect(currentAssignment([{ assigned_at: '2026-11-23' }], '2026-11-22')).toBeNull();
  });
});

describe('formatAssignmentDate', () => {
  it('is DD/MM/YYYY and round-trips to the ISO date', () => {
    fc.assert(
      fc.property(date, (d) => {
        const shown = formatAssignmentDate(d);
        expect(shown).toMatch(/^\d{2}\/\d{2}\/\d{4}$/);
        const [day, month, year] = shown.split('/');
        expect(`${year}-${month}-${day}`).toBe(d);
      }),
    );
    expect(formatAssignmentDate('2026-03-07')).toBe('07/03/2026');
  });
});
