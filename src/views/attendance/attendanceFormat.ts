import { formatAssignmentDate } from '../../domain/currentAssignment';
import { clockTime } from '../../domain/siteClock';

/** An instant's clock time (HH:MM) on the site's wall clock, or the placeholder. */
export function siteClock(iso: string | null, timeZone: string, placeholder = '—'): string {
  return iso === null ? placeholder : clockTime(Date.parse(iso), timeZone).slice(0, 5);
}

/** A site day YYYY-MM-DD as DD/MM/YYYY (spec §9). */
export const dayText = formatAssignmentDate;
