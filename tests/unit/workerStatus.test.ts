import { describe, expect, it } from 'vitest';
import { currentStatusSpell, DEFAULT_WORKER_STATUSES, type StatusSpell } from '../../src/domain/workerStatus';

const spell = (statusId: number, startsOn: string, endsOn: string | null): StatusSpell => ({
  statusId,
  startsOn,
  endsOn,
});

describe('currentStatusSpell', () => {
  const day = '2026-03-10';

  it('is null with no spells, or none covering the day', () => {
    expect(currentStatusSpell([], day)).toBeNull();
    expect(currentStatusSpell([spell(1, '2026-03-01', '2026-03-09')], day)).toBeNull();
    expect(currentStatusSpell([spell(1, '2026-03-11', null)], day)).toBeNull();
  });

  it('counts both ends of a spell as covered', () => {
    expect(currentStatusSpell([spell(1, day, day)], day)?.statusId).toBe(1);
    expect(currentStatusSpell([spell(2, '2026-03-01', day)], day)?.statusId).toBe(2);
  });

  it('keeps an open-ended spell in force', () => {
    expect(currentStatusSpell([spell(3, '2026-03-03', null)], day)?.statusId).toBe(3);
  });

  it('gives the latest-starting of overlapping spells, in any order', () => {
    const older = spell(1, '2026-02-01', null);
    const later = spell(2, '2026-03-07', '2026-03-20');
    const ended = spell(3, '2026-03-08', '2026-03-09');
    expect(currentStatusSpell([older, later, ended], day)).toBe(later);
    expect(currentStatusSpell([ended, later, older], day)).toBe(later);
  });

  it('breaks a tie on the start day by the order of the list: the later one wins', () => {
    const first = spell(1, '2026-03-05', null);
    const second = spell(2, '2026-03-05', null);
    expect(currentStatusSpell([first, second], day)).toBe(second);
    expect(currentStatusSpell([second, first], day)).toBe(first);
  });
});

describe('DEFAULT_WORKER_STATUSES', () => {
  it('are four distinct names', () => {
    expect(new Set(DEFAULT_WORKER_STATUSES.map((name) => name.toLowerCase())).size).toBe(4);
  });
});
