/** PostgreSQL's unique_violation, as thrown by pg, PGlite or wrapped by Drizzle. */
export function uniqueViolation(error: unknown): boolean {
  for (let e = error; e && typeof e === 'object'; e = (e as { cause?: unknown }).cause) {
    if ((e as { code?: unknown }).code === '23505') return true;
  }
  return false;
}
