const COMMA_GROUPED = new Intl.NumberFormat('en-US');

/**
 * A count as the whole console shows it (spec §9): thousands grouped with commas and Latin
 * digits, in English and in Arabic alike, so a figure reads the same beside the Latin-digit dates
 * and times (docs/decisions.md).
 */
export function formatCount(value: number): string {
  return COMMA_GROUPED.format(value);
}

const TWO_DECIMALS = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** Hours as spec §9 shows them: two decimals, thousands commas, Latin digits; N/A when empty. */
export function formatHoursOrNA(hours: number | null | undefined): string {
  return hours === null || hours === undefined || !Number.isFinite(hours)
    ? 'N/A'
    : TWO_DECIMALS.format(hours);
}
