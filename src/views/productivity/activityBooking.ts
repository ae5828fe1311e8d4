import type { Activity, ActivityChange } from '../../domain/schemas/productivity';

export type BookingField = 'installed_quantity' | 'booked_hours' | 'actual_hours';
export const BOOKING_FIELDS: readonly BookingField[] = ['installed_quantity', 'booked_hours', 'actual_hours'];

/** What the user typed into a row's booking inputs and has not saved yet, by field. */
export type BookingDraft = Partial<Record<BookingField, string>>;

/** The text an input shows for a stored figure: actual hours only when typed (else the presence figure is the placeholder). */
export function storedText(activity: Activity, field: BookingField): string {
  if (field === 'actual_hours' && !activity.actual_hours_typed) return '';
  const value = activity[field];
  return value === null ? '' : String(value);
}

/**
 * The change a row's draft makes, or the fields that are not numbers. An emptied field is sent
 * as null: no installed quantity or booked hours, or actual hours back to the presence figure.
 * Whether a number is in range and has two decimals is the server's to say, in its words.
 */
export function changeOfDraft(
  activity: Activity,
  draft: BookingDraft,
): { change: ActivityChange | null; invalid: BookingField[] } {
  const change: ActivityChange = { id: activity.id, version: activity.version };
  const invalid: BookingField[] = [];
  let changed = false;
  for (const field of BOOKING_FIELDS) {
    const text = draft[field];
    if (text === undefined || text.trim() === storedText(activity, field)) continue;
    const trimmed = text.trim().replaceAll(',', '');
    const value = trimmed === '' ? null : Number(trimmed);
    if (value !== null && !Number.isFinite(value)) {
      invalid.push(field);
      continue;
    }
    change[field] = value;
    changed = true;
  }
  return { change: changed && invalid.length === 0 ? change : null, invalid };
}

/** Booked minus actual hours, where both are known. */
export function bookedMinusActual(activity: Activity): number | null {
  if (activity.booked_hours === null || activity.actual_hours === null) return null;
  return Math.round((activity.booked_hours - activity.actual_hours) * 100) / 100;
}
