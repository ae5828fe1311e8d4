/**
 * The earliest instant the database takes: 0001-01-01T00:00:00Z. JavaScript parses year 0000
 * (and earlier, with an offset) but writes it back as "0000-…", which PostgreSQL refuses (22008),
 * so an earlier instant is bad input, never a query.
 */
export const EARLIEST_STORABLE_MS = -62_135_596_800_000;

/** Whether an instant can be stored and compared in a timestamptz column. */
export function isStorableInstant(at: Date | number): boolean {
  const ms = typeof at === 'number' ? at : at.getTime();
  return Number.isFinite(ms) && ms >= EARLIEST_STORABLE_MS;
}
