/**
 * Which entry of a list is selected: the first candidate that is in the list (an explicit pick,
 * then the remembered one), else the list's first entry, else none. Picks that no longer exist
 * (a site removed, another client's site) fall through instead of selecting a ghost.
 */
export function pickId(
  list: readonly { id: number }[] | undefined,
  ...candidates: (number | null | undefined)[]
): number | null {
  if (!list || list.length === 0) return null;
  for (const candidate of candidates) {
    if (candidate != null && list.some((entry) => entry.id === candidate)) return candidate;
  }
  return list[0].id;
}

export function findById<T extends { id: number }>(
  list: readonly T[] | undefined,
  id: number | null,
): T | null {
  if (id == null || !list) return null;
  return list.find((entry) => entry.id === id) ?? null;
}
