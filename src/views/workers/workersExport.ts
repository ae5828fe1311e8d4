/**
 * The .xlsx export of the worker list, built in the browser with exceljs (loaded on demand, so
 * the list screen does not carry it). The export holds what the list shows under the current
 * search and filters, every page of it, with the same column headings.
 */
import { saveFile as saveBlob } from '../shared/saveFile';

export interface SheetColumn<Row> {
  header: string;
  width?: number;
  value(row: Row): string | number;
}

/** Builds the workbook's bytes: one sheet, a bold frozen heading row, an auto filter. */
export async function buildWorkbook<Row>(
  sheetName: string,
  columns: readonly SheetColumn<Row>[],
  rows: readonly Row[],
  rtl = false,
): Promise<ArrayBuffer> {
  const { default: ExcelJS } = await import('exceljs');
  const workbook = new ExcelJS.Workbook();
  workbook.created = new Date();
  const sheet = workbook.addWorksheet(sheetName, {
    views: [{ state: 'frozen', ySplit: 1, rightToLeft: rtl }],
  });
  sheet.columns = columns.map((column, index) => ({
    header: column.header,
    key: `c${index}`,
    width: column.width ?? Math.max(12, column.header.length + 4),
  }));
  for (const row of rows) sheet.addRow(columns.map((column) => column.value(row)));
  sheet.getRow(1).font = { bold: true };
  sheet.autoFilter = { from: { row: 1, column: 1 }, to: { row: 1, column: columns.length } };
  return (await workbook.xlsx.writeBuffer()) as ArrayBuffer;
}

/** Hands the bytes to the browser as a download. */
export function saveFile(bytes: ArrayBuffer, fileName: string): void {
  const blob = new Blob([bytes], {
    type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  });
  saveBlob(blob, fileName);
}

/** `workers-<site>-YYYY-MM-DD.xlsx`, with the site name reduced to safe characters. */
export function exportFileName(siteName: string, today: Date): string {
  const safe = siteName.replace(/[^\p{L}\p{N}_-]+/gu, '-').replace(/^-+|-+$/g, '') || 'site';
  return `workers-${safe}-${today.toISOString().slice(0, 10)}.xlsx`;
}
