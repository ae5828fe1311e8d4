import { eq, isNotNull } from 'drizzle-orm';
import type mqtt from 'mqtt';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { floors, helmetAssignments, inventoryItems } from '../../server/db/schema';
import { topicFor } from '../../src/domain/live';
import { browserSuite } from './helpers/browserSuite';
import { blueprintPoint, drawnWorkers, helmetsOfWorkers, openLivePage } from './helpers/liveFloor';

interface DrawnWorker {
  inventory_id: number;
  x: number;
  y: number;
}

const byTestId = (id: string) => `[data-testid="${id}"]`;
const CANCEL_UPDATES = 'You are about to cancel all your updates. All changes will be unsaved, proceed?';
const OLD_HELMET = 'HLM-E2E-RETIRED';

/** The worker's page: the drawer of one worker on /workers (issue 6). */
describe("a worker's page in Chromium", () => {
  const suite = browserSuite({ live: true });
  let page: Page;
  let publisher: mqtt.MqttClient;
  let helmet: typeof inventoryItems.$inferSelect;
  let workerName: string;
  let floor: typeof floors.$inferSelect;

  /** The marker of the worker's helmet on the page's small canvas, once it is near (u, v) of the blueprint. */
  async function markerNear(u: number, v: number): Promise<DrawnWorker> {
    const want = { x: u * floor.blueprintWidth!, y: v * floor.blueprintHeight! };
    let last: DrawnWorker[] = [];
    const deadline = Date.now() + 15_000;
    while (Date.now() < deadline) {
      last = await drawnWorkers<DrawnWorker>(page, 'worker-last-seen-canvas');
      const mine = last.find((w) => w.inventory_id === helmet.id);
      if (mine && Math.abs(mine.x - want.x) < 1 && Math.abs(mine.y - want.y) < 1) return mine;
      await page.waitForTimeout(100);
    }
    throw new Error(`no marker of ${helmet.id} near ${JSON.stringify(want)}: ${JSON.stringify(last)}`);
  }

  async function openWorker(): Promise<void> {
    await page.goto(`${suite.server.baseUrl}/workers`);
    await page.fill(byTestId('workers-search'), helmet.wntInventoryId);
    await expect
      .poll(() => page.locator(byTestId('workers-count')).innerText(), { timeout: 10_000 })
      .toMatch(/: 1$/);
    await page.click(byTestId('workers-open'));
    await page.waitForSelector(byTestId('worker-details'));
    // After its slide-in.
    await page.waitForSelector('.bp6-drawer.bp6-overlay-enter-done');
  }

  beforeAll(async () => {
    const db = suite.server.db;
    const [worn] = await helmetsOfWorkers(db, 1);
    workerName = worn.worker.name;
    // The first floor with a blueprint.
    [floor] = await db
      .select()
      .from(floors)
      .where(isNotNull(floors.blueprintFile))
      .orderBy(floors.id)
      .limit(1);
    // Seen on a floor (the simulator is off): the reply's position, which the page starts from.
    const { lat, long } = blueprintPoint(floor)(0.7, 0.3);
    [helmet] = await db
      .update(inventoryItems)
      .set({ floorId: floor.id, lat, long, isOnline: true, isActive: true, lastSeen: new Date() })
      .where(eq(inventoryItems.id, worn.helmet.id))
      .returning();
    // An earlier helmet the worker wore for a while.
    const [old] = await db
      .insert(inventoryItems)
      .values({ siteId: suite.server.siteId, wntInventoryId: OLD_HELMET, type: 'helmet' })
      .returning();
    await db.insert(helmetAssignments).values({
      inventoryItemId: old.id,
      workerId: worn.worker.id,
      assignedAt: new Date('2026-01-05T08:00:00Z'),
      unassignedAt: new Date('2026-02-10T10:00:00Z'),
    });
    ({ page, publisher } = await openLivePage(suite, { width: 1400, height: 900 }));
  });
  afterAll(async () => {
    await publisher?.endAsync();
  });

  it('shows the details under a title it does not cover, and the helmet history newest first', async () => {
    await openWorker();
    const header = (await page.locator('.bp6-drawer-header').boundingBox())!;
    const name = (await page.locator(byTestId('worker-name')).boundingBox())!;
    const content = (await page.locator(byTestId('worker-details')).boundingBox())!;
    expect(content.y).toBeGreaterThanOrEqual(header.y + header.height);
    expect(name.y).toBeGreaterThanOrEqual(header.y + header.height);
    // The details use the drawer's width, not a narrow floating card.
    expect(content.width).toBeGreaterThan(360);

    const rows = page.locator(byTestId('worker-helmet-history-row'));
    await expect.poll(() => rows.count()).toBe(2);
    const [current, earlier] = await rows.allInnerTexts();
    expect(current).toContain(helmet.wntInventoryId);
    expect(current).toContain('Current');
    expect(earlier).toContain(OLD_HELMET);
    expect(earlier).toContain('5 Jan 2026');
    expect(earlier).toContain('10 Feb 2026');
  });

  it('draws the worker on its floor, follows its live position and names the zone', async () => {
    await markerNear(0.7, 0.3);
    expect(await page.locator(byTestId('worker-last-seen-floor')).innerText()).toBe(floor.name);
    // Each fact once: the name heads the drawer; floor, zone and last seen are in the last-seen section.
    const labels = await page.locator(`${byTestId('worker-drawer')} dt`).allInnerTexts();
    for (const label of ['Name', 'Floor', 'Zone', 'Last seen']) {
      expect(labels.filter((text) => text === label).length, `${label} in ${labels}`).toBeLessThanOrEqual(1);
    }
    await page.locator(byTestId('worker-last-seen')).scrollIntoViewIfNeeded();
    await page.screenshot({ path: 'test-output/screenshots/worker-page-last-seen.png' });

    // A position over MQTT moves the marker into the fit-out area without a reload.
    const { lat, long } = blueprintPoint(floor)(0.3, 0.25);
    await publisher.publishAsync(
      topicFor(helmet.siteId, 'positions', suite.server.topicRoot),
      JSON.stringify({
        tag: helmet.wntInventoryId,
        ts: new Date().toISOString(),
        lat,
        long,
        floorId: floor.id,
        online: true,
        active: true,
      }),
      { qos: 1 },
    );
    await markerNear(0.3, 0.25);
    await expect
      .poll(() => page.locator(byTestId('worker-last-seen-zone')).innerText(), { timeout: 10_000 })
      .toBe('Fit-out area');
    // Only this worker is drawn on the page's canvas.
    const drawn = await drawnWorkers<DrawnWorker>(page, 'worker-last-seen-canvas');
    expect(drawn.map((w) => w.inventory_id)).toEqual([helmet.id]);
  });

  it('leaves a clean form at once and asks before dropping typed changes', async () => {
    await page.click(byTestId('worker-edit'));
    await page.waitForSelector(byTestId('worker-form'));
    await page.click(byTestId('worker-form-cancel'));
    await page.waitForSelector(byTestId('worker-details'));
    expect(await page.locator('.bp6-alert').count()).toBe(0);

    await page.click(byTestId('worker-edit'));
    await page.fill(byTestId('worker-field-name'), `${workerName} (typo)`);
    await page.click(byTestId('worker-form-cancel'));
    await expect.poll(() => page.locator('.bp6-alert').innerText()).toContain(CANCEL_UPDATES);
    await page.screenshot({ path: 'test-output/screenshots/worker-page-dirty.png' });
    await page.locator('.bp6-alert').getByRole('button', { name: 'Keep editing' }).click();
    await page.waitForSelector('.bp6-alert', { state: 'detached' });
    expect(await page.inputValue(byTestId('worker-field-name'))).toBe(`${workerName} (typo)`);

    // Escape asks too; proceeding closes the drawer without saving.
    await page.press(byTestId('worker-field-name'), 'Escape');
    await expect.poll(() => page.locator('.bp6-alert').innerText()).toContain(CANCEL_UPDATES);
    await page.locator('.bp6-alert').getByRole('button', { name: 'Proceed' }).click();
    await page.waitForSelector(byTestId('worker-drawer'), { state: 'detached' });
    await openWorker();
    expect(await page.locator(byTestId('worker-name')).innerText()).toBe(workerName);
  });

  it('reads right to left in Arabic, the drawer on the left and its title uncovered', async () => {
    await page.click('.bp6-drawer .bp6-dialog-close-button');
    await page.waitForSelector(byTestId('worker-drawer'), { state: 'detached' });
    await page.selectOption(byTestId('language-switch'), 'ar');
    await page.waitForFunction(() => document.documentElement.dir === 'rtl');
    await page.locator(byTestId('workers-open')).first().click();
    await page.waitForSelector('.bp6-drawer.bp6-overlay-enter-done');
    await expect.poll(async () => (await page.locator('.bp6-drawer').boundingBox())?.x).toBe(0);
    expect(await page.locator(byTestId('worker-helmet-history')).innerText()).toContain('سجل الخوذات');
    const header = (await page.locator('.bp6-drawer-header').boundingBox())!;
    const content = (await page.locator(byTestId('worker-details')).boundingBox())!;
    expect(content.y).toBeGreaterThanOrEqual(header.y + header.height);
    await page.locator(byTestId('worker-last-seen')).scrollIntoViewIfNeeded();
    await page.screenshot({ path: 'test-output/screenshots/worker-page-ar.png' });
    await page.selectOption(byTestId('language-switch'), 'en');
  });
});
