import { mkdirSync } from 'node:fs';
import { asc, eq, isNotNull } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { floors, sites } from '../../server/db/schema';
import { greatCircleDistance } from '../../src/domain/distance';
import type { GeoPoint } from '../../src/domain/geo';
import { browserSuite } from './helpers/browserSuite';
import { pngColoursAt, type Rgb } from './helpers/canvasHarness';
import { blueprintPoint, drawnWorkers, helmetsOfWorkers } from './helpers/liveFloor';
import { E2E_OUTPUT_DIR } from './helpers/outputDir';
import { signIn } from './helpers/pages';

/**
 * Issue 16's history screens driven as a user would: positions with known paths go through the
 * real HTTP ingest, then a site admin draws two workers' trails (/analytics/spaghetti), replays the
 * floor (/analytics/playback) and opens one worker's day from the worker's page.
 */

const SCREENSHOTS = `${E2E_OUTPUT_DIR}/screenshots`;
const byTestId = (id: string) => `[data-testid="${id}"]`;
/** The first two trail colours of the palette (TrailsLayer.ts): blue, orange. */
const BLUE: Rgb = [0x1f, 0x77, 0xb4];
const ORANGE: Rgb = [0xff, 0x7f, 0x0e];

interface Sample {
  ms: number;
  u: number;
  v: number;
}

/**
 * Worker A stays six minutes at (0.3, 0.2) in the Fit-out area (a stop), then walks along v = 0.35
 * from u = 0.15 to 0.85 in five minutes; worker B walks along v = 0.7 in ten. One position a second.
 */
function paths(t0: number): { a: Sample[]; b: Sample[] } {
  const a: Sample[] = [];
  const b: Sample[] = [];
  for (let s = 0; s < 360; s++) a.push({ ms: t0 + s * 1000, u: 0.3, v: 0.2 });
  for (let s = 0; s <= 300; s++) a.push({ ms: t0 + (360 + s) * 1000, u: 0.15 + (0.7 * s) / 300, v: 0.35 });
  for (let s = 0; s <= 600; s++) b.push({ ms: t0 + s * 1000, u: 0.15 + (0.7 * s) / 600, v: 0.7 });
  return { a, b };
}

/** How long the walks of `paths` last, from the first position to the last. */
const WALKS_MS = 660_000;

function metres(points: GeoPoint[]): number {
  let total = 0;
  for (let i = 1; i < points.length; i++) total += greatCircleDistance(points[i - 1], points[i]);
  return total;
}

/** The site's wall clock at an instant: the history screens show the site's time, not the browser's. */
function wallClock(ms: number, timeZone: string): { day: string; time: string } {
  const parts: Record<string, string> = {};
  const format = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  });
  for (const part of format.formatToParts(ms)) parts[part.type] = part.value;
  return {
    day: `${parts.year}-${parts.month}-${parts.day}`,
    time: `${parts.hour}:${parts.minute}:${parts.second}`,
  };
}

const near = (a: Rgb, b: Rgb, tolerance = 70) => a.every((c, i) => Math.abs(c - b[i]) <= tolerance);

describe('history screens in Chromium', () => {
  const suite = browserSuite();
  let page: Page;
  let floor: typeof floors.$inferSelect;
  let at: (u: number, v: number) => GeoPoint;
  const workers: { id: number; name: string; tag: string; samples: Sample[] }[] = [];
  let t0: number;
  let timeZone: string;
  /** `HH:MM:SS` on the site's clock. */
  const clock = (ms: number) => wallClock(ms, timeZone).time;
  /** The site's day of an instant, as the date inputs take it. */
  const siteDay = (ms: number) => wallClock(ms, timeZone).day;

  /** Where image point (u, v) of the floor is on the page, through the canvas's own view. */
  async function onScreen(container: string, u: number, v: number): Promise<{ x: number; y: number }> {
    const box = (await page.locator(`${byTestId(container)} canvas`).boundingBox())!;
    const view = await page.evaluate((testId) => {
      const element = document.querySelector(`[data-testid="${testId}"] [data-testid="floor-canvas"]`) as
        | (HTMLElement & {
            floorCanvasDebug?: () => { view: { scale: number; x: number; y: number } } | null;
          })
        | null;
      return element?.floorCanvasDebug?.()?.view ?? null;
    }, container);
    if (!view) throw new Error('the canvas has no view');
    return {
      x: box.x + u * floor.blueprintWidth! * view.scale + view.x,
      y: box.y + v * floor.blueprintHeight! * view.scale + view.y,
    };
  }

  beforeAll(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    const db = suite.server.db;
    [floor] = await db
      .select()
      .from(floors)
      .where(isNotNull(floors.blueprintFile))
      .orderBy(asc(floors.id))
      .limit(1);
    at = blueprintPoint(floor);
    [{ timeZone }] = await db
      .select({ timeZone: sites.timezone })
      .from(sites)
      .where(eq(sites.id, suite.server.siteId));
    // Twenty minutes ago, on the second, so the day's replay holds all of it; eleven minutes earlier
    // still when the walks would cross the site's midnight, since each screen shows one site day.
    t0 = Math.floor((Date.now() - 20 * 60_000) / 1000) * 1000;
    if (siteDay(t0) !== siteDay(t0 + WALKS_MS)) t0 -= WALKS_MS;
    const { a, b } = paths(t0);
    const worn = await helmetsOfWorkers(db, 2);
    for (const [i, { worker, helmet }] of worn.entries()) {
      workers.push({
        id: worker.id,
        name: worker.name,
        tag: helmet.wntInventoryId,
        samples: i === 0 ? a : b,
      });
    }
    const { password } = await suite.server.deviceLogin();
    const body = workers.flatMap(({ tag, samples }) =>
      samples.map(({ ms, u, v }) => ({
        tag,
        ts: new Date(ms).toISOString(),
        ...at(u, v),
        floorId: floor.id,
        online: true,
        active: true,
      })),
    );
    body.sort((x, y) => x.ts.localeCompare(y.ts));
    const reply = await fetch(`${suite.server.baseUrl}/api/ingest/${suite.server.siteId}/positions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${password}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const result = (await reply.json()) as { data: { accepted: number; rejected: object } };
    expect(result.data).toEqual({ accepted: body.length, rejected: {} });
    page = await suite.browser.newPage({ viewport: { width: 1500, height: 1000 } });
    await signIn(page, suite.server.baseUrl, 'site-admin@demo.sitewatch.dev');
  });
  afterAll(() => page?.close());

  it('draws two chosen workers’ trails in two colours where they walked, with their path lengths', async () => {
    await page.goto(`${suite.server.baseUrl}/analytics/spaghetti`);
    await page.selectOption(byTestId('spaghetti-floor'), String(floor.id));
    // From a minute before the walks, on the site's clock (the default, the site's midnight, may be after T0).
    const start = wallClock(t0 - 60_000, timeZone);
    await page.fill(byTestId('spaghetti-from'), `${start.day}T${start.time.slice(0, 5)}`);
    for (const worker of workers) {
      await page.fill(byTestId('assign-search'), worker.name);
      await page.locator(byTestId('assign-option'), { hasText: worker.name }).first().click();
    }
    await expect.poll(() => page.locator(byTestId('spaghetti-worker')).count()).toBe(2);
    await page.waitForSelector(`${byTestId('spaghetti-progress')}[data-done]`);
    const lengths = page.locator(byTestId('spaghetti-path-length'));
    await expect.poll(() => lengths.count(), { timeout: 10_000 }).toBe(2);
    const shown = (await lengths.allInnerTexts()).map((text) =>
      Number(/([\d,.]+) m/.exec(text)![1].replace(/,/g, '')),
    );
    workers.forEach((worker, i) => {
      const expected = metres(worker.samples.map(({ u, v }) => at(u, v)));
      expect(
        Math.abs(shown[i] - expected) / expected,
        `${worker.name}: ${shown[i]} vs ${expected}`,
      ).toBeLessThan(0.02);
    });
    // Time per zone: A's six-minute stop was in the Fit-out area.
    expect(await page.locator(byTestId('spaghetti-worker')).first().innerText()).toContain('Fit-out area');

    const canvas = byTestId('spaghetti-canvas');
    await page.waitForSelector(`${canvas} [data-renderer]`);
    const renderer = await page
      .locator(`${canvas} [data-testid="floor-canvas"]`)
      .getAttribute('data-renderer');
    console.info(`spaghetti canvas renderer: ${renderer}`);
    // Let the canvas draw the trails, then read its pixels.
    await page.waitForTimeout(500);
    const points = [
      await onScreen('spaghetti-canvas', 0.7, 0.35),
      await onScreen('spaghetti-canvas', 0.45, 0.7),
      await onScreen('spaghetti-canvas', 0.7, 0.55),
    ];
    const png = await page.screenshot({ path: `${SCREENSHOTS}/spaghetti.png` });
    const [onA, onB, between] = await pngColoursAt(page, png, points);
    expect(near(onA, BLUE), `A's trail ${onA}`).toBe(true);
    expect(near(onB, ORANGE), `B's trail ${onB}`).toBe(true);
    expect(near(between, BLUE) || near(between, ORANGE), `nobody walked there ${between}`).toBe(false);
  });

  it('replays the floor: a clock time puts markers where the workers were, play moves them, pause stops', async () => {
    await page.goto(`${suite.server.baseUrl}/analytics/playback`);
    await page.selectOption(byTestId('playback-floor'), String(floor.id));
    await page.fill(byTestId('playback-day'), siteDay(t0));
    // The history at the playhead (the day's start) is in: the player is ready long before the day is.
    await expect
      .poll(() => page.locator(byTestId('playback-screen')).getAttribute('data-state'), { timeout: 10_000 })
      .toBe('paused');
    await expect.poll(() => page.locator(byTestId('playback-toggle')).isEnabled()).toBe(true);
    // "Who was where at T0 + 8 min": A 40 % along its walk, B 80 % along its own.
    const when = t0 + 480_000;
    await page.fill(byTestId('playback-jump'), clock(when));
    await page.press(byTestId('playback-jump'), 'Enter');
    await expect.poll(() => page.locator(byTestId('playback-clock')).innerText()).toBe(clock(when));
    const expected = new Map([
      [workers[0].id, { u: 0.15 + 0.7 * 0.4, v: 0.35 }],
      [workers[1].id, { u: 0.15 + 0.7 * 0.8, v: 0.7 }],
    ]);
    type Drawn = { inventory_id: number; x: number; y: number };
    const markers = async () => drawnWorkers<Drawn>(page, 'playback-canvas');
    await expect.poll(async () => (await markers()).length, { timeout: 10_000 }).toBe(2);
    const first = await markers();
    const helmets = await helmetsOfWorkers(suite.server.db, 2);
    for (const { helmet, worker } of helmets) {
      const marker = first.find((m) => m.inventory_id === helmet.id)!;
      const want = expected.get(worker.id)!;
      expect(Math.abs(marker.x - want.u * floor.blueprintWidth!)).toBeLessThan(2);
      expect(Math.abs(marker.y - want.v * floor.blueprintHeight!)).toBeLessThan(2);
    }
    // The jump did not wait for the whole day: the windows around the playhead came first, and
    // the progress counts windows fetched of the day's (one a minute), far from all of them.
    const progress = page.locator(byTestId('playback-progress'));
    const fetched = Number(await progress.getAttribute('data-fetched'));
    const total = Number(await progress.getAttribute('data-total'));
    expect(total).toBeGreaterThanOrEqual(Math.floor((when - t0) / 60_000));
    expect(fetched, `${fetched} of ${total} windows`).toBeLessThan(total);
    expect(fetched, `${fetched} of ${total} windows`).toBeLessThanOrEqual(40);
    expect(await progress.innerText()).toMatch(/\d+ of [\d,]+/);
    await page.screenshot({ path: `${SCREENSHOTS}/playback-jump.png` });

    await page.selectOption(byTestId('playback-speed'), '600');
    // Space plays (the player's keyboard shortcut) …
    await page.focus(byTestId('playback-screen'));
    await page.keyboard.press(' ');
    // … and the pause button stops it as soon as the clock has run 30 s (at 600× each frame is
    // seconds of the day, so the page itself watches the clock rather than a round trip per look).
    await page.evaluate(
      (target) =>
        new Promise<void>((done) => {
          const clockOf = () =>
            Number(document.querySelector('[data-testid="playback-clock"]')!.getAttribute('data-ms'));
          const look = () => {
            if (clockOf() <= target) return requestAnimationFrame(look);
            (document.querySelector('[data-testid="playback-toggle"]') as HTMLButtonElement).click();
            done();
          };
          look();
        }),
      when + 30_000,
    );
    await expect
      .poll(() => page.locator(byTestId('playback-screen')).getAttribute('data-state'))
      .toBe('paused');
    const paused = Number(await page.locator(byTestId('playback-clock')).getAttribute('data-ms'));
    expect(paused).toBeGreaterThan(when + 30_000);
    // The markers are where each worker was at the paused playhead: its last position before it.
    await expect
      .poll(
        async () => {
          const drawn = await markers();
          return helmets.map(({ helmet }, i) => {
            const mine = drawn.find((m) => m.inventory_id === helmet.id);
            const last = workers[i].samples.filter((sample) => sample.ms <= paused).at(-1)!;
            return mine
              ? Math.hypot(
                  mine.x - last.u * floor.blueprintWidth!,
                  mine.y - last.v * floor.blueprintHeight!,
                ) < 2
              : `no marker for ${helmet.id}`;
          });
        },
        { timeout: 10_000 },
      )
      .toEqual([true, true]);
    const moved = await markers();
    const b = (list: Drawn[]) => list.find((m) => m.inventory_id === helmets[1].helmet.id)!.x;
    expect(b(moved)).toBeGreaterThan(b(first));
    // Paused: neither the clock nor the markers move any more.
    await page.waitForTimeout(400);
    expect(Number(await page.locator(byTestId('playback-clock')).getAttribute('data-ms'))).toBe(paused);
    expect(await markers()).toEqual(moved);
    // The sliding heatmap (the last 15 minutes) lights up along B's walk, under its trail.
    const beside = [await onScreen('playback-canvas', 0.5, 0.7), await onScreen('playback-canvas', 0.5, 0.7)];
    beside[0].y -= 4;
    beside[1].y += 4;
    const before = await pngColoursAt(
      page,
      await page.screenshot({ path: `${SCREENSHOTS}/playback-paused.png` }),
      beside,
    );
    await page.click(`label:has(${byTestId('playback-heat')})`);
    // The heatmap reaches 15 minutes back: its windows are fetched, then the frame is drawn again.
    await expect
      .poll(
        async () => {
          const after = await pngColoursAt(
            page,
            await page.screenshot({ path: `${SCREENSHOTS}/playback-heatmap.png` }),
            beside,
          );
          return before.some((colour, i) => !near(colour, after[i], 8)) || `${before} → ${after}`;
        },
        { timeout: 10_000 },
      )
      .toBe(true);
    expect(Number(await page.locator(byTestId('playback-clock')).getAttribute('data-ms'))).toBe(paused);

    // The zone timeline (from the analytics gateway) has A's stop in the Fit-out area, and a click
    // on it seeks there.
    const cells = page.locator(byTestId('zone-timeline-cell'));
    await expect.poll(() => cells.count(), { timeout: 10_000 }).toBeGreaterThan(0);
    const timeline = page.locator(byTestId('zone-timeline'));
    const [from, to] = [
      Number(await timeline.getAttribute('data-from')),
      Number(await timeline.getAttribute('data-to')),
    ];
    expect(from).toBeLessThanOrEqual(t0);
    expect(to).toBeGreaterThanOrEqual(t0 + 360_000);
    const chart = (await page.locator(byTestId('zone-timeline-chart')).boundingBox())!;
    await page.mouse.click(chart.x + chart.width / 2, chart.y + 4);
    const middle = (from + to) / 2;
    await expect
      .poll(async () => Number(await page.locator(byTestId('playback-clock')).getAttribute('data-ms')))
      .toBeGreaterThan(middle - (to - from) / 20);
    expect(Number(await page.locator(byTestId('playback-clock')).getAttribute('data-ms'))).toBeLessThan(
      middle + (to - from) / 20,
    );

    // In Arabic the page mirrors but the player does not (as media players): back stays on the
    // left, the timeline's start on the left, and → still steps forward in time.
    await page.selectOption(byTestId('language-switch'), 'ar');
    await page.waitForFunction(() => document.documentElement.dir === 'rtl');
    const leftOf = async (id: string) => (await page.locator(byTestId(id)).boundingBox())!.x;
    expect(await leftOf('playback-step-back')).toBeLessThan(await leftOf('playback-step-forward'));
    expect(await leftOf('playback-step-forward')).toBeLessThan(await leftOf('playback-scrub'));
    const axis = await page.locator(`${byTestId('zone-timeline')} .sw-zone-timeline-axis span`).all();
    expect((await axis[0].boundingBox())!.x).toBeLessThan((await axis[1].boundingBox())!.x);
    const clockMs = async () =>
      Number(await page.locator(byTestId('playback-clock')).getAttribute('data-ms'));
    const beforeStep = await clockMs();
    await page.focus(byTestId('playback-screen'));
    await page.keyboard.press('ArrowRight');
    await expect.poll(clockMs).toBeGreaterThan(beforeStep);
    await page.screenshot({ path: `${SCREENSHOTS}/playback-ar.png` });
    await page.selectOption(byTestId('language-switch'), 'en');
    await page.waitForFunction(() => document.documentElement.dir === 'ltr');
  });

  it("shows a worker's day from the worker's page: the trail, the stop and the zone visit", async () => {
    const [a] = workers;
    await page.goto(`${suite.server.baseUrl}/workers`);
    await page.fill(byTestId('workers-search'), a.tag);
    await expect
      .poll(() => page.locator(byTestId('workers-count')).innerText(), { timeout: 10_000 })
      .toMatch(/: 1$/);
    await page.click(byTestId('workers-open'));
    await page.click(byTestId('worker-history-open'));
    await page.fill(byTestId('worker-history-day'), siteDay(t0));
    await page.waitForSelector(`${byTestId('worker-history-progress')}[data-done]`, { timeout: 20_000 });
    const visits = page.locator(byTestId('worker-history-visit'));
    await expect.poll(() => visits.count()).toBeGreaterThan(0);
    expect(await visits.first().innerText()).toContain('Fit-out area');
    expect(await visits.first().innerText()).toContain(clock(t0));
    const stops = await page.locator(byTestId('worker-history-stop')).allInnerTexts();
    expect(stops).toHaveLength(1);
    expect(stops[0]).toContain('Fit-out area');
    expect(await page.locator(byTestId('worker-history-floor-tab')).allInnerTexts()).toEqual([floor.name]);
    await page.waitForTimeout(500);
    const png = await page.screenshot({ path: `${SCREENSHOTS}/worker-history.png` });
    const [trail] = await pngColoursAt(page, png, [await onScreen('worker-history-canvas', 0.7, 0.35)]);
    expect(near(trail, BLUE), `the day's trail ${trail}`).toBe(true);
  });
});
