/**
 * eTQR arithmetic (spec §3, issue 21), shared by the server's replies and the console:
 * - earned hours = installed quantity ÷ target rate (quantity per hour), rounded to two decimals
 *   once; unknown (null) without an installed quantity or with a target rate that is not above 0;
 * - with earned and actual hours both known, gain = earned − actual when earned is above actual,
 *   loss = actual − earned when earned is below it; the other one is 0 (both 0 when they are
 *   equal), so gain and loss are never negative and a sum over activities needs no sign rules;
 * - without either, gain and loss are null (shown "N/A", spec §5/§9);
 * - everything after the one rounding of earned hours is exact: figures are counted in hundredths.
 * Hours are shown with formatHoursOrNA of numberFormat.ts.
 */

/** The largest hours an activity column holds (numeric(8, 2)). */
export const HOURS_MAX = 999_999.99;
/** The largest quantity an activity column holds (numeric(12, 2)). */
export const QUANTITY_MAX = 9_999_999_999.99;

const hundredthsOf = (value: number) => Math.round(value * 100);

/** A figure rounded to two decimals (half away from zero for the positive figures used here). */
export function roundHours(value: number): number {
  return hundredthsOf(value) / 100;
}

/** True for a finite number with at most two decimals (what a numeric(…, 2) column stores). */
export function hasAtMostTwoDecimals(value: number): boolean {
  if (!Number.isFinite(value)) return false;
  const scaled = value * 100;
  return Math.abs(scaled - Math.round(scaled)) < 1e-6 * Math.max(1, Math.abs(scaled));
}

/** A typed hours figure the columns accept: 0 to HOURS_MAX with at most two decimals. */
export function isHoursFigure(value: number): boolean {
  return hasAtMostTwoDecimals(value) && value >= 0 && value <= HOURS_MAX;
}

/** A typed quantity the columns accept: 0 to QUANTITY_MAX with at most two decimals. */
export function isQuantityFigure(value: number): boolean {
  return hasAtMostTwoDecimals(value) && value >= 0 && value <= QUANTITY_MAX;
}

/** Hours earned by the installed quantity at the code's target rate; null when not computable. */
export function earnedHours(installedQuantity: number | null, targetRate: number | null): number | null {
  if (installedQuantity === null || targetRate === null) return null;
  if (!Number.isFinite(installedQuantity) || !Number.isFinite(targetRate) || targetRate <= 0) return null;
  const earned = roundHours(installedQuantity / targetRate);
  return Number.isFinite(earned) ? earned : null;
}

export interface Productivity {
  earned: number | null;
  gain: number | null;
  loss: number | null;
}

/** Earned, gain and loss hours of an activity (see the rules at the top of this file). */
export function productivityOf(
  installedQuantity: number | null,
  targetRate: number | null,
  actualHours: number | null,
): Productivity {
  const earned = earnedHours(installedQuantity, targetRate);
  if (earned === null || actualHours === null || !Number.isFinite(actualHours)) {
    return { earned, gain: null, loss: null };
  }
  const difference = hundredthsOf(earned) - hundredthsOf(actualHours);
  return {
    earned,
    gain: difference > 0 ? difference / 100 : 0,
    loss: difference < 0 ? -difference / 100 : 0,
  };
}

/** Presence minutes as hours with two decimals (90 minutes → 1.5). */
export function hoursOfMinutes(minutes: number): number {
  return roundHours(minutes / 60);
}

/** The sum of two-decimal figures without floating-point drift; null entries count as 0. */
export function sumHours(values: Iterable<number | null>): number {
  let hundredths = 0;
  for (const value of values) if (value !== null) hundredths += hundredthsOf(value);
  return hundredths / 100;
}
