const TWO_DECIMALS_AT_MOST = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });

/** A quantity or rate with thousands commas and up to two decimals (Latin digits, as every figure); "N/A" when empty. */
export function formatQuantity(value: number | null | undefined): string {
  return value === null || value === undefined || !Number.isFinite(value)
    ? 'N/A'
    : TWO_DECIMALS_AT_MOST.format(value);
}
