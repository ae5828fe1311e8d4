// What 500 zones cost the floor canvas per frame in Chromium: requestAnimationFrame deltas while
// the view pans every frame (so every frame renders), for an empty canvas, the blueprint alone
// and the blueprint with 500 zones, all in the same browser in the same run.
// Usage: npx tsx bench/canvasZones.bench.ts [frames] [--reuse]  (--reuse skips rebuilding the harness)
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { MountOptions } from '../tests/e2e/harness/fixture';
import { launchBrowser } from '../tests/e2e/helpers/browser';
import {
  buildCanvasHarness,
  CANVAS_HARNESS_DIR,
  serveCanvasHarness,
} from '../tests/e2e/helpers/canvasHarness';
import { machine } from './measure';

const frames = Number(process.argv.find((a) => /^\d+$/.test(a)) ?? 200);
const reuse = process.argv.includes('--reuse') && existsSync(join(CANVAS_HARNESS_DIR, 'canvas.html'));
if (!reuse) await buildCanvasHarness();

const server = await serveCanvasHarness();
const browser = await launchBrowser();
const page = await browser.newPage({ viewport: { width: 1280, height: 800 }, deviceScaleFactor: 1 });
await page.goto(server.url);
await page.waitForFunction(() => 'canvasHarness' in window);

interface FrameFigures {
  frames: number;
  /** Main-thread time inside Pixi's render per rendered frame: the rest of a frame is the GPU's (here swiftshader's). */
  renderCpuMs: number;
  p50Ms: number;
  p95Ms: number;
  meanMs: number;
  fps: number;
}

function figures(deltas: number[], renderCpuMs: number): FrameFigures {
  const sorted = [...deltas].sort((a, b) => a - b);
  const at = (q: number) =>
    Number(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))].toFixed(2));
  const mean = deltas.reduce((s, d) => s + d, 0) / deltas.length;
  return {
    frames: deltas.length,
    renderCpuMs: Number(renderCpuMs.toFixed(3)),
    p50Ms: at(0.5),
    p95Ms: at(0.95),
    meanMs: Number(mean.toFixed(2)),
    fps: Math.round(1000 / mean),
  };
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
await browser.close();
await server.close();
