import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { calendarDateIn, isCalendarDate } from '../../src/domain/calendarDate';
import { messages } from '../../src/domain/messages';
import { assignmentHistory, assignProblems, shiftMembers, toggleId } from '../../src/views/shared/assignForm';

const both = { workers: true, target: true };

describe('assignment form helpers', () => {
  it("defaults to the site's date, not the browser's", () => {
    // 22:30 UTC on 1 March is already 2 March in Dubai and still 1 March in New York.
    const instant = new Date('2026-03-01T22:30:00Z');
    expect(calendarDateIn('Asia/Dubai', instant)).toBe('2026-03-02');
    expect(calendarDateIn('America/New_York', instant)).toBe('2026-03-01');
    expect(calendarDateIn('UTC', instant)).toBe('2026-03-01');
    expect(calendarDateIn('Not/AZone', instant)).toBe('2026-03-01');
  });

  it('accepts only real calendar dates written YYYY-MM-DD', () => {
    expect(isCalendarDate('2026-02-28')).toBe(true);
    expect(isCalendarDate('2024-02-29')).toBe(true);
    expect(isCalendarDate('2026-02-29')).toBe(false);
    expect(isCalendarDate('2026-13-01')).toBe(false);
    expect(isCalendarDate('01/02/2026')).toBe(false);
    expect(isCalendarDate('')).toBe(false);
  });

  it('words the problems as spec §5 does, only for what the dialog lets the user pick', () => {
    const empty = { workerIds: [], targetId: null, assignedAt: '' };
    expect(assignProblems(empty, 'crews', both)).toEqual({
      workerIds: messages.required('Workers'),
      targetId: messages.required('Crew'),
      assignedAt: messages.required('Assigned at'),
    });
    expect(assignProblems(empty, 'workshifts', { workers: false, target: true }).targetId).toBe(
      messages.required('Work shift'),
    );
    expect(assignProblems(empty, 'crews', { workers: false, target: false })).toEqual({
      assignedAt: messages.required('Assigned at'),
    });
    expect(
      assignProblems({ workerIds: [3], targetId: 1, assignedAt: '2026-02-30' }, 'crews', both).assignedAt,
    ).toBe('Assigned at is invalid');
    expect(assignProblems({ workerIds: [3], targetId: 1, assignedAt: '2026-02-03' }, 'crews', both)).toEqual(
      {},
    );
  });

  it('adds a picked id once and removes it on the second pick', () => {
    expect(toggleId([1, 2], 3)).toEqual([1, 2, 3]);
    expect(toggleId([1, 2, 3], 2)).toEqual([1, 3]);
  });
});

describe('assignmentHistory', () => {
  const history = [
    { name: 'Rebar', assigned_at: '2026-01-05' },
    { name: 'Formwork A', assigned_at: '2026-02-10' },
    { name: 'Finishes', assigned_at: '2026-04-01' },
  ];

  it('lists newest first and marks the current and the upcoming ones', () => {
    const rows = assignmentHistory(history, '2026-03-01');
    expect(rows.map((row) => row.assignment.name)).toEqual(['Finishes', 'Formwork A', 'Rebar']);
    expect(rows.map((row) => [row.current, row.upcoming])).toEqual([
      [false, true],
      [true, false],
      [false, false],
    ]);
    expect(rows.map((row) => row.position)).toEqual([2, 1, 0]);
  });

  it('has no current one before the first assignment starts', () => {
    expect(assignmentHistory(history, '2025-12-31').some((row) => row.current)).toBe(false);
  });

  it('marks exactly the assignment the domain rule picks, whatever the history', () => {
    const date = fc
      .integer({ min: 0, max: 60 })
      .map((day) => new Date(Date.UTC(2026, 0, 1 + day)).toISOString().slice(0, 10));
    fc.assert(
      fc.property(
        fc.array(fc.record({ name: fc.string(), assigned_at: date }), { maxLength: 10 }),
        date,
        (list, today) => {
          const rows = assignmentHistory(list, today);
          expect(rows).toHaveLength(list.length);
          const current = rows.filter((row) => row.current);
          const eligible = list.filter((entry) => entry.assigned_at <= today);
          expect(current).toHaveLength(eligible.length > 0 ? 1 : 0);
          for (let i = 1; i < rows.length; i++)
            expect(rows[i - 1].assignment.assigned_at >= rows[i].assignment.assigned_at).toBe(true);
          if (current[0]) {
            // The last listed among the latest eligible dates (spec §3 rule as the domain applies it).
            const latest = eligible.reduce((a, b) => (b.assigned_at >= a.assigned_at ? b : a));
            expect(current[0].assignment).toBe(latest);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('shiftMembers', () => {
  it("keeps this shift's workers, newest assignment first, then by name", () => {
    const row = (id: number, name: string, shift: number | null, at: string | null) => ({
      worker_id: id,
      worker_name: name,
      workshift_id: shift,
      workshift_assigned_at: at,
      crew_name: 'Rebar',
    });
    const members = shiftMembers(
      [
        row(1, 'Omar', 7, '2026-01-02'),
        row(2, 'Ali', 7, '2026-01-02'),
        row(3, 'Sami', 8, '2026-03-01'),
        row(4, 'Hadi', 7, '2026-02-01T00:00:00Z'),
        row(5, 'Nour', null, null),
      ],
      7,
    );
    expect(members.map((member) => [member.name, member.assignedAt])).toEqual([
      ['Hadi', '2026-02-01'],
      ['Ali', '2026-01-02'],
      ['Omar', '2026-01-02'],
    ]);
  });
});
