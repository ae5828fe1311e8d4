import type { TFunction } from 'i18next';
import { formatCount } from '../../domain/numberFormat';

/**
 * How the node screens (Nodes Management, the Maintenance Kit) write their figures (spec §9):
 * Latin digits and comma-grouped thousands in English and Arabic alike, as every count of the
 * console; dates in the console's language.
 */

const TWO_DECIMALS = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const WHOLE = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

/** "3.62" (volts and metres are read to the hundredth). */
export function formatTwoDecimals(value: number): string {
  return TWO_DECIMALS.format(value);
}

/** "87" (percent and link quality are read as whole numbers). */
export function formatWhole(value: number): string {
  return WHOLE.format(value);
}

export { formatCount };

/**
 * Spec §9: a duration with h, m and s, to its two largest units ("3d 04h", "1h 04m", "4m 09s",
 * "9s"): how long a node has been silent.
 */
export function formatSilence(seconds: number, t: TFunction): string {
  const whole = Math.max(0, Math.round(seconds));
  const pad = (n: number) => String(n).padStart(2, '0');
  const d = Math.floor(whole / 86_400);
  const h = Math.floor((whole % 86_400) / 3600);
  const m = Math.floor((whole % 3600) / 60);
  const s = whole % 60;
  if (d > 0) return t('nodes.duration.dh', { d: formatCount(d), h: pad(h) });
  if (h > 0) return t('nodes.duration.hm', { h, m: pad(m) });
  if (m > 0) return t('nodes.duration.ms', { m, s: pad(s) });
  return t('nodes.duration.s', { s });
}

/** Latin digits in Arabic too, so dates read like the figures beside them. */
function dateLocale(language: string): string {
  return language === 'ar' ? 'ar-u-nu-latn' : 'en-GB';
}

const relativeFormats = new Map<string, Intl.RelativeTimeFormat>();
function relativeFormat(language: string): Intl.RelativeTimeFormat {
  let format = relativeFormats.get(language);
  if (!format) {
    format = new Intl.RelativeTimeFormat(dateLocale(language), { numeric: 'auto' });
    relativeFormats.set(language, format);
  }
  return format;
}

/**
 * The steps of a relative time: under 45 s in seconds, under 45 min in minutes, under 22 h in
 * hours, under 26 days in days, then months and years (the usual cut-offs). Spec §9's seconds
 * threshold of 0: a report 12 s old reads "12 seconds ago", never "a few seconds ago".
 */
const RELATIVE_STEPS: readonly { unit: Intl.RelativeTimeFormatUnit; seconds: number; below: number }[] = [
  { unit: 'second', seconds: 1, below: 45 },
  { unit: 'minute', seconds: 60, below: 45 * 60 },
  { unit: 'hour', seconds: 3600, below: 22 * 3600 },
  { unit: 'day', seconds: 86_400, below: 26 * 86_400 },
  { unit: 'month', seconds: 30 * 86_400, below: 320 * 86_400 },
  { unit: 'year', seconds: 365 * 86_400, below: Number.POSITIVE_INFINITY },
];

/** "12 seconds ago", "3 minutes ago", "in 2 days" (a time ahead of the browser's clock reads "in"). */
export function formatRelative(atMs: number, nowMs: number, language: string): string {
  const seconds = Math.round((atMs - nowMs) / 1000);
  const size = Math.abs(seconds);
  const step = RELATIVE_STEPS.find((candidate) => size < candidate.below) as (typeof RELATIVE_STEPS)[number];
  return relativeFormat(language).format(Math.round(seconds / step.seconds), step.unit);
}

const fullDates = new Map<string, Intl.DateTimeFormat>();
/** "27 Nov 2026, 14:05:09" in the site's time zone: the tooltip of a relative time. */
export function formatFullDate(atMs: number, timeZone: string | undefined, language: string): string {
  const key = `${language}|${timeZone ?? ''}`;
  let format = fullDates.get(key);
  if (!format) {
    format = safeDateFormat(dateLocale(language), {
      timeZone,
      year: 'numeric',
      month: 'short',
      day: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    });
    fullDates.set(key, format);
  }
  return format.format(atMs);
}

/** "2 December" in the site's time zone: when a battery is expected to reach its cut-off. */
export function formatDayMonth(atMs: number, timeZone: string | undefined, language: string): string {
  return safeDateFormat(dateLocale(language), { timeZone, day: 'numeric', month: 'long' }).format(atMs);
}

/** "14:00" or "27 Nov, 14:00" on the history chart's time axis, by the range's length. */
export function formatAxisTime(
  atMs: number,
  rangeHours: number,
  timeZone: string | undefined,
  language: string,
): string {
  const options: Intl.DateTimeFormatOptions =
    rangeHours <= 24
      ? { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }
      : { timeZone, day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' };
  return safeDateFormat(dateLocale(language), options).format(atMs);
}

/** A site with a time zone the browser does not know still gets dates, in the browser's zone. */
function safeDateFormat(locale: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  try {
    return new Intl.DateTimeFormat(locale, options);
  } catch {
    return new Intl.DateTimeFormat(locale, { ...options, timeZone: undefined });
  }
}
