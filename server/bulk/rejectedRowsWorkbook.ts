import ExcelJS from 'exceljs';
import type { BulkKindDefinition } from '../../src/domain/bulkKinds';
import type { UploadRow } from '../../src/domain/schemas/bulk';
import { neutraliseFormula } from '../../src/domain/spreadsheetText';

/**
 * The rows of an upload that were refused, as the kind's template columns plus the sheet row and
 * an "Errors" column: fix them in this file and upload it again. Every cell is neutralised, since
 * the file goes back to a spreadsheet program.
 */
export async function rejectedRowsWorkbook(
  definition: BulkKindDefinition,
  rows: readonly UploadRow[],
): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet(definition.label.slice(0, 31), {
    views: [{ state: 'frozen', ySplit: 1 }],
  });
  const labelOf = new Map(definition.columns.map((column) => [column.key, column.label]));
  sheet.columns = [
    ...definition.columns.map((column) => ({ header: column.label, key: column.key, width: 20 })),
    { header: 'Row', key: '__row', width: 8 },
    { header: 'Errors', key: '__errors', width: 60 },
  ];
  sheet.getRow(1).font = { bold: true };
  for (const row of rows) {
    const values: Record<string, string | number> = { __row: row.row_number };
    for (const column of definition.columns)
      values[column.key] = neutraliseFormula(row.cells[column.key] ?? '');
    values.__errors = neutraliseFormula(
      row.errors
        .map((error) =>
          error.column && labelOf.has(error.column)
            ? `${labelOf.get(error.column)}: ${error.message}`
            : error.message,
        )
        .join('; '),
    );
    sheet.addRow(values);
  }
  return Buffer.from(await workbook.xlsx.writeBuffer());
}
