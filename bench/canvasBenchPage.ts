import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser } from '../tests/e2e/helpers/browser';
import {
  buildCanvasHarness,
  CANVAS_HARNESS_DIR,
  serveCanvasHarness,
} from '../tests/e2e/helpers/canvasHarness';

/**
 * The canvas harness in Chromium at 1280×800, 1×; `--reuse` skips rebuilding the harness.
 * `query` is added to the page's address (`?mode=playback`, see tests/e2e/harness/fixture.ts).
 */
export async function openCanvasBenchPage(query = ''): Promise<{
  page: Page;
  browser: Browser;
  close(): Promise<void>;
}> {
  const reuse = process.argv.includes('--reuse') && existsSync(join(CANVAS_HARNESS_DIR, 'canvas.html'));
  if (!reuse) await buildCanvasHarness();
  const server = await serveCanvasHarness();
  const browser = await launchBrowser();
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 }, deviceScaleFactor: 1 });
  await page.goto(server.url + query);
  await page.waitForFunction(() => 'canvasHarness' in window);
  return {
    page,
    browser,
    async close() {
      await browser.close();
      await server.close();
    },
  };
}

/** Frames to measure: the first bare number on the command line, 200 by default. */
export const benchFrames = Number(process.argv.find((a) => /^\d+$/.test(a)) ?? 200);

export interface FrameTimes {
  frames: number;
  p50Ms: number;
  p95Ms: number;
  meanMs: number;
  fps: number;
}

/** requestAnimationFrame deltas summed up: 16.7 ms is the 60 Hz ceiling. */
export function frameTimes(deltas: readonly number[]): FrameTimes {
  const sorted = [...deltas].sort((a, b) => a - b);
  const at = (q: number) =>
    Number(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))].toFixed(2));
  const mean = deltas.reduce((s, d) => s + d, 0) / deltas.length;
  return {
    frames: deltas.length,
    p50Ms: at(0.5),
    p95Ms: at(0.95),
    meanMs: Number(mean.toFixed(2)),
    fps: Math.round(1000 / mean),
  };
}
