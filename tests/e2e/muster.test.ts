import { asc, eq } from 'drizzle-orm';
import type mqtt from 'mqtt';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { floors, zones } from '../../server/db/schema';
import { topicFor } from '../../src/domain/live';
import { containsPoint } from '../../src/domain/polygon';
import { browserSuite } from './helpers/browserSuite';
import { blueprintPoint, helmetsOfWorkers, openLivePage } from './helpers/liveFloor';
import { signIn } from './helpers/pages';

const WALL = '[data-testid="evacuation-wall"]';

const count = async (page: Page, key: string) =>
  Number(await page.locator(`[data-testid="evacuation-count-${key}"]`).getAttribute('data-value'));

const rowStatus = (page: Page, workerId: number) =>
  page.evaluate(
    (id) =>
      document
        .querySelector(`[data-testid="not-safe-row"][data-worker-id="${id}"]`)
        ?.getAttribute('data-status') ?? null,
    workerId,
  );

/**
 * The wall during a drill, as a marshal and a control room see it: a hand mark with its reason,
 * a re-entry at the top of the list in red, a floor cleared, in English and Arabic, and the
 * marshal's own view on a phone (390 × 844).
 */
describe('the muster on the wall screen', () => {
  const suite = browserSuite({ live: true });
  let page: Page;
  let publisher: mqtt.MqttClient;

  beforeAll(async () => {
    ({ page, publisher } = await openLivePage(suite, { width: 1600, height: 1000 }));
    // A screen that breaks shows the error boundary; its cause is in the browser's console.
    page.on('pageerror', (error) => console.error('page error:', error.message));
  });
  afterAll(async () => {
    await publisher?.endAsync();
  });

  it('marks, shows a re-entry, clears a floor, in English and Arabic, and lets a marshal mark from a phone', async () => {
    const { db } = suite.server;
    const [assembly] = await db
      .select()
      .from(zones)
      .where(eq(zones.kind, 'assembly'))
      .orderBy(asc(zones.id))
      .limit(1);
    const [floor] = await db.select().from(floors).where(eq(floors.id, assembly.floorId));
    const [marked, reEnterer, stayer] = await helmetsOfWorkers(db, 3);
    const pointAt = blueprintPoint(floor);
    const inAssembly = (p: { lat: number; long: number }) =>
      containsPoint(assembly.coordinates, [p.long, p.lat]);
    const outside = [0.05, 0.5, 0.95]
      .flatMap((u) => [0.05, 0.5, 0.95].map((v) => pointAt(u, v)))
      .find((p) => !inAssembly(p))!;
    const ring = assembly.coordinates;
    const centre = {
      long: ring.reduce((sum, [long]) => sum + long, 0) / ring.length,
      lat: ring.reduce((sum, [, lat]) => sum + lat, 0) / ring.length,
    };
    const position = (tag: string, at: { lat: number; long: number }) =>
      publisher.publishAsync(
        topicFor(marked.helmet.siteId, 'positions', suite.server.topicRoot),
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
    for (const who of [marked, reEnterer, stayer]) await position(who.helmet.wntInventoryId, outside);

    await page.goto(`${suite.server.baseUrl}/safetyevacuation`);
    await page.waitForSelector(`${WALL}[data-state="idle"]`, { timeout: 20_000 });
    await page.click('[data-testid="evacuation-start"]');
    await page.click(`[data-testid="start-floors"] label:has(input[data-floor-id="${floor.id}"])`);
    await page.click('[data-testid="start-evacuation-submit"]');
    await page.waitForSelector(`${WALL}[data-state="inProgress"]`, { timeout: 15_000 });
    await expect.poll(() => rowStatus(page, marked.worker.id), { timeout: 10_000 }).toBe('autoAcknowledge');

    // A marshal marks one worker by hand: off the list, on the roll call with the reason, counted apart.
    const markedBefore = await count(page, 'marked');
    await page.click(
      `[data-testid="not-safe-row"][data-worker-id="${marked.worker.id}"] [data-testid="mark-worker"]`,
    );
    await page.click('[data-testid="mark-dialog"] label:has-text("Visitor")');
    await page.click('[data-testid="mark-submit"]');
    await expect.poll(() => rowStatus(page, marked.worker.id), { timeout: 10_000 }).toBeNull();
    await expect.poll(() => count(page, 'marked'), { timeout: 5000 }).toBe(markedBefore + 1);
    const rollRow = page.locator('[data-testid="roll-row"]', { hasText: marked.worker.name });
    await expect.poll(() => rollRow.innerText()).toMatch(/Visitor — Demo Site Admin at \d\d:\d\d:\d\d/);
    expect(await count(page, 'safe')).toBe(0);

    // Safe in the assembly zone, then back inside: re-entered, red, at the top of the list.
    await position(reEnterer.helmet.wntInventoryId, centre);
    await expect.poll(() => rowStatus(page, reEnterer.worker.id), { timeout: 10_000 }).toBeNull();
    await position(reEnterer.helmet.wntInventoryId, outside);
    await expect.poll(() => rowStatus(page, reEnterer.worker.id), { timeout: 10_000 }).toBe('reEntered');
    const first = page.locator('[data-testid="not-safe-row"]').first();
    expect(await first.getAttribute('data-worker-id')).toBe(String(reEnterer.worker.id));
    const background = await first.locator('th').evaluate((cell) => getComputedStyle(cell).backgroundColor);
    expect(background).toBe('rgb(251, 227, 228)');
    expect(await page.locator('[data-testid="re-entered-notice"]').isVisible()).toBe(true);
    await page.screenshot({ path: 'test-output/screenshots/muster-wall.png' });

    // The same wall in Arabic, right to left, for a control room that reads it.
    const viewer = await suite.browser.newPage({ viewport: { width: 1600, height: 1000 } });
    await signIn(viewer, suite.server.baseUrl, 'site-viewer@demo.sitewatch.dev');
    await viewer.goto(`${suite.server.baseUrl}/safetyevacuation`);
    await viewer.waitForSelector(`${WALL}[data-state="inProgress"]`, { timeout: 20_000 });
    await viewer.selectOption('[data-testid="language-switch"]', 'ar');
    await viewer.waitForFunction(() => document.documentElement.dir === 'rtl');
    await expect.poll(() => rowStatus(viewer, reEnterer.worker.id), { timeout: 10_000 }).toBe('reEntered');
    expect(await viewer.locator('[data-testid="roll-row"]', { hasText: marked.worker.name }).count()).toBe(1);
    // A viewer watches: no marking.
    expect(await viewer.locator('[data-testid="mark-worker"]').count()).toBe(0);
    expect(await viewer.locator('[data-testid="re-entered-notice"]').innerText()).toMatch(/[\u0600-\u06FF]/);
    await viewer.screenshot({ path: 'test-output/screenshots/muster-wall-ar.png' });
    await viewer.close();

    // The marshal's phone: the menu folds away, the list is cards, Mark safe fits the screen.
    const phone = await suite.browser.newPage({
      viewport: { width: 390, height: 844 },
      hasTouch: true,
      isMobile: true,
    });
    await signIn(phone, suite.server.baseUrl, 'site-admin@demo.sitewatch.dev');
    await phone.goto(`${suite.server.baseUrl}/safetyevacuation`);
    await phone.waitForSelector(`${WALL}[data-state="inProgress"]`, { timeout: 20_000 });
    expect(await phone.locator('[data-testid="side-menu"]').isVisible()).toBe(false);
    const stayerRow = phone.locator(`[data-testid="not-safe-row"][data-worker-id="${stayer.worker.id}"]`);
    await stayerRow.scrollIntoViewIfNeeded();
    const button = await stayerRow.locator('[data-testid="mark-worker"]').boundingBox();
    expect(button).not.toBeNull();
    expect((button?.x ?? 0) + (button?.width ?? 0)).toBeLessThanOrEqual(390);
    expect(button?.width ?? 0).toBeGreaterThan(300);
    await phone.screenshot({ path: 'test-output/screenshots/muster-phone.png' });
    await stayerRow.locator('[data-testid="mark-worker"]').tap();
    await phone.click('[data-testid="mark-dialog"] label:has-text("Left site before the alarm")');
    await phone.screenshot({ path: 'test-output/screenshots/muster-phone-mark.png' });
    await phone.tap('[data-testid="mark-submit"]');
    await expect.poll(() => rowStatus(page, stayer.worker.id), { timeout: 10_000 }).toBeNull();

    // The re-enterer leaves again for the assembly zone: safe. Everyone else on the floor is marked: the floor is clear.
    await position(reEnterer.helmet.wntInventoryId, centre);
    await expect.poll(() => rowStatus(page, reEnterer.worker.id), { timeout: 10_000 }).toBeNull();
    for (let left = await page.locator('[data-testid="mark-worker"]').count(); left > 0; left--) {
      await page.locator('[data-testid="mark-worker"]').first().click();
      await page.click('[data-testid="mark-submit"]');
      await expect
        .poll(() => page.locator('[data-testid="mark-worker"]').count(), { timeout: 10_000 })
        .toBe(left - 1);
    }
    const cleared = page.locator(`[data-testid="floor-cleared"][data-floor-id="${floor.id}"]`);
    await expect.poll(() => cleared.getAttribute('data-cleared'), { timeout: 10_000 }).toBe('true');
    expect(await cleared.innerText()).toMatch(/clear at \d\d:\d\d:\d\d/);
    await page.screenshot({ path: 'test-output/screenshots/muster-floor-cleared.png' });

    // Undo the first mark: the worker is back on the list as a helmet shows them.
    await rollRow.locator('[data-testid="undo-mark"]').click();
    await expect.poll(() => rowStatus(page, marked.worker.id), { timeout: 10_000 }).toBe('autoAcknowledge');
    await expect.poll(() => cleared.getAttribute('data-cleared'), { timeout: 10_000 }).toBe('false');

    // Phased: another floor of the site joins the evacuation and gets its line in the floors' clearing.
    const [other] = await db
      .select()
      .from(floors)
      .where(eq(floors.buildingId, floor.buildingId))
      .orderBy(asc(floors.id))
      .then((rows) => rows.filter((row) => row.id !== floor.id));
    await page.click('[data-testid="evacuation-extend"]');
    await page.click(`[data-testid="extend-area-dialog"] label:has(input[data-floor-id="${other.id}"])`);
    await page.click('[data-testid="extend-area-submit"]');
    await page.waitForSelector(`[data-testid="floor-cleared"][data-floor-id="${other.id}"]`, {
      timeout: 10_000,
    });

    // The assembly zone is unsafe: whoever stands in it is sent elsewhere and is not safe until there.
    await page.click('[data-testid="evacuation-redirect"]');
    await page.selectOption('[data-testid="redirect-unsafe"]', String(assembly.id));
    await page.click('[data-testid="redirect-submit"]');
    await page.waitForSelector('[data-testid="unsafe-assembly-notice"]', { timeout: 10_000 });
    await expect
      .poll(() => rowStatus(page, reEnterer.worker.id), { timeout: 10_000 })
      .toBe('autoAcknowledge');
    await page.screenshot({ path: 'test-output/screenshots/muster-redirect.png' });

    await page.click('[data-testid="evacuation-end"]');
    await page.locator('.bp6-alert-footer button.bp6-intent-danger').click();
    await page.waitForSelector(`${WALL}[data-state="ended"]`, { timeout: 10_000 });
    await phone.close();
  });
});
