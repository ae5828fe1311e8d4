/**
 * Current crew and current work shift of a worker (spec §3): the latest assignment whose
 * assigned_at date is today or earlier. Dates are YYYY-MM-DD (longer ISO texts are read by their
 * date part); "today" is the site's date, in its own time zone.
 */

const dateOf = (value: string) => value.slice(0, 10);

/**
 * The assignment in force on `today`, or null when every assignment is in the future or there is
 * none. Among assignments on the same date the one listed last wins.
 */
export function currentAssignment<T extends { assigned_at: string }>(
  assignments: readonly T[],
  today: string,
): T | null {
  let current: T | null = null;
  for (const assignment of assignments) {
    const date = dateOf(assignment.assigned_at);
    if (date > today) continue;
    if (current === null || date >= dateOf(current.assigned_at)) current = assignment;
  }
  return current;
}

/** YYYY-MM-DD (or an ISO timestamp) as DD/MM/YYYY, the crew assignment date format. */
export function formatAssignmentDate(date: string): string {
  const [year, month, day] = dateOf(date).split('-');
  return `${day}/${month}/${year}`;
}
