import dayjs from 'dayjs';
import 'dayjs/locale/ar';
import relativeTime from 'dayjs/plugin/relativeTime';

dayjs.extend(relativeTime);

/** "2 minutes ago" in the console's language; null when the time is missing or unreadable. */
export function relativeTimeFrom(iso: string | null, locale: string, now: Date = new Date()): string | null {
  if (!iso) return null;
  const at = dayjs(iso);
  if (!at.isValid()) return null;
  return at.locale(locale === 'ar' ? 'ar' : 'en').from(now);
}
