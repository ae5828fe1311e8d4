/**
 * Worker statuses (spec §7 "Worker status"): a site's own list of what can stand in the way of a
 * worker working, given to workers for dated spells. Every site starts with these four.
 */
export const DEFAULT_WORKER_STATUSES = ['On leave', 'Injured', 'Inducted', 'Suspended'] as const;

export interface StatusSpell {
  statusId: number;
  startsOn: string;
  endsOn: string | null;
}

/**
 * The spell in force on a day (YYYY-MM-DD): the latest-starting one that covers it; spells that
 * start on the same day are told apart by their order in the list (later wins).
 */
export function currentStatusSpell<T extends StatusSpell>(spells: readonly T[], day: string): T | null {
  let current: T | null = null;
  for (const spell of spells) {
    if (spell.startsOn > day || (spell.endsOn !== null && spell.endsOn < day)) continue;
    if (current === null || spell.startsOn >= current.startsOn) current = spell;
  }
  return current;
}
