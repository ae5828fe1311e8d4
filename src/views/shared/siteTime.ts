import dayjs from 'dayjs';
import 'dayjs/locale/ar';
import { wallTime } from '../../domain/siteClock';

/** An instant on the site's wall clock in the console's language, e.g. "27 Nov 2026, 09:15". */
export function siteTimeText(iso: string, timeZone: string, language: string): string {
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) return iso;
  const { date, time } = wallTime(ms, timeZone);
  return dayjs(`${date}T${time}`)
    .locale(language.startsWith('ar') ? 'ar' : 'en')
    .format('D MMM YYYY, HH:mm');
}
