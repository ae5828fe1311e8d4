/** True when the form differs from what it opened with (the cancel confirmation's test). */
export function isDirty<T>(initial: T, current: T): boolean {
  return JSON.stringify(initial) !== JSON.stringify(current);
}
