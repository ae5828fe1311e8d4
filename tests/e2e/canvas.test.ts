import { writeFileSync } from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BLUEPRINT_COLOUR, type HarnessZone, type MountOptions } from './harness/fixture';
import { launchBrowser } from './helpers/browser';
import { pngColoursAt, type Rgb, type StaticServer, serveCanvasHarness } from './helpers/canvasHarness';

const zones: HarnessZone[] = [
  {
    id: 1,
    name: 'Gate assembly',
    kind: 'assembly',
    ring: [
      [100, 300],
      [500, 300],
      [500, 700],
      [100, 700],
    ],
  },
  {
    id: 2,
    name: 'Crane restricted',
    kind: 'restricted',
    ring: [
      [700, 300],
      [1100, 300],
      [1100, 800],
      [900, 900],
      [700, 800],
    ],
  },
  {
    id: 3,
    name: 'Level work',
    kind: 'work',
    ring: [
      [1300, 400],
      [1800, 400],
      [1800, 900],
      [1300, 900],
    ],
  },
];

/** A spot of plain blueprint: below the walls along the top, away from every zone. */
const OUTSIDE: [number, number] = [1000, 1050];

async function mount(page: Page, options: MountOptions): Promise<string | null> {
  return page.evaluate((o) => window.canvasHarness.mount(o), options);
}

async function pageAt(page: Page, x: number, y: number): Promise<{ x: number; y: number }> {
  return page.evaluate(([ix, iy]) => window.canvasHarness.pageAt(ix, iy), [x, y] as const);
}

async function selectedZone(page: Page): Promise<number | null> {
  const value = await page.locator('[data-testid="floor-canvas"]').getAttribute('data-selected-zone-id');
  return value === null ? null : Number(value);
}

/** Colours of a screenshot at image points, decoded by the browser (no PNG library in Node). */
async function screenshotColours(page: Page, png: Buffer, points: [number, number][]): Promise<Rgb[]> {
  const at = await Promise.all(points.map(([x, y]) => pageAt(page, x, y)));
  return pngColoursAt(page, png, at);
}

describe('the floor canvas in Chromium', () => {
  let server: StaticServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    server = await serveCanvasHarness();
    browser = await launchBrowser();
  });
  afterEach(() => context?.close());
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  async function open(): Promise<Page> {
    context = await browser.newContext({ viewport: { width: 1200, height: 800 }, deviceScaleFactor: 1 });
    page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(server.url);
    await page.waitForFunction(() => 'canvasHarness' in window);
    expect(errors).toEqual([]);
    return page;
  }

  it('draws the blueprint and zones with WebGL, selects by click, cycles by keyboard, pans and zooms', async () => {
    await open();
    const renderer = await mount(page, { zones });
    console.log(`floor canvas renderer: ${renderer}`);
    expect(renderer).toBe('webgl');
    const canvas = page.locator('[data-testid="floor-canvas"] canvas');
    expect(await canvas.getAttribute('tabindex')).toBe('0');
    expect(await canvas.getAttribute('aria-label')).toBe('Floor plan of Level 1');

    const png = await page.screenshot({ path: 'test-output/screenshots/canvas.png' });
    const [outside, assembly, restricted, work] = await screenshotColours(page, png, [
      OUTSIDE,
      [300, 500],
      [900, 600],
      [1550, 650],
    ]);
    for (let i = 0; i < 3; i++) expect(Math.abs(outside[i] - BLUEPRINT_COLOUR[i])).toBeLessThanOrEqual(4);
    // 35 % of the kind's colour over the beige blueprint.
    expect(restricted[0] - restricted[1]).toBeGreaterThan(30);
    expect(restricted[0] - restricted[2]).toBeGreaterThan(30);
    expect(assembly[1] - assembly[0]).toBeGreaterThan(20);
    expect(assembly[1] - assembly[2]).toBeGreaterThan(15);
    expect(work[2] - work[0]).toBeGreaterThan(30);

    // An idle floor renders nothing; a pan renders but never rebuilds the zones' geometry.
    const idle = await page.evaluate(async () => {
      const before = window.canvasHarness.stats();
      await window.canvasHarness.nextFrames(10);
      return { before, after: window.canvasHarness.stats() };
    });
    expect(idle.after.renderedFrames).toBe(idle.before.renderedFrames);
    const panFrames = await page.evaluate(async () => {
      await window.canvasHarness.measureFrames(5);
      return window.canvasHarness.stats();
    });
    expect(panFrames.renderedFrames).toBeGreaterThanOrEqual(idle.before.renderedFrames + 5);
    expect(panFrames.zoneRedraws).toBe(idle.before.zoneRedraws);

    // Clicking inside the red zone selects it, and says so to screen readers.
    const red = await pageAt(page, 900, 600);
    await page.mouse.click(red.x, red.y);
    await expect.poll(() => selectedZone(page)).toBe(2);
    expect(await page.getByTestId('floor-canvas-selection').innerText()).toBe('Crane restricted');
    const pointer = await page.evaluate(() => window.canvasHarness.pointerEvents);
    expect(pointer.find((e) => e.type === 'down')).toMatchObject({ zoneId: 2 });
    expect(pointer.find((e) => e.type === 'down')?.lat).toBeGreaterThan(25.2);

    // The click focused the canvas: Tab cycles the zones, arrows wrap, Tab past the end leaves.
    await page.keyboard.press('Tab');
    await expect.poll(() => selectedZone(page)).toBe(3);
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => selectedZone(page)).toBe(1);
    await page.keyboard.press('Shift+Tab');
    expect(await page.evaluate(() => document.activeElement?.tagName)).not.toBe('CANVAS');
    expect(await selectedZone(page)).toBe(1);
    expect(await page.evaluate(() => window.canvasHarness.selections)).toEqual([2, 3, 1]);

    // Clicking plain blueprint clears the selection.
    const empty = await pageAt(page, ...OUTSIDE);
    await page.mouse.click(empty.x, empty.y);
    await expect.poll(() => selectedZone(page)).toBe(null);

    // Dragging pans (and a drag is not a click: nothing gets selected).
    const before = await page.evaluate(() => window.canvasHarness.view());
    await page.mouse.move(red.x, red.y);
    await page.mouse.down();
    for (let i = 1; i <= 5; i++) await page.mouse.move(red.x + 20 * i, red.y + 10 * i);
    await page.mouse.up();
    const panned = await page.evaluate(() => window.canvasHarness.view());
    expect(panned.x - before.x).toBeCloseTo(100, 5);
    expect(panned.y - before.y).toBeCloseTo(50, 5);
    expect(await selectedZone(page)).toBe(null);

    // The wheel zooms around the cursor: the point under it stays put.
    await page.mouse.move(600, 400);
    const under = await page.evaluate(() => {
      const v = window.canvasHarness.view();
      return { x: (600 - v.x) / v.scale, y: (400 - v.y) / v.scale };
    });
    await page.mouse.wheel(0, -300);
    await expect
      .poll(async () => (await page.evaluate(() => window.canvasHarness.view())).scale)
      .toBeGreaterThan(panned.scale * 1.5);
    const stays = await pageAt(page, under.x, under.y);
    const canvasBox = (await canvas.boundingBox())!;
    expect(stays.x - canvasBox.x).toBeCloseTo(600 - canvasBox.x, 3);
    expect(stays.y - canvasBox.y).toBeCloseTo(400 - canvasBox.y, 3);

    // The buttons: zoom out, then fit puts the first view back.
    const zoomed = await page.evaluate(() => window.canvasHarness.view().scale);
    await page.getByRole('button', { name: 'Zoom out' }).click();
    expect(await page.evaluate(() => window.canvasHarness.view().scale)).toBeCloseTo(zoomed / 1.25, 6);
    await page.getByRole('button', { name: 'Zoom in' }).click();
    expect(await page.evaluate(() => window.canvasHarness.view().scale)).toBeCloseTo(zoomed, 6);
    await page.getByRole('button', { name: 'Fit to floor' }).click();
    expect(await page.evaluate(() => window.canvasHarness.view())).toEqual(before);
  });

  it('reports a blueprint that cannot be drawn and still draws the zones', async () => {
    await open();
    expect(await mount(page, { zones, blueprint: 'broken' })).toBe('webgl');
    const host = page.locator('[data-testid="floor-canvas"]');
    await expect.poll(() => host.getAttribute('data-error')).toBe('blueprint');
    const status = await page.evaluate(() => window.canvasHarness.status);
    expect(status?.errors.blueprint).toMatch(/blueprint/i);
    const png = await page.screenshot();
    writeFileSync('test-output/screenshots/canvas-broken-blueprint.png', png);
    const [restricted] = await screenshotColours(page, png, [[900, 600]]);
    expect(restricted[0] - restricted[1]).toBeGreaterThan(30);
  });
});
