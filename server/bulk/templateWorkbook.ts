import ExcelJS from 'exceljs';
import type { BulkColumn, BulkKindDefinition } from '../../src/domain/bulkKinds';
import { neutraliseFormula } from '../../src/domain/spreadsheetText';
import type { SiteLists } from './siteLists';

/** Rows of the template that carry the drop-down lists and formats (a sheet beyond them still reads). */
const VALIDATED_ROWS = 5000;

interface RangeValidations {
  add(range: string, validation: ExcelJS.DataValidation): void;
}

const columnLetter = (index: number): string => {
  let letter = '';
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26))
    letter = String.fromCharCode(65 + ((n - 1) % 26)) + letter;
  return letter;
};

const typeText: Record<BulkColumn['type'], string> = {
  text: 'Text',
  digits: 'Digits',
  worker: 'Worker tag id',
  list: 'One of the list',
  date: 'Date',
  time: 'Time HH:mm',
  number: 'Number',
};

/**
 * The .xlsx template of an upload kind (spec §7 template calls): the header, one example row,
 * drop-down lists filled from the site's own rows (kept on a hidden sheet, since a list written
 * into the rule itself is capped at 255 characters), a frozen header, column widths, and a second
 * sheet that explains each column. Without a site (the bulk sub-API's site-free templates) the
 * lists are empty and the sheet still explains them.
 */
export async function templateWorkbook(
  definition: BulkKindDefinition,
  lists: SiteLists | null,
): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  workbook.creator = 'Sitewatch';
  const sheet = workbook.addWorksheet(definition.label.slice(0, 31), {
    views: [{ state: 'frozen', ySplit: 1 }],
  });
  const help = workbook.addWorksheet('Columns');
  const listSheet = workbook.addWorksheet('Lists', { state: 'veryHidden' });

  sheet.columns = definition.columns.map((column) => ({
    header: column.required ? `${column.label}` : column.label,
    key: column.key,
    width: Math.max(14, Math.min(40, column.label.length + 6, column.example.length + 6)),
  }));
  const header = sheet.getRow(1);
  header.font = { bold: true };
  header.fill = { type: 'pattern', pattern: 'solid', fgColor: { argb: 'FFE1E8ED' } };
  definition.columns.forEach((column, index) => {
    if (column.required) header.getCell(index + 1).note = 'Required';
  });

  const example: Record<string, string | number> = {};
  const validations = (sheet as unknown as { dataValidations: RangeValidations }).dataValidations;
  let listColumn = 0;
  definition.columns.forEach((column, index) => {
    const letter = columnLetter(index);
    const range = `${letter}2:${letter}${VALIDATED_ROWS + 1}`;
    const values = column.list
      ? (lists?.lists[column.list]?.labels ?? (column.list === 'yesNo' ? ['Yes', 'No'] : []))
      : [];
    example[column.key] = neutraliseFormula(column.example || values[0] || '');
    if (column.list && values.length > 0) {
      const listLetter = columnLetter(listColumn++);
      listSheet.getCell(`${listLetter}1`).value = column.label;
      values.forEach((value, row) => {
        listSheet.getCell(`${listLetter}${row + 2}`).value = neutraliseFormula(value);
      });
      validations.add(range, {
        type: 'list',
        allowBlank: !column.required,
        formulae: [`Lists!$${listLetter}$2:$${listLetter}$${values.length + 1}`],
        showErrorMessage: true,
        errorTitle: column.label,
        error: `Choose a value from the list of ${column.label}`,
      });
    }
    if (
      column.type === 'date' ||
      column.type === 'time' ||
      column.type === 'digits' ||
      column.type === 'worker'
    ) {
      // Text cells: Excel keeps 0971… and 07:00 as typed instead of turning them into numbers.
      sheet.getColumn(index + 1).numFmt = '@';
    }
  });
  sheet.addRow(example);

  help.columns = [
    { header: 'Column', key: 'label', width: 24 },
    { header: 'Required', key: 'required', width: 10 },
    { header: 'Format', key: 'type', width: 18 },
    { header: 'Description', key: 'help', width: 70 },
  ];
  help.getRow(1).font = { bold: true };
  help.views = [{ state: 'frozen', ySplit: 1 }];
  for (const column of definition.columns) {
    help.addRow({
      label: column.label,
      required: column.required ? 'Yes' : 'No',
      type: typeText[column.type],
      help: column.help,
    });
  }
  help.addRow({});
  help.addRow({ label: 'Row 2 of the first sheet is an example: replace it with your rows.' });
  return Buffer.from(await workbook.xlsx.writeBuffer());
}
