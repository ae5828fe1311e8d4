import { formatCount } from '../../domain/numberFormat';

const HOURS = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/**
 * Spec §9: hours with two decimals, thousands grouped with commas and Latin digits, as counts are
 * (formatCount), in English and Arabic alike.
 */
export function formatHours(hours: number): string {
  return HOURS.format(Number.isFinite(hours) ? hours : 0);
}

/** Worker-seconds as worker-hours with two decimals. */
export function formatWorkerSeconds(seconds: number): string {
  return formatHours(seconds / 3600);
}

export { formatCount };

/** An hour's label in the site's time zone: "Mon 14:00" (Latin digits in Arabic too). */
export function formatHourLabel(ms: number, timeZone: string, language: string): string {
  const locale = language === 'ar' ? 'ar-u-nu-latn' : 'en-GB';
  try {
    return new Intl.DateTimeFormat(locale, {
      timeZone,
      weekday: 'short',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    }).format(ms);
  } catch {
    return new Date(ms).toISOString().slice(11, 16);
  }
}
