// What 500 zones cost the floor canvas per frame in Chromium: requestAnimationFrame deltas while
// the view pans every frame (so every frame renders), for an empty canvas, the blueprint alone
// and the blueprint with 500 zones, all in the same browser in the same run.
// Usage: npx tsx bench/canvasZones.bench.ts [frames] [--reuse]  (--reuse skips rebuilding the harness)
import type { MountOptions } from '../tests/e2e/harness/fixture';
import { type FrameTimes, benchFrames as frames, frameTimes, openCanvasBenchPage } from './canvasBenchPage';
import { machine } from './measure';

const { page, browser, close } = await openCanvasBenchPage();

interface FrameFigures extends FrameTimes {
  /** Main-thread time inside Pixi's render per rendered frame: the rest of a frame is the GPU's (here swiftshader's). */
  renderCpuMs: number;
}

function figures(deltas: number[], renderCpuMs: number): FrameFigures {
  return { ...frameTimes(deltas), renderCpuMs: Number(renderCpuMs.toFixed(3)) };
}

async function run(
  options: MountOptions,
  n = frames,
): Promise<{ renderer: string | null; figures: FrameFigures }> {
  const renderer = await page.evaluate((o) => window.canvasHarness.mount(o), options);
  const before = await page.evaluate(() => window.canvasHarness.stats());
  const deltas = await page.evaluate((count) => window.canvasHarness.measureFrames(count), n);
  const after = await page.evaluate(() => window.canvasHarness.stats());
  const cpu = (after.renderMs - before.renderMs) / Math.max(1, after.renderedFrames - before.renderedFrames);
  return { renderer, figures: figures(deltas, cpu) };
}

// A throwaway round first, so shader compilation and JIT warm-up land in no measurement.
await run({ zoneCount: 500 }, 30);
const baseline = await run({ blueprint: 'none' });
const blueprint = await run({});
const zones500 = await run({ zoneCount: 500 });

console.log(
  JSON.stringify(
    {
      bench: 'canvasZones',
      renderer: zones500.renderer,
      chromium: browser.version(),
      viewport: '1280×800 @1x',
      machine: machine(),
      baseline: baseline.figures,
      blueprint: blueprint.figures,
      zones500: zones500.figures,
      zonesCostP50Ms: Number((zones500.figures.p50Ms - blueprint.figures.p50Ms).toFixed(2)),
    },
    null,
    2,
  ),
);
await close();
