import dayjs from 'dayjs';
import type { TFunction } from 'i18next';
import { formatCount } from '../../domain/numberFormat';

/** A moment in the site's own time zone, date and clock time (HH:MM:SS), in the console's language. */
export function formatDateTime(iso: string | null, timeZone: string, language: string): string | null {
  if (!iso) return null;
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return null;
  // Latin digits in Arabic too, so times read like the counts beside them.
  const locale = language === 'ar' ? 'ar-u-nu-latn' : 'en-GB';
  return new Intl.DateTimeFormat(locale, {
    timeZone,
    year: 'numeric',
    month: 'short',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  }).format(at);
}

/** Spec §9: durations with h, m and s ("1h 04m 09s", "4m 09s", "9s"). */
export function formatDuration(seconds: number | null, t: TFunction): string | null {
  if (seconds === null || !Number.isFinite(seconds)) return null;
  const whole = Math.max(0, Math.round(seconds));
  const h = Math.floor(whole / 3600);
  const m = Math.floor((whole % 3600) / 60);
  const s = whole % 60;
  const pad = (n: number) => String(n).padStart(2, '0');
  if (h > 0) return t('safety.duration.hms', { h: formatCount(h), m: pad(m), s: pad(s) });
  if (m > 0) return t('safety.duration.ms', { m, s: pad(s) });
  return t('safety.duration.s', { s });
}

/** Spec §9: the default date range is the current week, as YYYY-MM-DD. */
export function currentWeek(now: Date = new Date()): { from: string; to: string } {
  const today = dayjs(now);
  return {
    from: today.startOf('week').format('YYYY-MM-DD'),
    to: today.endOf('week').format('YYYY-MM-DD'),
  };
}
