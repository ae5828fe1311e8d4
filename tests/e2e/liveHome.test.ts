import { eq } from 'drizzle-orm';
import type mqtt from 'mqtt';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { floors } from '../../server/db/schema';
import { MARKER_COLOURS } from '../../src/domain/inventory';
import { topicFor } from '../../src/domain/live';
import { browserSuite } from './helpers/browserSuite';
import { blueprintPoint, drawnWorkers as drawnIn, helmetsOfWorkers, openLivePage } from './helpers/liveFloor';

interface DrawnWorker {
  inventory_id: number;
  x: number;
  y: number;
  screenX: number;
  screenY: number;
  colour: number;
}

/** What the dashboard's floor canvas has drawn, read from the engine. */
function drawnWorkers(page: Page): Promise<DrawnWorker[]> {
  return drawnIn<DrawnWorker>(page, 'dashboard-canvas');
}

async function waitForMarker(
  page: Page,
  inventoryId: number,
  near: { x: number; y: number },
): Promise<DrawnWorker> {
  const deadline = Date.now() + 15_000;
  let last: DrawnWorker | undefined;
  while (Date.now() < deadline) {
    last = (await drawnWorkers(page)).find((w) => w.inventory_id === inventoryId);
    if (last && Math.abs(last.x - near.x) < 1 && Math.abs(last.y - near.y) < 1) return last;
    await page.waitForTimeout(100);
  }
  throw new Error(
    `marker ${inventoryId} never reached ${JSON.stringify(near)}; last ${JSON.stringify(last)}`,
  );
}

describe('the live home dashboard', () => {
  const suite = browserSuite({ live: true });
  let page: Page;
  let publisher: mqtt.MqttClient;

  beforeAll(async () => {
    ({ page, publisher } = await openLivePage(suite, { width: 1400, height: 900 }));
  });
  afterAll(async () => {
    await publisher?.endAsync();
  });

  it('moves a helmet’s marker on the canvas as its positions arrive over MQTT, and counts it', async () => {
    await page.waitForSelector('[data-testid="live-indicator"][data-state="live"]', { timeout: 20_000 });
    const floorId = Number(await page.locator('[data-testid="dashboard-floor-picker"]').inputValue());
    const [floor] = await suite.server.db.select().from(floors).where(eq(floors.id, floorId));
    const [{ helmet, worker }] = await helmetsOfWorkers(suite.server.db, 1);
    const pointAt = blueprintPoint(floor);
    const topic = topicFor(helmet.siteId, 'positions', suite.server.topicRoot);
    const publish = (u: number, v: number, at: Date) => {
      const { lat, long } = pointAt(u, v);
      return publisher.publishAsync(
        topic,
        JSON.stringify([
          {
            tag: helmet.wntInventoryId,
            ts: at.toISOString(),
            lat,
            long,
            floorId,
            online: true,
            active: true,
          },
        ]),
        { qos: 1 },
      );
    };
    const expected = (u: number, v: number) => ({
      x: u * floor.blueprintWidth!,
      y: v * floor.blueprintHeight!,
    });

    const countBefore = Number(
      await page
        .locator(
          `[data-testid="dashboard-floor-count"][data-floor-id="${floorId}"] [data-testid="floor-online-active"]`,
        )
        .innerText(),
    );
    const now = Date.now();
    await publish(0.3, 0.4, new Date(now - 2000));
    const first = await waitForMarker(page, helmet.id, expected(0.3, 0.4));
    expect(first.colour).toBe(MARKER_COLOURS.active);
    await page.screenshot({ path: 'test-output/screenshots/live-home-first.png' });

    await publish(0.6, 0.55, new Date(now - 1000));
    const moved = await waitForMarker(page, helmet.id, expected(0.6, 0.55));
    expect(moved.screenX).toBeGreaterThan(first.screenX);
    expect(moved.screenY).toBeGreaterThan(first.screenY);

    // The floor's count of online active workers follows without a reload.
    await expect
      .poll(
        async () =>
          Number(
            await page
              .locator(
                `[data-testid="dashboard-floor-count"][data-floor-id="${floorId}"] [data-testid="floor-online-active"]`,
              )
              .innerText(),
          ),
        { timeout: 10_000 },
      )
      .toBe(countBefore + 1);

    // Hover names the worker; a click opens the details.
    const box = (await page
      .locator('[data-testid="dashboard-canvas"] [data-testid="floor-canvas"]')
      .boundingBox())!;
    await page.mouse.move(box.x + moved.screenX, box.y + moved.screenY);
    await expect
      .poll(() => page.locator('[data-testid="worker-tooltip"]').innerText(), { timeout: 5000 })
      .toContain(worker.name);
    await page.mouse.click(box.x + moved.screenX, box.y + moved.screenY);
    await expect
      .poll(() => page.locator('[data-testid="worker-name"]').innerText(), { timeout: 5000 })
      .toBe(worker.name);
    await page.screenshot({ path: 'test-output/screenshots/live-home-details.png' });

    // Offline: the marker turns grey (#b3bdcc).
    const { lat, long } = pointAt(0.6, 0.55);
    await publisher.publishAsync(
      topic,
      JSON.stringify({
        tag: helmet.wntInventoryId,
        ts: new Date(now).toISOString(),
        lat,
        long,
        floorId,
        online: false,
        active: false,
      }),
      { qos: 1 },
    );
    await expect
      .poll(async () => (await drawnWorkers(page)).find((w) => w.inventory_id === helmet.id)?.colour, {
        timeout: 10_000,
      })
      .toBe(MARKER_COLOURS.offline);
  });
});
