import { describe, expect, it } from 'vitest';
import { messages } from '../../src/domain/messages';
import { nameProblem } from '../../src/domain/nameRule';
import { formatCount } from '../../src/domain/numberFormat';
import { BREAK_MESSAGES } from '../../src/domain/workshiftBreaks';
import { isDirty } from '../../src/views/forms/isDirty';
import {
  crewSummaries,
  hasProblems,
  matchesSearch,
  type WorkshiftForm,
  weekdayNames,
  workshiftBody,
  workshiftForm,
  workshiftProblems,
} from '../../src/views/workforce/workforceForm';

const shift = (patch: Partial<WorkshiftForm> = {}): WorkshiftForm => ({
  name: 'Day',
  category: 'Site',
  nonWorkingDays: [5],
  start: '08:00',
  end: '17:00',
  breaks: [{ start: '12:00', end: '13:00' }],
  ...patch,
});

describe('workforce form helpers', () => {
  it('words name problems as spec §5 does', () => {
    expect(nameProblem('Name', '   ')).toBe(messages.required('Name'));
    expect(nameProblem('Name', 'x'.repeat(101))).toBe(messages.maxChars('Name', 100));
    expect(nameProblem('Name', ' Rigger ')).toBeNull();
  });

  it('accepts a valid shift and a night shift with a break after midnight', () => {
    expect(hasProblems(workshiftProblems(shift()))).toBe(false);
    const night = shift({ start: '22:00', end: '06:00', breaks: [{ start: '01:00', end: '01:30' }] });
    expect(hasProblems(workshiftProblems(night))).toBe(false);
  });

  it('reports required fields and the break rules of the domain', () => {
    const empty = workshiftProblems(shift({ name: '', start: '', breaks: [{ start: '', end: '' }] }));
    expect(empty.fields.name).toBe(messages.required('Name'));
    expect(empty.fields.start).toBe(messages.required('Start time'));
    expect(empty.fields['breaks.0.start']).toBe(messages.required('Break start time'));

    const outside = workshiftProblems(shift({ breaks: [{ start: '18:00', end: '18:30' }] }));
    expect(outside.breaks).toEqual([BREAK_MESSAGES.outside]);
    const overlap = workshiftProblems(
      shift({
        breaks: [
          { start: '10:00', end: '11:00' },
          { start: '10:30', end: '11:30' },
        ],
      }),
    );
    expect(overlap.breaks).toContain(BREAK_MESSAGES.conflicting);
    const backwards = workshiftProblems(shift({ breaks: [{ start: '13:00', end: '12:30' }] }));
    expect(backwards.breaks).toContain(BREAK_MESSAGES.sequential);
  });

  it('round-trips a work shift into a trimmed body with sorted unique days', () => {
    const form = workshiftForm({
      id: 1,
      name: ' Night ',
      category: '',
      non_working_days: [6, 0],
      start: '22:00',
      end: '06:00',
      breaks: [],
    });
    expect(form.nonWorkingDays).toEqual([0, 6]);
    expect(workshiftBody({ ...form, nonWorkingDays: [6, 0, 6] })).toEqual({
      name: 'Night',
      category: '',
      non_working_days: [0, 6],
      start: '22:00',
      end: '06:00',
      breaks: [],
    });
  });

  it('knows a dirty form, searches names and formats counts', () => {
    expect(isDirty(shift(), shift())).toBe(false);
    expect(isDirty(shift(), shift({ nonWorkingDays: [] }))).toBe(true);
    expect(matchesSearch('Steel Fixers', ' fix')).toBe(true);
    expect(matchesSearch('Steel Fixers', 'crane')).toBe(false);
    // One behaviour in both languages: commas and Latin digits (docs/decisions.md).
    expect(formatCount(12345)).toBe('12,345');
    expect(formatCount(1234567)).toBe('1,234,567');
    expect(weekdayNames('en')[0]).toBe('Sun');
    expect(weekdayNames('ar')).toHaveLength(7);
  });
});

describe('crew summaries', () => {
  it('groups current members by crew, newest assignment first, and skips workers without a crew', () => {
    const row = (worker_id: number, crew_id: number | null, crew_assigned_at: string | null) => ({
      worker_id,
      worker_name: `W${worker_id}`,
      crew_id,
      crew_assigned_at,
      workshift_name: null,
    });
    const crews = crewSummaries([
      row(1, 7, '2026-01-02'),
      row(2, 7, '2026-03-04'),
      row(3, null, null),
      row(4, 8, '2025-12-31'),
    ]);
    expect([...crews.keys()].sort()).toEqual([7, 8]);
    expect(crews.get(7)?.members.map((m) => m.workerId)).toEqual([2, 1]);
    expect(crews.get(7)?.lastAssignedAt).toBe('2026-03-04');
    expect(crews.get(8)?.members).toHaveLength(1);
  });
});
