// What scrolling Nodes Management's table costs in Chromium with 2,000 anchors and sinks:
// requestAnimationFrame deltas while the console's NodesTable (Blueprint Table, virtualised)
// scrolls steadily and then jumps about, beside a bare scrolling box as tall (the machine's
// floor), with no poll, with the screen's poll made 20 times as frequent (a reply every 500 ms,
// 30 % of the nodes with a new report, every node a new object) merged into rows as the screen
// does (`mergeRows`: unchanged nodes keep their row and cells), and the same poll with every row
// made anew (what the merge saves). Also how long each reply takes from arrival to the frame
// that shows it.
// Usage: npx tsx bench/nodeTableScroll.bench.ts [steadyFrames] [--reuse]  (--reuse skips rebuilding the harness).
import { existsSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import type { NodeTableMountOptions } from '../tests/e2e/harness/nodeTable';
import type { ScrollPhase, ScrollPlan, ScrollResult } from '../tests/e2e/harness/workerTableFixture';
import { launchBrowser } from '../tests/e2e/helpers/browser';
import { buildCanvasHarness, serveCanvasHarness } from '../tests/e2e/helpers/canvasHarness';
import { frameTimes } from './canvasBenchPage';
import { machine } from './measure';

const PAGE = 'nodeTable.html';
const DIR = resolve('test-output/node-table-harness');
const FRAME_MS = 1000 / 60;
const NODES = 2000;

const reuse = process.argv.includes('--reuse');
if (!(reuse && existsSync(join(DIR, PAGE)))) await buildCanvasHarness(PAGE, DIR);
const server = await serveCanvasHarness(DIR, PAGE);
const browser = await launchBrowser();

const plan: ScrollPlan = {
  steadyFrames: Number(process.argv.find((a) => /^\d+$/.test(a)) ?? 300),
  pxPerFrame: 30,
  jumps: [0.5, 0.1, 0.9, 0.3, 0.7, 0.2, 1, 0],
  framesPerJump: 45,
};

/** Frame time figures of a phase (canvasBenchPage's, with the worst frame and the frames dropped). */
function figures({ deltas, incompleteFrames }: ScrollPhase) {
  const worst = deltas.reduce((max, d) => Math.max(max, d), 0);
  const dropped = deltas.map((d) => Math.max(0, Math.round(d / FRAME_MS) - 1)).reduce((n, d) => n + d, 0);
  return { ...frameTimes(deltas), maxMs: Number(worst.toFixed(2)), droppedFrames: dropped, incompleteFrames };
}

async function run(options: NodeTableMountOptions) {
  const page: Page = await browser.newPage({ viewport: { width: 1280, height: 800 }, deviceScaleFactor: 1 });
  await page.goto(server.url);
  await page.waitForFunction(() => 'nodeTableHarness' in window);
  const mountMs = await page.evaluate((o) => window.nodeTableHarness.mount(o), options);
  const scroll = (p: ScrollPlan) => page.evaluate((q) => window.nodeTableHarness.measureScroll(q), p);
  // A throwaway scroll first, so JIT warm-up and font loading land in no measurement.
  await scroll({ ...plan, steadyFrames: 60, jumps: [0.5] });
  const r: ScrollResult = await scroll(plan);
  const polls = await page.evaluate(() => window.nodeTableHarness.pollRenders());
  await page.close();
  const sorted = [...polls].sort((a, b) => a - b);
  return {
    rows: options.rows,
    mountMs,
    steady: figures(r.steady),
    jumps: { ...figures(r.jumps), settleMs: r.jumps.settleMs },
    longTasks: r.longTasks,
    domCells: r.domCells,
    cellsInView: r.cellsInView,
    replies: polls.length
      ? {
          count: polls.length,
          p50ToFrameMs: sorted[Math.floor(sorted.length / 2)],
          maxToFrameMs: sorted[sorted.length - 1],
        }
      : null,
  };
}

const poll = { pollEveryMs: 500, changedShare: 0.3 };
const baseline = await run({ kind: 'empty', rows: NODES });
const still = await run({ kind: 'table', rows: NODES });
const polled = await run({ kind: 'table', rows: NODES, ...poll });
const polledNoReuse = await run({ kind: 'table', rows: NODES, ...poll, reuseRows: false });
const polledArabic = await run({ kind: 'table', rows: NODES, ...poll, locale: 'ar' });

console.log(
  JSON.stringify(
    {
      bench: 'nodeTableScroll',
      chromium: browser.version(),
      viewport: '1280×800 @1x',
      machine: machine(),
      loadAverage: loadavg().map((l) => Number(l.toFixed(2))),
      plan,
      poll,
      baselineEmptyBox: baseline,
      nodesTable2k: still,
      nodesTable2kPolled: polled,
      nodesTable2kPolledRowsMadeAnew: polledNoReuse,
      nodesTable2kPolledArabic: polledArabic,
    },
    null,
    2,
  ),
);
await browser.close();
await server.close();
