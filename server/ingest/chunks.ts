/** The items in consecutive slices of at most `size`, so one statement never outgrows its limits. */
export function* chunks<T>(items: readonly T[], size: number): Generator<T[]> {
  for (let start = 0; start < items.length; start += size) yield items.slice(start, start + size);
}
