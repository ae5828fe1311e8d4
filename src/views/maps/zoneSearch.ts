import type { Zone } from '../../domain/floor';

/** Zones whose name contains the query, ignoring case (spec §3); a blank query keeps them all. */
export function filterZones<T extends Pick<Zone, 'name'>>(zones: readonly T[], query: string): T[] {
  const needle = query.trim().toLocaleLowerCase();
  if (needle === '') return [...zones];
  return zones.filter((zone) => zone.name.toLocaleLowerCase().includes(needle));
}
