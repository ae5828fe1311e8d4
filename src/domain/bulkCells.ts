import { type BulkColumn, invalidCell } from './bulkKinds';
import { isCalendarDate } from './calendarDate';
import { messages } from './messages';
import { hasControlCharacters } from './text';

/**
 * The rules of one uploaded cell, by its column's type (src/domain/bulkKinds.ts), with the
 * messages of the single-record forms (spec §5). List membership needs the site's rows and is
 * checked by the server; here a list cell is only required or not.
 */

/** YYYY-MM-DD from YYYY-MM-DD, DD/MM/YYYY or D/M/YYYY; null when it names no real day. */
export function parseDateCell(text: string): string | null {
  const iso = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(text);
  const dmy = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(text);
  const parts = iso ? [iso[1], iso[2], iso[3]] : dmy ? [dmy[3], dmy[2], dmy[1]] : null;
  if (!parts) return null;
  const [year, month, day] = parts;
  const date = `${year}-${month.padStart(2, '0')}-${day.padStart(2, '0')}`;
  return isCalendarDate(date) ? date : null;
}

/** HH:mm (24 h) from H:mm, HH:mm or HH:mm:ss; null otherwise. */
export function parseTimeCell(text: string): string | null {
  const match = /^(\d{1,2}):(\d{2})(?::(\d{2}))?$/.exec(text);
  if (!match) return null;
  const hours = Number(match[1]);
  const minutes = Number(match[2]);
  if (hours > 23 || minutes > 59 || (match[3] !== undefined && Number(match[3]) > 59)) return null;
  return `${String(hours).padStart(2, '0')}:${match[2]}`;
}

/** A number ≥ 0 with at most two decimals and at most `max`; null otherwise. */
export function parseNumberCell(text: string, max = Number.MAX_SAFE_INTEGER): number | null {
  if (!/^\d+(\.\d+)?$/.test(text)) return null;
  const value = Number(text);
  if (!Number.isFinite(value) || value > max) return null;
  // Spreadsheets store 8.1 as 8.0999999999999996: round to cents before judging the decimals.
  const cents = Math.round(value * 100);
  if (Math.abs(cents - value * 100) > 1e-6) return null;
  return cents / 100;
}

/** Yes/No (also TRUE/FALSE, as a boolean cell reads) → true/false; null otherwise. */
export function parseYesNoCell(text: string): boolean | null {
  const lower = text.toLowerCase();
  if (lower === 'yes' || lower === 'true' || lower === 'y') return true;
  if (lower === 'no' || lower === 'false' || lower === 'n') return false;
  return null;
}

/**
 * A cell as it can be stored: PostgreSQL text holds no NUL (a sheet can spell one `_x0000_`), so a
 * NUL is kept as U+FFFD, which the cell rule refuses as it does a control character.
 */
export function storableCell(text: string): string {
  return text.replaceAll('\u0000', '\uFFFD');
}

/** The error of one cell's text (already trimmed), or null when the cell passes. */
export function cellError(column: BulkColumn, text: string): string | null {
  const { label } = column;
  if (text === '') return column.required ? messages.required(label) : null;
  if (hasControlCharacters(text) || text.includes('\uFFFD')) return invalidCell(label);
  const length = [...text].length;
  switch (column.type) {
    case 'text':
    case 'worker':
      if (column.min !== undefined && length < column.min) return messages.minChars(label, column.min);
      if (column.max !== undefined && length > column.max) return messages.maxChars(label, column.max);
      return null;
    case 'digits':
      if (!/^\d+$/.test(text)) return messages.onlyDigits(label);
      if (column.min !== undefined && length < column.min) return messages.minDigits(label, column.min);
      if (column.max !== undefined && length > column.max) return messages.maxDigits(label, column.max);
      return null;
    case 'date':
      return parseDateCell(text) === null ? invalidCell(label) : null;
    case 'time':
      return parseTimeCell(text) === null ? invalidCell(label) : null;
    case 'number':
      return parseNumberCell(text, column.max) === null ? invalidCell(label) : null;
    case 'list':
      if (column.list === 'yesNo' && parseYesNoCell(text) === null) return invalidCell(label);
      return length > 300 ? messages.maxChars(label, 300) : null;
  }
}

/** A cell's text as the stored value: dates and times normalised, the rest as typed. */
export function normalisedCell(column: BulkColumn, text: string): string {
  if (text === '') return '';
  if (column.type === 'date') return parseDateCell(text) ?? text;
  if (column.type === 'time') return parseTimeCell(text) ?? text;
  return text;
}

/** How names are compared: trimmed and case-insensitive, as the site's unique indexes do. */
export function nameKey(text: string): string {
  return text.trim().toLowerCase();
}
