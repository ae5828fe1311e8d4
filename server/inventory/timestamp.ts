import { isStorableInstant } from '../../src/domain/storableInstant';

const ISO_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?$/;

/**
 * An ISO-8601 date-time, UTC unless it carries an offset; null when the text is not one or
 * names a day that does not exist (new Date() would roll 30 February into March).
 */
export function parseTimestamp(raw: string | undefined): Date | null {
  const text = raw?.trim() ?? '';
  const match = ISO_DATE_TIME.exec(text);
  if (!match) return null;
  const at = new Date(match[6] === undefined ? `${text}Z` : text);
  if (!isStorableInstant(at)) return null;
  const day = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
  if (day.getUTCMonth() !== Number(match[2]) - 1 || day.getUTCDate() !== Number(match[3])) return null;
  return at;
}
