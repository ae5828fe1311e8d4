import { PassThrough } from 'node:stream';
import ExcelJS from 'exceljs';
import { bulkKind } from '../../../src/domain/bulkKinds';
import { deflateStreaming, writeZip } from './zipWriter';

/**
 * Large worker upload files, built without holding a whole sheet model: exceljs's streaming writer
 * (a file as Excel-like programs write it, shared strings and all) and a hand-streamed zip of
 * inline-string rows for sizes where only the row count matters.
 */

export const WORKER_HEADER: readonly string[] = bulkKind('workers').columns.map((column) => column.label);

/** The demo site's list values a realistic worker row picks from (empty lists leave cells empty). */
export interface WorkerListValues {
  roles: readonly string[];
  subcontractors: readonly string[];
  crews: readonly string[];
  shifts: readonly string[];
}

const FIRST_NAMES = ['Amina', 'Bilal', 'Chen', 'Dev', 'Elif', 'Farid', 'Grace', 'Hassan', 'Ivan', 'Joy'];
const LAST_NAMES = ['Yusuf', 'Khan', 'Wei', 'Patel', 'Demir', 'Haddad', 'Okafor', 'Nair', 'Petrov', 'Cruz'];
const HELMETS = ['yellow', 'white', 'blue', 'orange', '#22aa44'];

const pick = <T>(values: readonly T[], index: number): T | '' => values[index % values.length] ?? '';

/** Row `index` (from 1) of a workers sheet: a name, a unique tag, a phone, the site's lists. */
export function workerRow(index: number, lists: WorkerListValues, tagPrefix: string): string[] {
  return [
    `${pick(FIRST_NAMES, index)} ${pick(LAST_NAMES, Math.floor(index / 10))} ${index}`,
    `${tagPrefix}-${String(index).padStart(6, '0')}`,
    String(971_500_000_000 + index),
    index % 3 === 0 ? pick(HELMETS, index) : '',
    pick(lists.roles, index),
    pick(lists.subcontractors, index * 7),
    pick(lists.crews, index * 3),
    pick(lists.shifts, index),
  ];
}

/** An .xlsx of a header and rows, written by exceljs's streaming WorkbookWriter into a buffer. */
export async function streamedWorkbook(
  header: readonly string[],
  rows: Iterable<readonly (string | number)[]>,
): Promise<Buffer> {
  const stream = new PassThrough();
  const chunks: Buffer[] = [];
  stream.on('data', (chunk: Buffer) => chunks.push(chunk));
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({
    stream,
    useSharedStrings: true,
    useStyles: false,
  });
  const sheet = workbook.addWorksheet('Workers');
  sheet.addRow([...header]).commit();
  for (const row of rows) sheet.addRow([...row]).commit();
  sheet.commit();
  await workbook.commit();
  return Buffer.concat(chunks);
}

/** A workers .xlsx of `count` realistic rows (exceljs streaming writer). */
export function workersWorkbook(count: number, lists: WorkerListValues, tagPrefix = 'W'): Promise<Buffer> {
  function* rows() {
    for (let index = 1; index <= count; index++) yield workerRow(index, lists, tagPrefix);
  }
  return streamedWorkbook(WORKER_HEADER, rows());
}

const MAIN_NS = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL_NS = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';

const escapeXml = (text: string) =>
  text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');

function inlineRow(rowNumber: number, cells: readonly string[]): string {
  let xml = `<row r="${rowNumber}">`;
  cells.forEach((text, column) => {
    if (text === '') return;
    xml += `<c r="${String.fromCharCode(65 + column)}${rowNumber}" t="inlineStr"><is><t>${escapeXml(text)}</t></is></c>`;
  });
  return `${xml}</row>`;
}

/**
 * A minimal .xlsx (content types, workbook, its relationships, one sheet) whose sheet is `rows`
 * as inline strings (at most 26 columns), deflated as it is generated: a 100,000-row sheet in a
 * second or two, never held inflated.
 */
export async function inlineStringWorkbook(rows: Iterable<readonly string[]>): Promise<Buffer> {
  function* sheet(): Generator<Buffer> {
    let block = `${XML_DECLARATION}<worksheet xmlns="${MAIN_NS}" xmlns:r="${REL_NS}"><sheetData>`;
    let rowNumber = 0;
    for (const row of rows) {
      block += inlineRow(++rowNumber, row);
      if (block.length > 64 * 1024) {
        yield Buffer.from(block);
        block = '';
      }
    }
    yield Buffer.from(`${block}</sheetData></worksheet>`);
  }
  const text = (name: string, xml: string) => ({ name, data: Buffer.from(`${XML_DECLARATION}${xml}`) });
  return writeZip([
    text(
      '[Content_Types].xml',
      '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
        '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
        '<Default Extension="xml" ContentType="application/xml"/></Types>',
    ),
    text(
      'xl/workbook.xml',
      `<workbook xmlns="${MAIN_NS}" xmlns:r="${REL_NS}"><sheets><sheet name="Workers" sheetId="1" r:id="rId1"/></sheets></workbook>`,
    ),
    text(
      'xl/_rels/workbook.xml.rels',
      '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
        `<Relationship Id="rId1" Type="${REL_NS}/worksheet" Target="worksheets/sheet1.xml"/></Relationships>`,
    ),
    { name: 'xl/worksheets/sheet1.xml', deflated: await deflateStreaming(sheet()) },
  ]);
}
