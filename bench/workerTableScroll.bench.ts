// What scrolling the worker list costs in Chromium: requestAnimationFrame deltas while the
// console's WorkersTable (Blueprint Table, virtualised) with 10,000 rows scrolls steadily and then
// jumps about, beside a bare scrolling box as tall (the machine's floor) and the table with 50
// rows, all in the same browser in the same run; those on a harness page with every row loaded.
// Then the console's /workers screen itself on a server with 10,000 workers, where the rows in
// view are fetched a page at a time as they come into view. Also counts the frames painted with
// cells in view not drawn or still loading, and the body rows in the DOM.
// Usage: npx tsx bench/workerTableScroll.bench.ts [steadyFrames] [--reuse]  (--reuse skips rebuilding
// the harness and the console). With BENCH_DATABASE_URL the screen's server runs on PostgreSQL.
import { existsSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import type {
  ScrollPhase,
  ScrollPlan,
  ScrollResult,
  WorkerTableMountOptions,
} from '../tests/e2e/harness/workerTableFixture';
import { launchBrowser } from '../tests/e2e/helpers/browser';
import { buildCanvasHarness, serveCanvasHarness } from '../tests/e2e/helpers/canvasHarness';
import { frameTimes } from './canvasBenchPage';
import { machine } from './measure';
import { openWorkersScreen, SCREEN_CONSOLE_DIR } from './workersScreenPage';

const PAGE = 'workerTable.html';
const DIR = resolve('test-output/worker-table-harness');
/** One frame at 60 Hz; a delta this many frames long dropped (n - 1) frames. */
const FRAME_MS = 1000 / 60;

const reuse = process.argv.includes('--reuse');
if (!(reuse && existsSync(join(DIR, PAGE)))) await buildCanvasHarness(PAGE, DIR);
const server = await serveCanvasHarness(DIR, PAGE);
const browser = await launchBrowser();
/** Chromium's own main-thread counters (cumulative seconds), to split frame time into script, style and layout. */
async function mainThreadCounters(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  return async (): Promise<Record<string, number>> => {
    const { metrics } = await cdp.send('Performance.getMetrics');
    return Object.fromEntries(metrics.map((m) => [m.name, m.value]));
  };
}

/** A fresh harness page per configuration, so nothing one table leaves behind (heap, caches) slows the next. */
async function openPage() {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 }, deviceScaleFactor: 1 });
  await page.goto(server.url);
  await page.waitForFunction(() => 'workerTableHarness' in window);
  return { page, mainThread: await mainThreadCounters(page) };
}

function figures(p: ScrollPhase) {
  const sorted = [...p.deltas].sort((a, b) => a - b);
  return {
    ...frameTimes(p.deltas),
    p99Ms: Number(sorted[Math.min(sorted.length - 1, Math.floor(0.99 * sorted.length))].toFixed(2)),
    maxMs: Number(sorted[sorted.length - 1].toFixed(2)),
    droppedFrames: p.deltas.reduce((n, d) => n + Math.max(0, Math.round(d / FRAME_MS) - 1), 0),
    incompleteFrames: p.incompleteFrames,
    meanBlankShare: p.meanBlankShare,
  };
}

// One row a frame (about 60 rows a second), then jumps across the whole list like a scroll-bar drag.
const plan: ScrollPlan = {
  steadyFrames: Number(process.argv.find((a) => /^\d+$/.test(a)) ?? 300),
  pxPerFrame: 32,
  jumps: [0.5, 0.1, 0.9, 0.3, 0.7, 0.2, 1, 0],
  framesPerJump: 45,
};

/** Scrolls by the plan (after a throwaway scroll, so JIT warm-up and font loading land in no measurement). */
async function measure(page: Page, scroll: (plan: ScrollPlan) => Promise<ScrollResult>) {
  const mainThread = await mainThreadCounters(page);
  await scroll({ ...plan, steadyFrames: 60, jumps: [0.5] });
  const before = await mainThread();
  const r = await scroll(plan);
  const after = await mainThread();
  const frames = r.steady.deltas.length + r.jumps.deltas.length;
  const perFrame = (name: string) => Number((((after[name] - before[name]) * 1000) / frames).toFixed(2));
  const settled = r.jumps.settleMs.filter((ms): ms is number => ms !== null);
  return {
    steady: figures(r.steady),
    jumps: {
      ...figures(r.jumps),
      settleMs: r.jumps.settleMs,
      maxSettleMs: settled.length === r.jumps.settleMs.length ? Math.max(...settled) : null,
      maxSettleFrames: r.jumps.settleFrames.includes(null)
        ? null
        : Math.max(...(r.jumps.settleFrames as number[])),
    },
    longTasks: r.longTasks,
    /** Main-thread ms per frame over the whole scroll (steady and jumps). */
    mainThreadPerFrameMs: {
      task: perFrame('TaskDuration'),
      script: perFrame('ScriptDuration'),
      style: perFrame('RecalcStyleDuration'),
      layout: perFrame('LayoutDuration'),
    },
    cellsInView: r.cellsInView,
    domRows: r.domRows,
    maxDomRows: r.maxDomRows,
    domCells: r.domCells,
    domElements: r.domElements,
  };
}

async function run(options: WorkerTableMountOptions) {
  const { page } = await openPage();
  const mountMs = await page.evaluate((o) => window.workerTableHarness.mount(o), options);
  const figuresOf = await measure(page, (p) =>
    page.evaluate((q) => window.workerTableHarness.measureScroll(q), p),
  );
  await page.close();
  return { rows: options.rows, mountMs, ...figuresOf };
}

const baseline = await run({ kind: 'empty', rows: 10_000 });
const table50 = await run({ kind: 'table', rows: 50 });
const table10k = await run({ kind: 'table', rows: 10_000 });
const table10kArabic = await run({ kind: 'table', rows: 10_000, locale: 'ar' });

// The real screen: rows come from the server a page at a time as they come into view.
const screen = await openWorkersScreen(browser, reuse && existsSync(join(SCREEN_CONSOLE_DIR, 'index.html')));
let listRequests = 0;
const screenFigures = await measure(screen.page, async (p) => {
  const { result, requests } = await screen.measureScroll(p);
  listRequests = requests;
  return result;
});
const database = process.env.BENCH_DATABASE_URL ? 'pg' : 'pglite';
await screen.close();

console.log(
  JSON.stringify(
    {
      bench: 'workerTableScroll',
      chromium: browser.version(),
      viewport: '1280×800 @1x',
      machine: machine(),
      /** Other work on the machine skews main-thread figures: the 1, 5 and 15 minute load averages. */
      loadAverage: loadavg().map((l) => Number(l.toFixed(2))),
      plan,
      baselineEmptyBox: baseline,
      workersTable50: table50,
      workersTable10k: table10k,
      workersTable10kArabic: table10kArabic,
      workersScreen10k: { rows: screen.rows, database, listRequests, ...screenFigures },
    },
    null,
    2,
  ),
);
await browser.close();
await server.close();
