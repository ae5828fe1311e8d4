/**
 * IANA time zones a site may be set to: the zones the runtime's ICU lists, plus 'UTC', which
 * `Intl.supportedValuesOf('timeZone')` leaves out as a mere alias.
 */
export const TIMEZONES: readonly string[] = [
  ...new Set([...Intl.supportedValuesOf('timeZone'), 'UTC']),
].sort();

// Lower-cased name → listed spelling, so "asia/dubai" is accepted and stored as "Asia/Dubai".
const byLowerName = new Map(TIMEZONES.map((zone) => [zone.toLowerCase(), zone]));

// A zone name ("Area/Location", "UTC", "Etc/GMT+4"), not an offset like "+04:00" that newer
// engines also accept as a time zone.
const ZONE_NAME = /^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/;

/**
 * The spelling to store for a zone name, or null when it is not an IANA zone.
 *
 * ICU lists CLDR's canonical ids, which lag IANA's: it has "Asia/Calcutta" and "Europe/Kiev"
 * but not "Asia/Kolkata" or "Europe/Kyiv". Names it does not list are accepted, as typed, when
 * the runtime's zone database knows them, so a current IANA name is never refused.
 */
export function canonicalTimezone(value: string): string | null {
  const name = value.trim();
  const listed = byLowerName.get(name.toLowerCase());
  if (listed) return listed;
  if (!ZONE_NAME.test(name)) return null;
  try {
    new Intl.DateTimeFormat('en', { timeZone: name });
    return name;
  } catch {
    return null;
  }
}

export function isValidTimezone(value: unknown): value is string {
  return typeof value === 'string' && canonicalTimezone(value) !== null;
}
