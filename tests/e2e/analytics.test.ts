import { mkdirSync } from 'node:fs';
import { and, count, eq, isNotNull } from 'drizzle-orm';
import type mqtt from 'mqtt';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildings, floors, inventoryItems, positions, sites } from '../../server/db/schema';
import { calendarDateIn } from '../../src/domain/calendarDate';
import { floorGrid } from '../../src/domain/geo';
import { topicFor } from '../../src/domain/live';
import { browserSuite } from './helpers/browserSuite';
import { pngColoursAt, type Rgb } from './helpers/canvasHarness';
import { blueprintPoint, openLivePage } from './helpers/liveFloor';
import { E2E_OUTPUT_DIR } from './helpers/outputDir';

const byTestId = (id: string) => `[data-testid="${id}"]`;
const SCREENSHOTS = `${E2E_OUTPUT_DIR}/screenshots`;

/**
 * Two helmets stand still on one floor for 30 and 15 minutes (one position a second, the last
 * hour), through the real MQTT ingest: 0.50 and 0.25 worker-hours, 0.75 for the floor.
 */
const STAYS = [
  { u: 0.3, v: 0.4, seconds: 1800, hours: '0.50' },
  { u: 0.7, v: 0.6, seconds: 900, hours: '0.25' },
] as const;
const PER_MESSAGE = 600;
/** The bars' colour (AnalyticsChart.tsx). */
const BAR_GREEN: Rgb = [0x23, 0x85, 0x51];
const near = (a: Rgb, b: Rgb) => a.every((c, i) => Math.abs(c - b[i]) <= 40);

describe('analytics: the overview and the heatmap', () => {
  const suite = browserSuite({ live: true });
  let page: Page;
  let publisher: mqtt.MqttClient;
  let floor: typeof floors.$inferSelect;
  let timezone: string;
  let centres: { u: number; v: number }[];

  beforeAll(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    ({ page, publisher } = await openLivePage(suite, { width: 1400, height: 1000 }));
    const { db, siteId } = suite.server;
    [{ floor }] = await db
      .select({ floor: floors })
      .from(floors)
      .innerJoin(buildings, eq(buildings.id, floors.buildingId))
      .where(eq(buildings.siteId, siteId))
      .orderBy(floors.id)
      .limit(1);
    [{ timezone }] = await db.select({ timezone: sites.timezone }).from(sites).where(eq(sites.id, siteId));
    const helmets = await db
      .select()
      .from(inventoryItems)
      .where(
        and(
          eq(inventoryItems.siteId, siteId),
          eq(inventoryItems.type, 'helmet'),
          isNotNull(inventoryItems.workerId),
        ),
      )
      .orderBy(inventoryItems.id)
      .limit(STAYS.length);
    const pointAt = blueprintPoint(floor);
    // Each stay stands at the centre of its grid cell, so the probe below lands inside the cell.
    const grid = floorGrid(
      {
        a: { lat: floor.aLat, long: floor.aLong },
        b: { lat: floor.bLat, long: floor.bLong },
        c: { lat: floor.cLat, long: floor.cLong },
        d: { lat: floor.dLat, long: floor.dLong },
      },
      floor.cellSizeMetres,
    );
    centres = STAYS.map((stay) => {
      const cell = grid.cellOf(pointAt(stay.u, stay.v))!;
      const rect = grid.cellRect(cell.x, cell.y);
      return { u: rect.left + rect.width / 2, v: rect.top + rect.height / 2 };
    });
    const start = Date.now() - 45 * 60_000;
    for (const [i, stay] of STAYS.entries()) {
      const helmet = helmets[i];
      const { lat, long } = pointAt(centres[i].u, centres[i].v);
      const topic = topicFor(helmet.siteId, 'positions', suite.server.topicRoot);
      for (let first = 0; first < stay.seconds; first += PER_MESSAGE) {
        const batch = Array.from({ length: Math.min(PER_MESSAGE, stay.seconds - first) }, (_, k) => ({
          tag: helmet.wntInventoryId,
          ts: new Date(start + (first + k) * 1000).toISOString(),
          lat,
          long,
          floorId: floor.id,
          online: true,
          active: true,
        }));
        await publisher.publishAsync(topic, JSON.stringify(batch), { qos: 1 });
      }
    }
    const stored = async () =>
      (
        await db
          .select({ n: count() })
          .from(positions)
          .where(and(eq(positions.siteId, siteId), eq(positions.floorId, floor.id)))
      )[0].n;
    // expect.poll belongs to tests; a hook waits by hand.
    const wanted = STAYS[0].seconds + STAYS[1].seconds;
    for (const deadline = Date.now() + 30_000; (await stored()) < wanted; ) {
      if (Date.now() > deadline) throw new Error(`only ${await stored()} of ${wanted} positions were stored`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }, 60_000);

  afterAll(async () => {
    await publisher?.endAsync();
  });

  /** The range starts a week back, so positions of the last hour are in it whatever the weekday. */
  async function widenRange(prefix: string) {
    const today = calendarDateIn(timezone);
    const weekAgo = new Date(Date.parse(`${today}T00:00:00Z`) - 7 * 86_400_000).toISOString().slice(0, 10);
    await page.fill(byTestId(`${prefix}-from`), weekAgo);
  }

  it('shows the worker-hours and headcount of those positions on /analytics', async () => {
    await page.goto(`${suite.server.baseUrl}/analytics`);
    await page.waitForSelector(byTestId('analytics-overview'));
    await widenRange('analytics');
    const floorChart = page.locator(byTestId('analytics-floors-chart-canvas'));
    await expect
      .poll(() => floorChart.getAttribute('aria-label'), { timeout: 30_000 })
      .toContain(`${floor.name}: 0.75`);
    await expect.poll(() => page.locator(byTestId('analytics-live-workers')).innerText()).toBe('2');
    expect(await page.locator(byTestId('analytics-live-hours')).innerText()).toBe('0.75');
    expect(await page.locator(byTestId('analytics-live')).innerText()).toContain(
      'Data covers the last 1 hour',
    );
    // Two workers in at least one hour of the headcount line.
    expect(
      await page.locator(byTestId('analytics-headcount-chart-canvas')).getAttribute('aria-label'),
    ).toMatch(/: 2(;|$)/);
    await page.waitForSelector(`${byTestId('analytics-progress')}`, { state: 'detached' });
    await page.screenshot({ path: `${SCREENSHOTS}/analytics-overview.png`, fullPage: true });
  });

  it('paints heat where they stood on /analytics/heatmap and tells a cell’s worker-hours on hover', async () => {
    await page.click(byTestId('analytics-tab-/analytics/heatmap'));
    await page.waitForSelector(byTestId('heatmap-floor-picker'));
    // The site's floors of both blocks, each named with its building: no two alike.
    await expect
      .poll(() => page.locator(`${byTestId('heatmap-floor-picker')} option`).allInnerTexts())
      .toContain('Level 2 · North Block');
    const floorLabels = await page.locator(`${byTestId('heatmap-floor-picker')} option`).allInnerTexts();
    expect(new Set(floorLabels).size, floorLabels.join(' | ')).toBe(floorLabels.length);
    await page.selectOption(byTestId('heatmap-floor-picker'), String(floor.id));
    await widenRange('heatmap');
    await page.waitForSelector(`${byTestId('heatmap-status')}[data-state="ready"]`, {
      state: 'attached',
      timeout: 30_000,
    });
    expect(await page.locator(byTestId('heatmap-legend-max')).innerText()).toBe('0.50');
    expect(await page.locator(byTestId('heatmap-total')).innerText()).toContain('0.75');

    // Forty days are refused at once, in the server's words; the range and the heat stay as they were.
    const from = await page.locator(byTestId('heatmap-from')).inputValue();
    const today = calendarDateIn(timezone);
    const fortyDaysBack = new Date(Date.parse(`${today}T00:00:00Z`) - 39 * 86_400_000)
      .toISOString()
      .slice(0, 10);
    await page.fill(byTestId('heatmap-from'), fortyDaysBack);
    await expect
      .poll(() => page.locator(byTestId('heatmap-range-error')).innerText())
      .toBe('The range may span at most 31 days');
    expect(await page.locator(byTestId('heatmap-from')).inputValue()).toBe(from);
    expect(await page.locator(byTestId('heatmap-total')).innerText()).toContain('0.75');
    // The next range that fits is taken, and the message goes.
    await page.fill(byTestId('heatmap-from'), today);
    await page.waitForSelector(byTestId('heatmap-range-error'), { state: 'detached' });
    await page.fill(byTestId('heatmap-from'), from);

    const canvas = page.locator(`${byTestId('heatmap-canvas')} ${byTestId('floor-canvas')}`);
    const renderer = await page.locator(byTestId('heatmap-canvas')).getAttribute('data-renderer');
    console.info(`heatmap renderer: ${renderer}`);
    expect(['webgl', 'canvas', 'webgpu']).toContain(renderer);
    const view = await canvas.evaluate(
      (
        element: HTMLElement & {
          floorCanvasDebug?: () => { view: { x: number; y: number; scale: number } } | null;
        },
      ) => element.floorCanvasDebug?.()?.view ?? null,
    );
    const width = floor.blueprintWidth ?? 1000;
    const height = floor.blueprintHeight ?? 1000;
    const onScreen = (u: number, v: number) => ({
      x: view!.x + u * width * view!.scale,
      y: view!.y + v * height * view!.scale,
    });
    const hot = onScreen(centres[0].u, centres[0].v);
    const warm = onScreen(centres[1].u, centres[1].v);
    const cold = onScreen(0.1, 0.9);
    // The frame is drawn on the next animation frame after the cells arrive.
    await page.waitForTimeout(300);
    const png = await canvas.screenshot({ path: `${SCREENSHOTS}/analytics-heatmap-canvas.png` });
    const [atHot, atWarm, atCold] = await pngColoursAt(page, png, [hot, warm, cold]);
    const heat = ([r, , b]: Rgb) => r - b;
    // The busiest cell is deep red, the half as busy one yellow, an empty spot the floor's own colour.
    expect(heat(atHot), `hot ${atHot}`).toBeGreaterThan(60);
    expect(heat(atWarm), `warm ${atWarm}`).toBeGreaterThan(60);
    expect(atWarm[1], `warm ${atWarm}`).toBeGreaterThan(atHot[1] + 60);
    const distance = (a: Rgb, b: Rgb) => a.reduce((sum, c, i) => sum + Math.abs(c - b[i]), 0);
    expect(distance(atCold, atHot), `cold ${atCold}`).toBeGreaterThan(90);

    const box = (await canvas.boundingBox())!;
    await page.mouse.move(box.x + hot.x, box.y + hot.y);
    await expect
      .poll(() => page.locator(byTestId('heatmap-tooltip')).innerText(), { timeout: 5000 })
      .toBe(`${STAYS[0].hours} worker-hours`);
    await page.mouse.move(box.x + warm.x, box.y + warm.y);
    await expect
      .poll(() => page.locator(byTestId('heatmap-tooltip')).innerText(), { timeout: 5000 })
      .toBe(`${STAYS[1].hours} worker-hours`);
    await page.screenshot({ path: `${SCREENSHOTS}/analytics-heatmap.png` });
  });

  it('reads right to left in Arabic on both screens', async () => {
    await page.selectOption(byTestId('language-switch'), 'ar');
    await page.waitForFunction(() => document.documentElement.dir === 'rtl');
    await expect.poll(() => page.locator(byTestId('heatmap-legend')).innerText()).toContain('ساعات العمل');
    // The legend's scale runs from the right: 0.00 at its right end.
    const scale = page.locator(`${byTestId('heatmap-legend')} .sw-heatmap-legend-scale span`);
    const zero = (await scale.first().boundingBox())!;
    const max = (await scale.last().boundingBox())!;
    expect(zero.x).toBeGreaterThan(max.x);
    await page.screenshot({ path: `${SCREENSHOTS}/analytics-heatmap-ar.png` });

    await page.click(byTestId('analytics-tab-/analytics'));
    await page.waitForSelector(byTestId('analytics-overview'));
    await widenRange('analytics');
    await expect
      .poll(() => page.locator(byTestId('analytics-live')).innerText(), { timeout: 30_000 })
      .toContain('تغطي البيانات آخر ساعة واحدة');
    await expect
      .poll(() => page.locator(byTestId('analytics-floors-chart-canvas')).getAttribute('aria-label'), {
        timeout: 30_000,
      })
      .toContain(`${floor.name}: 0.75`);
    await page.screenshot({ path: `${SCREENSHOTS}/analytics-overview-ar.png`, fullPage: true });

    // After a reload the stored Arabic applies from the start, and the charts still mirror: the
    // floor's bar grows leftwards from its name on the right, as in English it grows rightwards.
    await page.reload();
    const floorsChart = page.locator(byTestId('analytics-floors-chart-canvas'));
    await expect
      .poll(() => floorsChart.getAttribute('aria-label'), { timeout: 30_000 })
      .toContain(`${floor.name}: 0.75`);
    /** The space on either side of the floor's bar, across the middle of the chart. */
    const barGaps = async (name: string) => {
      const chart = (await floorsChart.boundingBox())!;
      const across = Array.from({ length: Math.floor(chart.width / 2) }, (_, i) => ({
        x: chart.x + 2 * i,
        y: chart.y + chart.height * 0.45,
      }));
      const png = await page.screenshot({ path: `${SCREENSHOTS}/analytics-overview-${name}.png` });
      const green = (await pngColoursAt(page, png, across))
        .map((colour, i) => (near(colour, BAR_GREEN) ? across[i].x : null))
        .filter((x): x is number => x !== null);
      if (green.length < 10) return null;
      return { left: Math.min(...green) - chart.x, right: chart.x + chart.width - Math.max(...green) };
    };
    await page.waitForTimeout(300);
    const arabic = (await barGaps('ar-reloaded'))!;
    expect(arabic, 'the floor bar in Arabic').not.toBeNull();
    await page.selectOption(byTestId('language-switch'), 'en');
    await page.waitForFunction(() => document.documentElement.dir === 'ltr');
    await expect.poll(() => barGaps('en')).not.toEqual(arabic);
    const english = (await barGaps('en'))!;
    expect(Math.abs(english.left - english.right), 'names and bar end apart').toBeGreaterThan(4);
    expect(
      Math.abs(arabic.left - english.right),
      `${JSON.stringify({ arabic, english })}`,
    ).toBeLessThanOrEqual(4);
    expect(
      Math.abs(arabic.right - english.left),
      `${JSON.stringify({ arabic, english })}`,
    ).toBeLessThanOrEqual(4);
  });
});
