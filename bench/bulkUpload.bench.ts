// Excel bulk upload of workers (issue: Excel bulk uploads): a realistic 10,000-row workers file
// (names, unique tags, phones, the demo site's roles, subcontractors, crews and shifts) uploaded
// as a draft and committed through the real routes, beside exceljs only reading the same file
// (`xlsx.load` and every row's values), measured in the same run, alternating which goes first.
// Peak memory: the process's rss sampled every 20 ms during the upload and commit, above idle.
// Targets: upload + commit ≤ 3× the exceljs read; peak ≤ 300 MB above idle.
// Usage: npx tsx bench/bulkUpload.bench.ts [--rows 10000] [--rounds 3] [--pg postgres://…/admin-db]
// Without --pg it runs on BENCH_DATABASE_URL, TEST_DATABASE_URL or DATABASE_URL when set, else PGlite.
import { performance } from 'node:perf_hooks';
import { eq } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { buildApp } from '../server/app';
import { DEMO_PASSWORD } from '../server/auth/passwords';
import { headerColumns, UploadValidator } from '../server/bulk/uploadValidation';
import { readWorkbookRows } from '../server/bulk/xlsxReader';
import { loadConfig } from '../server/config';
import { demoEmail } from '../server/db/demoSeed';
import { crews, sites, subcontractors, workerRoles, workshifts } from '../server/db/schema';
import { BULK_MAX_ROWS, bulkKind } from '../src/domain/bulkKinds';
import { multipartFile } from '../tests/server/helpers/bulkUploadFixture';
import { type WorkerListValues, workersWorkbook } from '../tests/server/helpers/workerWorkbooks';
import { openDemoSite, option } from './benchServer';
import { machine } from './measure';

const rows = Number(option('rows') ?? 10_000);
const rounds = Number(option('rounds') ?? 3);
const adminUrl =
  option('pg') ?? process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL;
const log = (text: string) => process.stderr.write(`${text}\n`);
const MIB = 1024 * 1024;
const WORKERS = bulkKind('workers');
const TARGET = { maxRatio: 3, maxPeakAboveIdleMb: 300 };

const site = await openDemoSite(adminUrl);
const { db, siteId } = site;
const [siteRow] = await db.select().from(sites).where(eq(sites.id, siteId));
const app = await buildApp({ db, config: { ...loadConfig({}), publicUrl: 'http://sitewatch.bench' } });
await app.ready();
const login = await app.inject({
  method: 'POST',
  url: '/api/login',
  payload: { email: demoEmail('group-of-sites-admin'), password: DEMO_PASSWORD },
});
const token = login.json().data.access_token as string;

const names = async (table: typeof workerRoles | typeof subcontractors | typeof crews | typeof workshifts) =>
  (await db.select({ name: table.name }).from(table).where(eq(table.siteId, siteId))).map((row) => row.name);
const lists: WorkerListValues = {
  roles: await names(workerRoles),
  subcontractors: await names(subcontractors),
  crews: await names(crews),
  shifts: await names(workshifts),
};
// One file per round (and one for the warm-up): each commit adds its workers, so tags must differ.
const files: Buffer[] = [];
for (let round = 0; round <= rounds; round++) files.push(await workersWorkbook(rows, lists, `BENCH${round}`));
log(`${rounds + 1} files of ${rows} rows, ${(files[0].length / MIB).toFixed(2)} MB each`);

async function exceljsRead(bytes: Buffer): Promise<number> {
  const started = performance.now();
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(bytes as unknown as ArrayBuffer);
  let cells = 0;
  workbook.worksheets[0]?.eachRow((row) => {
    row.eachCell(() => {
      cells++;
    });
  });
  if (cells === 0) throw new Error('exceljs read no cells');
  return performance.now() - started;
}

/** The process's rss, sampled every 20 ms while `work` runs: the peak. */
async function sampledPeak<T>(work: () => Promise<T>): Promise<{ result: T; peakRss: number }> {
  let peakRss = process.memoryUsage().rss;
  const timer = setInterval(() => {
    peakRss = Math.max(peakRss, process.memoryUsage().rss);
  }, 20);
  try {
    return { result: await work(), peakRss };
  } finally {
    clearInterval(timer);
    peakRss = Math.max(peakRss, process.memoryUsage().rss);
  }
}

async function uploadAndCommit(bytes: Buffer) {
  const { payload, headers } = multipartFile(bytes, 'workers.xlsx');
  let started = performance.now();
  const uploaded = await app.inject({
    method: 'POST',
    url: `/api/sites/${siteId}/${WORKERS.mainUploadPath}`,
    payload,
    headers: { ...headers, authorization: `Bearer ${token}` },
  });
  const uploadMs = performance.now() - started;
  const upload = uploaded.json().data;
  if (uploaded.statusCode !== 200 || upload.error_row_count !== 0 || upload.row_count !== rows)
    throw new Error(`upload refused: ${uploaded.statusCode} ${uploaded.body.slice(0, 300)}`);
  started = performance.now();
  const committed = await app.inject({
    method: 'POST',
    url: `/bulk/api/sites/${siteId}/uploads/${upload.id}/commit`,
    headers: { authorization: `Bearer ${token}` },
  });
  const commitMs = performance.now() - started;
  if (committed.statusCode !== 200) throw new Error(`commit refused: ${committed.body.slice(0, 300)}`);
  return { uploadMs, commitMs };
}

/** Where the upload's time goes before storing: the reader alone, then the reader and the checks. */
async function readerPhases(bytes: Buffer) {
  let started = performance.now();
  for await (const _ of readWorkbookRows(bytes, { maxRows: BULK_MAX_ROWS })) {
    // Reading only.
  }
  const readMs = performance.now() - started;
  started = performance.now();
  const validator = await UploadValidator.forSite(db, siteRow, WORKERS);
  let positions: Map<string, number> | null = null;
  for await (const sheetRow of readWorkbookRows(bytes, { maxRows: BULK_MAX_ROWS })) {
    if (positions === null) positions = headerColumns(WORKERS, sheetRow.cells);
    else validator.check(sheetRow.rowNumber, validator.cellsOf(positions, sheetRow.cells));
  }
  return { readMs, readAndCheckMs: performance.now() - started };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
const round1 = (value: number) => Math.round(value * 10) / 10;

// Warm-up of both paths (module JIT, the database's caches).
await exceljsRead(files[0]);
await uploadAndCommit(files[0]);

const exceljsMs: number[] = [];
const uploadMs: number[] = [];
const commitMs: number[] = [];
/** Per round: rss at idle just before the upload, and its peak during upload and commit. */
const memory: { idle: number; peak: number }[] = [];
for (let round = 1; round <= rounds; round++) {
  const measureUpload = async () => {
    (globalThis as { gc?: () => void }).gc?.();
    await new Promise((resolve) => setTimeout(resolve, 200));
    const idle = process.memoryUsage().rss;
    const { result, peakRss } = await sampledPeak(() => uploadAndCommit(files[round]));
    uploadMs.push(result.uploadMs);
    commitMs.push(result.commitMs);
    memory.push({ idle, peak: peakRss });
    log(
      `round ${round}: upload ${Math.round(result.uploadMs)} ms, commit ${Math.round(result.commitMs)} ms, ` +
        `peak ${round1((peakRss - idle) / MIB)} MB above ${round1(idle / MIB)} MB`,
    );
  };
  const measureExceljs = async () => {
    exceljsMs.push(await exceljsRead(files[round]));
  };
  if (round % 2 === 1) {
    await measureExceljs();
    await measureUpload();
  } else {
    await measureUpload();
    await measureExceljs();
  }
}
const phases = await readerPhases(files[1]);

const exceljsReadMs = median(exceljsMs);
const upload = median(uploadMs);
const commit = median(commitMs);
const totals = uploadMs.map((ms, index) => ms + (commitMs[index] ?? 0));
const totalMs = median(totals);
const ratio = totalMs / exceljsReadMs;
const worst = memory.reduce((a, b) => (b.peak - b.idle > a.peak - a.idle ? b : a));
const peakAboveIdleMb = (worst.peak - worst.idle) / MIB;
console.log(
  JSON.stringify(
    {
      bench: 'bulkUpload',
      machine: machine(),
      database: adminUrl ? 'postgres' : 'pglite',
      rows,
      rounds,
      fileMb: round1(files[1].length / MIB),
      exceljsReadMs: Math.round(exceljsReadMs),
      uploadMs: Math.round(upload),
      commitMs: Math.round(commit),
      totalMs: Math.round(totalMs),
      ratio: Math.round(ratio * 100) / 100,
      idleRssMb: round1(worst.idle / MIB),
      peakRssMb: round1(worst.peak / MIB),
      peakAboveIdleMb: round1(peakAboveIdleMb),
      phases: {
        readerMs: Math.round(phases.readMs),
        readerAndChecksMs: Math.round(phases.readAndCheckMs),
      },
      runsMs: {
        exceljs: exceljsMs.map(Math.round),
        upload: uploadMs.map(Math.round),
        commit: commitMs.map(Math.round),
      },
      target: TARGET,
      met: ratio <= TARGET.maxRatio && peakAboveIdleMb <= TARGET.maxPeakAboveIdleMb,
    },
    null,
    2,
  ),
);
await app.close();
await site.dispose();
process.exit(0);
