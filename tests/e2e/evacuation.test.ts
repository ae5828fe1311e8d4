import { asc, eq } from 'drizzle-orm';
import type mqtt from 'mqtt';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { floors, zones } from '../../server/db/schema';
import { EVACUATION_COLOURS } from '../../src/domain/evacuation';
import { topicFor } from '../../src/domain/live';
import { containsPoint } from '../../src/domain/polygon';
import { browserSuite } from './helpers/browserSuite';
import { blueprintPoint, drawnWorkers, helmetsOfWorkers, openLivePage } from './helpers/liveFloor';
import { signIn } from './helpers/pages';

const WALL = '[data-testid="evacuation-wall"]';

async function count(page: Page, key: string): Promise<number> {
  return Number(await page.locator(`[data-testid="evacuation-count-${key}"]`).getAttribute('data-value'));
}

/** The worker's status on the not-safe list, or null when not on it (read at once, never waited for). */
async function rowStatus(page: Page, workerId: number): Promise<string | null> {
  return page.evaluate(
    (id) =>
      document
        .querySelector(`[data-testid="not-safe-row"][data-worker-id="${id}"]`)
        ?.getAttribute('data-status') ?? null,
    workerId,
  );
}

interface DrawnWorker {
  inventory_id: number;
  colour: number;
}

async function markerColour(page: Page, inventoryId: number): Promise<number | undefined> {
  const drawn = await drawnWorkers<DrawnWorker>(page, 'evacuation-canvas');
  return drawn.find((w) => w.inventory_id === inventoryId)?.colour;
}

describe('the evacuation wall screen', () => {
  const suite = browserSuite({ live: true });
  let page: Page;
  let publisher: mqtt.MqttClient;

  beforeAll(async () => {
    ({ page, publisher } = await openLivePage(suite, { width: 1600, height: 1000 }));
  });
  afterAll(async () => {
    await publisher?.endAsync();
  });

  it('starts an evacuation, follows workers to safety live, and ends it; a viewer only watches', async () => {
    const { db } = suite.server;
    // The floor of an assembly zone: evacuate it, and walk a worker into that zone.
    const [assembly] = await db
      .select()
      .from(zones)
      .where(eq(zones.kind, 'assembly'))
      .orderBy(asc(zones.id))
      .limit(1);
    const [floor] = await db.select().from(floors).where(eq(floors.id, assembly.floorId));
    // The stayer stays put and never answers: never accounted for when it ends.
    const [walker, presser, stayer] = await helmetsOfWorkers(db, 3);
    const pointAt = blueprintPoint(floor);
    const inAssembly = (p: { lat: number; long: number }) =>
      containsPoint(assembly.coordinates, [p.long, p.lat]);
    // A spot on the floor outside the assembly zone.
    const outside = [0.05, 0.5, 0.95]
      .flatMap((u) => [0.05, 0.5, 0.95].map((v) => pointAt(u, v)))
      .find((p) => !inAssembly(p))!;
    const ring = assembly.coordinates;
    const centre = {
      long: ring.reduce((sum, [long]) => sum + long, 0) / ring.length,
      lat: ring.reduce((sum, [, lat]) => sum + lat, 0) / ring.length,
    };
    expect(inAssembly(centre)).toBe(true);

    const topic = (kind: 'positions' | 'events') =>
      topicFor(walker.helmet.siteId, kind, suite.server.topicRoot);
    const position = (tag: string, at: { lat: number; long: number }) =>
      publisher.publishAsync(
        topic('positions'),
        JSON.stringify({
          tag,
          ts: new Date().toISOString(),
          ...at,
          floorId: floor.id,
          online: true,
          active: true,
        }),
        { qos: 1 },
      );
    // Both are on the floor when it starts.
    await position(walker.helmet.wntInventoryId, outside);
    await position(presser.helmet.wntInventoryId, outside);
    await position(stayer.helmet.wntInventoryId, outside);

    await page.goto(`${suite.server.baseUrl}/safetyevacuation`);
    await page.waitForSelector(`${WALL}[data-state="idle"]`, { timeout: 20_000 });
    await page.click('[data-testid="evacuation-start"]');
    // Every zone is named with its floor and building: no two labels alike (the demo has two
    // blocks with the same floor and zone names), and the wall's floor picker says the building too.
    const assemblyLabels = await page.locator('[data-testid="start-assembly"] label').allInnerTexts();
    expect(assemblyLabels.length).toBeGreaterThan(1);
    expect(new Set(assemblyLabels).size, assemblyLabels.join(' | ')).toBe(assemblyLabels.length);
    expect(
      assemblyLabels.every((label) => / · .+\)$/.test(label)),
      assemblyLabels.join(' | '),
    ).toBe(true);
    const floorOptions = await page.locator('[data-testid="evacuation-floor-picker"] option').allInnerTexts();
    expect(new Set(floorOptions).size, floorOptions.join(' | ')).toBe(floorOptions.length);
    const floorBox = page.locator(`[data-testid="start-floors"] input[data-floor-id="${floor.id}"]`);
    await page.click(`[data-testid="start-floors"] label:has(input[data-floor-id="${floor.id}"])`);
    await expect.poll(() => floorBox.isChecked()).toBe(true);
    // Assembly zones come chosen.
    expect(
      await page.locator(`[data-testid="start-assembly"] input[data-zone-id="${assembly.id}"]`).isChecked(),
    ).toBe(true);
    await page.click('[data-testid="start-evacuation-submit"]');
    await page.waitForSelector(`${WALL}[data-state="inProgress"]`, { timeout: 15_000 });

    await expect.poll(() => rowStatus(page, walker.worker.id), { timeout: 10_000 }).toBe('autoAcknowledge');
    await expect.poll(() => rowStatus(page, presser.worker.id), { timeout: 10_000 }).toBe('autoAcknowledge');
    const included = await count(page, 'included');
    expect(included).toBeGreaterThanOrEqual(2);
    const safeBefore = await count(page, 'safe');
    const manualBefore = await count(page, 'manualAcknowledge');
    expect(await page.locator('[data-testid="evacuation-elapsed"] time').innerText()).toMatch(
      /^\d\d:\d\d:\d\d$/,
    );

    // A site viewer sees the same evacuation, with no way to start or end it.
    const viewer = await suite.browser.newPage({ viewport: { width: 1280, height: 900 } });
    await signIn(viewer, suite.server.baseUrl, 'site-viewer@demo.sitewatch.dev');
    await viewer.goto(`${suite.server.baseUrl}/safetyevacuation`);
    await viewer.waitForSelector(`${WALL}[data-state="inProgress"]`, { timeout: 20_000 });
    expect(await count(viewer, 'included')).toBe(included);
    expect(await viewer.locator('[data-testid="evacuation-start"]').count()).toBe(0);
    expect(await viewer.locator('[data-testid="evacuation-end"]').count()).toBe(0);
    // In Arabic the wall reads right-to-left, its labels in Arabic.
    await viewer.selectOption('[data-testid="language-switch"]', 'ar');
    await viewer.waitForFunction(() => document.documentElement.dir === 'rtl');
    expect(await viewer.locator('[data-testid="evacuation-counters"] dt').first().innerText()).toMatch(
      /[\u0600-\u06FF]/,
    );

    // The presser presses the helmet button.
    await publisher.publishAsync(
      topic('events'),
      JSON.stringify({
        tag: presser.helmet.wntInventoryId,
        ts: new Date().toISOString(),
        type: 'acknowledge',
      }),
      { qos: 1 },
    );
    await expect
      .poll(() => rowStatus(page, presser.worker.id), { timeout: 10_000 })
      .toBe('manualAcknowledge');
    await expect.poll(() => count(page, 'manualAcknowledge'), { timeout: 5000 }).toBe(manualBefore + 1);

    // The walker reaches the assembly zone: safe, off the list, blue on the canvas.
    await position(walker.helmet.wntInventoryId, centre);
    await expect.poll(() => rowStatus(page, walker.worker.id), { timeout: 10_000 }).toBeNull();
    await expect.poll(() => count(page, 'safe'), { timeout: 5000 }).toBe(safeBefore + 1);
    await expect.poll(() => count(viewer, 'safe'), { timeout: 10_000 }).toBe(safeBefore + 1);
    await viewer.screenshot({ path: 'test-output/screenshots/evacuation-wall-ar.png' });
    await expect
      .poll(() => markerColour(page, walker.helmet.id), { timeout: 10_000 })
      .toBe(EVACUATION_COLOURS.safe);
    // The counters agree with the list.
    const stillInside = await count(page, 'stillInside');
    expect(await page.locator('[data-testid="not-safe-count"]').getAttribute('data-value')).toBe(
      String(stillInside),
    );
    expect(stillInside).toBe((await count(page, 'included')) - (await count(page, 'safe')));
    await page.screenshot({ path: 'test-output/screenshots/evacuation-wall.png' });
    expect(await page.locator('.sw-evac-legend').isVisible()).toBe(true);

    // Presentation: the wall covers the whole window (no menu, no header) with counters readable across a room.
    const countSize = () =>
      page
        .locator('[data-testid="evacuation-count-safe"]')
        .evaluate((element) => Number.parseFloat(getComputedStyle(element).fontSize));
    const normalSize = await countSize();
    await page.click('[data-testid="evacuation-presentation"]');
    const wall = await page.locator(WALL).boundingBox();
    const viewport = page.viewportSize();
    expect(wall?.x).toBe(0);
    expect(wall?.y).toBe(0);
    expect(wall?.width).toBe(viewport?.width);
    expect(await countSize()).toBeGreaterThanOrEqual(Math.max(80, normalSize * 1.5));
    await page.screenshot({ path: 'test-output/screenshots/evacuation-presentation.png' });
    await page.click('[data-testid="evacuation-presentation"]');
    expect(await countSize()).toBe(normalSize);

    // Ending asks first, then every screen shows it ended.
    await page.click('[data-testid="evacuation-end"]');
    await page.locator('.bp6-alert-footer button.bp6-intent-danger').click();
    await page.waitForSelector(`${WALL}[data-state="ended"]`, { timeout: 10_000 });
    await page.waitForSelector('[data-testid="evacuation-summary"]');
    // Who was never accounted for is a table with a search, not a paragraph of names.
    const unaccounted = page.locator('[data-testid="evacuation-summary-unaccounted-row"]');
    const names = await unaccounted.locator('th').allInnerTexts();
    expect(names).toContain(stayer.worker.name);
    expect(names).not.toContain(walker.worker.name);
    expect(names).not.toContain(presser.worker.name);
    await page.fill('[data-testid="evacuation-summary-search"]', stayer.helmet.wntInventoryId);
    await expect.poll(() => unaccounted.locator('th').allInnerTexts()).toEqual([stayer.worker.name]);
    // The report downloads from the summary as .xlsx.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.click('[data-testid="evacuation-summary-export"]'),
    ]);
    expect(download.suggestedFilename()).toMatch(/\.xlsx$/);
    // The markers are back to their usual colours: the evacuation legend is gone.
    expect(await page.locator('.sw-evac-legend').count()).toBe(0);
    await viewer.waitForSelector(`${WALL}[data-state="ended"]`, { timeout: 10_000 });
    await page.screenshot({ path: 'test-output/screenshots/evacuation-ended.png' });
    await page.click('[data-testid="evacuation-reset"]');
    await page.waitForSelector(`${WALL}[data-state="idle"]`);
    await viewer.close();
  });
});
