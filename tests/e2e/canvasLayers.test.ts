import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from './helpers/browser';
import { pngColoursAt, type Rgb, type StaticServer, serveCanvasHarness } from './helpers/canvasHarness';

/** Colours of a fresh screenshot at blueprint points, decoded by the browser. */
async function coloursAt(page: Page, points: [number, number][]): Promise<Rgb[]> {
  const png = await page.screenshot();
  const at = await Promise.all(
    points.map(([x, y]) =>
      page.evaluate(([ix, iy]) => window.canvasLayerProbe.pageAt(ix, iy), [x, y] as const),
    ),
  );
  return pngColoursAt(page, png, at);
}

const isMagenta = ([r, g, b]: Rgb) => r > 220 && g < 40 && b > 220;

describe('a layer added through the registry', () => {
  let server: StaticServer;
  let browser: Browser;

  beforeAll(async () => {
    server = await serveCanvasHarness();
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('is drawn by the unchanged engine: a static layer when its data changes, a per-frame one every frame', async () => {
    const context = await browser.newContext({
      viewport: { width: 1000, height: 700 },
      deviceScaleFactor: 1,
    });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(server.url);
    await page.waitForFunction(() => 'canvasHarness' in window);
    const renderer = await page.evaluate(() => window.canvasHarness.mountWithProbeLayers());
    console.log(`probe layers renderer: ${renderer}`);
    expect(renderer).toBe('webgl');
    await page.evaluate(() => window.canvasHarness.nextFrames(3));

    // Drawn once on the first frame; idle frames ask the per-frame layer and render nothing.
    const idle = await page.evaluate(async () => {
      const probe = window.canvasLayerProbe;
      const before = { ...probe.counts, ...probe.stats() };
      await window.canvasHarness.nextFrames(10);
      return { before, after: { ...probe.counts, ...probe.stats() } };
    });
    expect(idle.before.staticDraws).toBe(1);
    expect(idle.after.staticDraws).toBe(1);
    expect(idle.after.frameUpdates - idle.before.frameUpdates).toBeGreaterThanOrEqual(10);
    expect(idle.after.renderedFrames).toBe(idle.before.renderedFrames);

    // Panning renders every frame and moves the static layer with the world, never redrawing it.
    const panned = await page.evaluate(async () => {
      await window.canvasLayerProbe.pan(5);
      return { ...window.canvasLayerProbe.counts, ...window.canvasLayerProbe.stats() };
    });
    expect(panned.renderedFrames).toBeGreaterThanOrEqual(idle.after.renderedFrames + 5);
    expect(panned.staticDraws).toBe(1);
    expect(panned.frameUpdates - idle.after.frameUpdates).toBeGreaterThanOrEqual(5);

    const [inside, outside] = await coloursAt(page, [
      [300, 400],
      [900, 400],
    ]);
    expect(isMagenta(inside)).toBe(true);
    expect(isMagenta(outside)).toBe(false);

    // New data for the static layer: drawn again, once, where the data says.
    await page.evaluate(() => window.canvasLayerProbe.moveSquare({ x: 800, y: 300, size: 200 }));
    await expect.poll(() => page.evaluate(() => window.canvasLayerProbe.counts.staticDraws)).toBe(2);
    await page.evaluate(() => window.canvasHarness.nextFrames(3));
    expect(await page.evaluate(() => window.canvasLayerProbe.counts.staticDraws)).toBe(2);
    const [left, right] = await coloursAt(page, [
      [300, 400],
      [900, 400],
    ]);
    expect(isMagenta(left)).toBe(false);
    expect(isMagenta(right)).toBe(true);
    expect(errors).toEqual([]);
    await context.close();
  });
});
