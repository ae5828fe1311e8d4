// What the maintenance map's anchor graph costs the floor canvas per frame in Chromium: an anchor
// network of 2,000 nodes and 10,000 links (the anchors and anchor-graph layers) against the empty
// canvas, both panning a little every frame so every frame renders, in the same browser in the
// same run; beside them the 2,000 nodes without the graph (the live map), and the graph rebuilt
// every frame, as a replay at speed feeds it.
// Usage: npx tsx bench/anchorGraph.bench.ts [frames] [--rounds 2] [--reuse]
//   (--reuse skips rebuilding the harness page, tests/e2e/harness/anchorGraph.html)
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { launchBrowser } from '../tests/e2e/helpers/browser';
import { buildCanvasHarness, serveCanvasHarness } from '../tests/e2e/helpers/canvasHarness';
import { E2E_OUTPUT_DIR } from '../tests/e2e/helpers/outputDir';
import { type FrameTimes, frameTimes } from './canvasBenchPage';
import { machine } from './measure';

const PAGE = 'anchorGraph.html';
const DIR = resolve(E2E_OUTPUT_DIR, 'anchor-graph-harness');
const NODES = 2_000;
const LINKS = 10_000;
const roundsAt = process.argv.indexOf('--rounds');
const rounds = roundsAt === -1 ? 2 : Math.max(1, Number(process.argv[roundsAt + 1]) || 2);
/** Frames per case: the first bare number that is not the rounds' (200 by default). */
const frames = Number(process.argv.find((arg, i) => /^\d+$/.test(arg) && i !== roundsAt + 1) ?? 200);

if (!(process.argv.includes('--reuse') && existsSync(join(DIR, PAGE)))) await buildCanvasHarness(PAGE, DIR);
const server = await serveCanvasHarness(DIR, PAGE);
const browser = await launchBrowser();
const page = await browser.newPage({ viewport: { width: 1280, height: 800 }, deviceScaleFactor: 1 });
const errors: string[] = [];
page.on('pageerror', (error) => errors.push(error.message));
await page.goto(server.url);
await page.waitForFunction(() => 'anchorGraphHarness' in window);

interface FrameFigures extends FrameTimes {
  /** Main-thread time inside Pixi's render per rendered frame. */
  renderCpuMs: number;
  /** Main-thread time of the engine's whole frame (the layers' updates and the render). */
  frameCpuMs: number;
}

type Case = 'empty' | 'anchors' | 'graph' | 'graphEveryFrame';

async function run(
  which: Case,
  n = frames,
): Promise<{ renderer: string; figures: FrameFigures; drawMs: number }> {
  const renderer = await page.evaluate(() => window.anchorGraphHarness.mount());
  const shown =
    which === 'empty'
      ? { drawMs: 0 }
      : await page.evaluate(([count, links]) => window.anchorGraphHarness.show(count, links), [
          NODES,
          LINKS,
        ] as const);
  const before = await page.evaluate(() => window.anchorGraphHarness.stats());
  const deltas = await page.evaluate(
    ([count, changing, nodes, links]) =>
      window.anchorGraphHarness.measureFrames(
        count,
        changing ? { count: nodes, linkCount: links } : undefined,
      ),
    [n, which === 'graphEveryFrame', NODES, LINKS] as const,
  );
  const after = await page.evaluate(() => window.anchorGraphHarness.stats());
  const rendered = Math.max(1, after.renderedFrames - before.renderedFrames);
  return {
    renderer,
    drawMs: Number(shown.drawMs.toFixed(2)),
    figures: {
      ...frameTimes(deltas),
      renderCpuMs: Number(((after.renderMs - before.renderMs) / rendered).toFixed(3)),
      frameCpuMs: Number(((after.frameMs - before.frameMs) / rendered).toFixed(3)),
    },
  };
}

// A throwaway round first, so shader compilation and JIT warm-up land in no measurement.
await run('graph', 30);
const results: Record<Case, Awaited<ReturnType<typeof run>>[]> = {
  empty: [],
  anchors: [],
  graph: [],
  graphEveryFrame: [],
};
// The cases alternate within each round, so a busy moment of the machine does not favour one.
for (let round = 0; round < rounds; round++) {
  for (const which of ['empty', 'anchors', 'graph', 'graphEveryFrame'] as const)
    results[which].push(await run(which));
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};
const summary = (which: Case) => ({
  p50Ms: median(results[which].map((r) => r.figures.p50Ms)),
  meanMs: Number(median(results[which].map((r) => r.figures.meanMs)).toFixed(2)),
  rounds: results[which].map((r) => r.figures),
});
const empty = summary('empty');
const anchors = summary('anchors');
const graph = summary('graph');
const everyFrame = summary('graphEveryFrame');
const ratio = (a: number, b: number) => Number((a / b).toFixed(2));

console.log(
  JSON.stringify(
    {
      bench: 'anchorGraph',
      renderer: results.graph[0].renderer,
      antialias: (await page.evaluate(() => window.anchorGraphHarness.stats())).antialias,
      chromium: browser.version(),
      viewport: '1280×800 @1x',
      machine: machine(),
      nodes: NODES,
      links: LINKS,
      framesPerRound: frames,
      rounds,
      firstDrawMs: median(results.graph.map((r) => r.drawMs)),
      empty,
      anchorsWithoutGraph: anchors,
      graph,
      graphRebuiltEveryFrame: everyFrame,
      ratio: { p50: ratio(graph.p50Ms, empty.p50Ms), mean: ratio(graph.meanMs, empty.meanMs) },
      ratioAnchorsWithoutGraph: {
        p50: ratio(anchors.p50Ms, empty.p50Ms),
        mean: ratio(anchors.meanMs, empty.meanMs),
      },
      ratioRebuiltEveryFrame: {
        p50: ratio(everyFrame.p50Ms, empty.p50Ms),
        mean: ratio(everyFrame.meanMs, empty.meanMs),
      },
      pageErrors: errors,
    },
    null,
    2,
  ),
);
await browser.close();
await server.close();
