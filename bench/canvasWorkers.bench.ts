// What moving helmets cost the floor canvas per frame in Chromium: requestAnimationFrame deltas
// while every helmet moves every frame (a new worker map per frame, sampled by the engine), for
// 1,000, 5,000 and 10,000 helmets on the blueprint (and 10,000 without it), beside an empty canvas
// and the blueprint alone panning every frame, all in the same browser in the same run.
// Usage: npx tsx bench/canvasWorkers.bench.ts [frames] [--reuse]  (--reuse skips rebuilding the harness)
import type { MountOptions } from '../tests/e2e/harness/fixture';
import { type FrameTimes, benchFrames as frames, frameTimes, openCanvasBenchPage } from './canvasBenchPage';
import { machine } from './measure';

const { page, browser, close } = await openCanvasBenchPage();

interface FrameFigures extends FrameTimes {
  /** Main-thread time inside Pixi's render per rendered frame. */
  renderCpuMs: number;
  /** Main-thread time of the engine's whole frame (sampling the map, projecting, moving markers, render). */
  frameCpuMs: number;
  markers: number;
}

function figures(deltas: number[], renderCpuMs: number, frameCpuMs: number, markers: number): FrameFigures {
  return {
    ...frameTimes(deltas),
    renderCpuMs: Number(renderCpuMs.toFixed(3)),
    frameCpuMs: Number(frameCpuMs.toFixed(3)),
    markers,
  };
}

async function run(
  options: MountOptions,
  moving: boolean,
  n = frames,
): Promise<{ renderer: string | null; figures: FrameFigures }> {
  const renderer = await page.evaluate((o) => window.canvasHarness.mount(o), options);
  const before = await page.evaluate(() => window.canvasHarness.stats());
  const deltas = await page.evaluate(
    ([count, move]) =>
      move ? window.canvasHarness.measureMovingWorkers(count) : window.canvasHarness.measureFrames(count),
    [n, moving] as const,
  );
  const after = await page.evaluate(() => window.canvasHarness.stats());
  const rendered = after.renderedFrames - before.renderedFrames;
  const perFrame = (ms: number) => ms / Math.max(1, rendered);
  return {
    renderer,
    figures: figures(
      deltas,
      perFrame(after.renderMs - before.renderMs),
      perFrame(after.frameMs - before.frameMs),
      after.workersDrawn,
    ),
  };
}

// A throwaway round first, so shader compilation and JIT warm-up land in no measurement.
await run({ workerCount: 5000 }, true, 30);
const baseline = await run({ blueprint: 'none' }, false);
const blueprint = await run({}, false);
const workers1k = await run({ workerCount: 1000 }, true);
const workers5k = await run({ workerCount: 5000 }, true);
const workers10k = await run({ workerCount: 10_000 }, true);
// Without the blueprint the software rasteriser has little to fill: closer to what the markers cost.
const workers10kNoBlueprint = await run({ workerCount: 10_000, blueprint: 'none' }, true);

console.log(
  JSON.stringify(
    {
      bench: 'canvasWorkers',
      renderer: workers10k.renderer,
      antialias: (await page.evaluate(() => window.canvasHarness.stats())).antialias,
      chromium: browser.version(),
      viewport: '1280×800 @1x',
      machine: machine(),
      baseline: baseline.figures,
      blueprint: blueprint.figures,
      workers1k: workers1k.figures,
      workers5k: workers5k.figures,
      workers10k: workers10k.figures,
      workers10kNoBlueprint: workers10kNoBlueprint.figures,
    },
    null,
    2,
  ),
);
await close();
