import { and, eq } from 'drizzle-orm';
import type mqtt from 'mqtt';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildings, floors } from '../../server/db/schema';
import { topicFor } from '../../src/domain/live';
import { browserSuite } from './helpers/browserSuite';
import { blueprintPoint, drawnWorkers, helmetsOfWorkers, openLivePage } from './helpers/liveFloor';

interface DrawnWorker {
  inventory_id: number;
  x: number;
  y: number;
  screenX: number;
  screenY: number;
}

const byTestId = (id: string) => `[data-testid="${id}"]`;
const LIVE_SWITCH = byTestId('maps-live-workers');
/** The switch's visible part: Blueprint hides the checkbox itself under its label. */
const LIVE_SWITCH_LABEL = `label:has(${LIVE_SWITCH})`;

function markers(page: Page): Promise<DrawnWorker[]> {
  return drawnWorkers<DrawnWorker>(page, 'maps-canvas');
}

async function waitForMarker(page: Page, inventoryId: number, near: { x: number; y: number }) {
  const deadline = Date.now() + 15_000;
  let last: DrawnWorker | undefined;
  while (Date.now() < deadline) {
    last = (await markers(page)).find((w) => w.inventory_id === inventoryId);
    if (last && Math.abs(last.x - near.x) < 1 && Math.abs(last.y - near.y) < 1) return last;
    await page.waitForTimeout(100);
  }
  throw new Error(
    `marker ${inventoryId} never reached ${JSON.stringify(near)}; last ${JSON.stringify(last)}`,
  );
}

/** Opens /maps on South Block's "Level 2" (North Block has a floor of the same name). */
async function openSouthLevel2(page: Page, baseUrl: string): Promise<void> {
  await page.goto(`${baseUrl}/maps`);
  await page.locator(byTestId('building-item'), { hasText: 'South Block' }).locator('button').click();
  await page
    .locator(byTestId('floor-item'), { hasText: 'Level 2' })
    .locator(byTestId('floor-select'))
    .click();
  await page.waitForSelector(`${byTestId('maps-canvas')} ${byTestId('floor-canvas')}[data-renderer]`);
}

describe('live workers on the maps screen', () => {
  const suite = browserSuite({ live: true });
  let page: Page;
  let publisher: mqtt.MqttClient;

  beforeAll(async () => {
    ({ page, publisher } = await openLivePage(suite, { width: 1600, height: 900 }));
  });
  afterAll(async () => {
    await publisher?.endAsync();
  });

  it('moves the floor’s live markers, names the building in their tooltip and details, and lets zones be drawn over them', async () => {
    const { db } = suite.server;
    const [{ floor }] = await db
      .select({ floor: floors })
      .from(floors)
      .innerJoin(buildings, eq(buildings.id, floors.buildingId))
      .where(and(eq(buildings.name, 'South Block'), eq(floors.name, 'Level 2')));
    const [{ helmet, worker }] = await helmetsOfWorkers(db, 1);
    const pointAt = blueprintPoint(floor);
    const publish = (u: number, v: number, at: Date) =>
      publisher.publishAsync(
        topicFor(helmet.siteId, 'positions', suite.server.topicRoot),
        JSON.stringify({
          tag: helmet.wntInventoryId,
          ts: at.toISOString(),
          ...pointAt(u, v),
          floorId: floor.id,
          online: true,
          active: true,
        }),
        { qos: 1 },
      );
    const expected = (u: number, v: number) => ({
      x: u * floor.blueprintWidth!,
      y: v * floor.blueprintHeight!,
    });

    await openSouthLevel2(page, suite.server.baseUrl);
    // On by default.
    expect(await page.locator(LIVE_SWITCH).isChecked()).toBe(true);
    const now = Date.now();
    await publish(0.3, 0.4, new Date(now - 2000));
    const first = await waitForMarker(page, helmet.id, expected(0.3, 0.4));
    await publish(0.6, 0.55, new Date(now - 1000));
    const moved = await waitForMarker(page, helmet.id, expected(0.6, 0.55));
    expect(moved.screenX).toBeGreaterThan(first.screenX);

    // Hover and click name the floor with its building.
    const canvasBox = (await page
      .locator(`${byTestId('maps-canvas')} ${byTestId('floor-canvas')}`)
      .boundingBox())!;
    const at = { x: canvasBox.x + moved.screenX, y: canvasBox.y + moved.screenY };
    await page.mouse.move(at.x, at.y);
    await expect
      .poll(() => page.locator(byTestId('worker-tooltip')).innerText(), { timeout: 5000 })
      .toContain(worker.name);
    expect(await page.locator(byTestId('worker-tooltip-place')).innerText()).toContain(
      'Level 2 · South Block',
    );
    await page.mouse.click(at.x, at.y);
    await expect
      .poll(() => page.locator(byTestId('worker-floor')).innerText(), { timeout: 5000 })
      .toBe('Level 2 · South Block');
    await page.screenshot({ path: 'test-output/screenshots/maps-live-worker-details.png' });
    await page.keyboard.press('Escape');
    await page.locator(byTestId('worker-details')).waitFor({ state: 'detached' });

    // Drawing a zone: a press on the marker adds a point, it does not open the worker.
    await page.click(byTestId('zone-draw'));
    await page.waitForSelector(byTestId('zone-drawing'));
    await page.mouse.click(at.x, at.y);
    await page.mouse.click(at.x - 80, at.y);
    await page.mouse.click(at.x - 80, at.y - 60);
    expect(await page.locator(byTestId('zone-draw-points')).innerText()).toContain('3');
    expect(await page.locator(byTestId('worker-details')).count()).toBe(0);
    await page.click(byTestId('zone-draw-cancel'));
    await page.waitForSelector(byTestId('zone-drawing'), { state: 'detached' });

    // Off: the markers go, and stay gone after a reload.
    await page.click(LIVE_SWITCH_LABEL);
    await expect.poll(async () => (await markers(page)).length, { timeout: 5000 }).toBe(0);
    await page.screenshot({ path: 'test-output/screenshots/maps-live-workers-off.png' });
    await openSouthLevel2(page, suite.server.baseUrl);
    expect(await page.locator(LIVE_SWITCH).isChecked()).toBe(false);
    await publish(0.5, 0.5, new Date());
    await page.waitForTimeout(1500);
    expect(await markers(page)).toEqual([]);

    // On again: the floor's snapshot brings the helmet back where it last was.
    await page.click(LIVE_SWITCH_LABEL);
    await waitForMarker(page, helmet.id, expected(0.5, 0.5));
    await openSouthLevel2(page, suite.server.baseUrl);
    expect(await page.locator(LIVE_SWITCH).isChecked()).toBe(true);
    await waitForMarker(page, helmet.id, expected(0.5, 0.5));
    await page.screenshot({ path: 'test-output/screenshots/maps-live-workers.png' });
  });

  it('reads right to left in Arabic, the switch on the mirrored side and the floor never mirrored', async () => {
    await page.selectOption(byTestId('language-switch'), 'ar');
    await expect.poll(() => page.evaluate(() => document.documentElement.dir)).toBe('rtl');
    const label = await page.locator(LIVE_SWITCH_LABEL).innerText();
    expect(label).toContain('مواقع العمال المباشرة');
    const canvasBox = (await page
      .locator(`${byTestId('maps-canvas')} ${byTestId('floor-canvas')}`)
      .boundingBox())!;
    const switchBox = (await page.locator(LIVE_SWITCH_LABEL).boundingBox())!;
    // The toolbar's end is the left in Arabic.
    expect(switchBox.x - canvasBox.x).toBeLessThan(40);
    await page.screenshot({ path: 'test-output/screenshots/maps-live-workers-ar.png' });
    await page.selectOption(byTestId('language-switch'), 'en');
  });
});
