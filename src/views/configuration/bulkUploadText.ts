import type { BulkColumn, BulkKindDefinition } from '../../domain/bulkKinds';
import { formatCount } from '../../domain/numberFormat';
import type { UploadRow } from '../../domain/schemas/bulk';
import { wallTime } from '../../domain/siteClock';

/** An instant as the console shows it (spec §9): YYYY-MM-DD HH:MM:SS on the site's clock. */
export function formatUploadInstant(iso: string, timeZone: string): string {
  const ms = Date.parse(iso);
  if (!Number.isFinite(ms)) return iso;
  const { date, time } = wallTime(ms, timeZone);
  return `${date} ${time}`;
}

/** The counts of a draft's summary line, thousands grouped (spec §9). */
export function uploadCounts(upload: { row_count: number; error_row_count: number }) {
  return { rows: formatCount(upload.row_count), errors: formatCount(upload.error_row_count) };
}

/** Pages of `total` rows, `perPage` a page: at least one. */
export function pageCount(total: number, perPage: number): number {
  return Math.max(1, Math.ceil(Math.max(0, total) / perPage));
}

/** The row's error messages by column key; '' holds the errors of the row as a whole. */
export function errorsByColumn(row: UploadRow): Map<string, string[]> {
  const found = new Map<string, string[]>();
  for (const { column, message } of row.errors) {
    const list = found.get(column);
    if (list) list.push(message);
    else found.set(column, [message]);
  }
  return found;
}

/** The "Errors" column's text: each message once, in the row's order. */
export function rowErrorText(row: UploadRow): string {
  return [...new Set(row.errors.map((error) => error.message))].join('; ');
}

/** A column of the review table: the row number, one per kind column, the errors. */
export type ReviewColumn =
  | { key: 'row_number'; width: number }
  | { key: 'errors'; width: number }
  | { key: string; width: number; column: BulkColumn };

const ROW_NUMBER_WIDTH = 72;
const ERRORS_WIDTH = 320;

/** The review table's columns of a kind, in reading order. */
export function reviewColumns(definition: BulkKindDefinition): ReviewColumn[] {
  return [
    { key: 'row_number', width: ROW_NUMBER_WIDTH },
    ...definition.columns.map((column) => ({
      key: column.key,
      column,
      width: Math.min(260, Math.max(120, column.label.length * 9 + 40)),
    })),
    { key: 'errors', width: ERRORS_WIDTH },
  ];
}
