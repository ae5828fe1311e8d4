import { mkdirSync } from 'node:fs';
import { and, eq } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildings, floors, walls } from '../../server/db/schema';
import { browserSuite } from './helpers/browserSuite';
import { E2E_OUTPUT_DIR } from './helpers/outputDir';
import { signIn } from './helpers/pages';
import { recordToasts, toastsSeen } from './helpers/toasts';

/**
 * Walls on the installation canvas, as a site admin plans a floor: draw one in a material, rename
 * it, move it by dragging its line and reshape it by dragging a vertex, search the list, cancel a
 * drawing with Escape, and delete it after the confirmation. What the server stored is read back
 * from the database after each step.
 */

const SCREENSHOTS = `${E2E_OUTPUT_DIR}/screenshots`;
const byTestId = (id: string) => `[data-testid="${id}"]`;
const NAME = 'E2E partition';
const RENAMED = 'E2E partition B';

describe('installation walls in Chromium', () => {
  const suite = browserSuite();
  let page: Page;
  let floorId: number;
  let buildingId: number;

  const stored = async () =>
    suite.server.db
      .select()
      .from(walls)
      .where(and(eq(walls.floorId, floorId), eq(walls.name, RENAMED)));
  const wallItem = (name: string) => page.locator(byTestId('wall-item'), { hasText: name });
  /** The canvas element's box on the page. */
  const canvasBox = async () => {
    const box = await page
      .locator(`${byTestId('installation-canvas')} canvas`)
      .first()
      .boundingBox();
    if (!box) throw new Error('the canvas has no box');
    return box;
  };

  beforeAll(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    const { db, siteId } = suite.server;
    const [floor] = await db
      .select({ id: floors.id, buildingId: floors.buildingId })
      .from(floors)
      .innerJoin(buildings, eq(buildings.id, floors.buildingId))
      .where(
        and(eq(buildings.siteId, siteId), eq(buildings.name, 'North Block'), eq(floors.name, 'Level 1')),
      );
    floorId = floor.id;
    buildingId = floor.buildingId;
    page = await suite.browser.newPage({ viewport: { width: 1500, height: 1000 } });
    await recordToasts(page);
    await signIn(page, suite.server.baseUrl, 'site-admin@demo.sitewatch.dev');
  }, 240_000);

  it('draws a concrete wall, renames it, moves it, reshapes it and deletes it', async () => {
    await page.goto(`${suite.server.baseUrl}/installation?buildingId=${buildingId}&floorId=${floorId}`);
    await page.waitForSelector(byTestId('walls-panel'), { timeout: 20_000 });
    await page.waitForSelector(`${byTestId('installation-canvas')} [data-renderer]`, { timeout: 20_000 });
    const box = await canvasBox();
    // A short wall low on the canvas, where the demo's plan leaves room.
    const y = box.y + box.height * 0.82;
    const x1 = box.x + box.width * 0.3;
    const x2 = box.x + box.width * 0.45;
    const x3 = box.x + box.width * 0.45;
    const y3 = box.y + box.height * 0.7;

    // Draw: a material first, two clicks and a double-click for the third point, then the name.
    await page.selectOption(byTestId('wall-new-material'), 'concrete');
    await page.click(byTestId('wall-draw'));
    await page.waitForSelector(byTestId('wall-drawing'));
    await page.mouse.click(x1, y);
    await page.mouse.click(x2, y);
    expect(await page.locator(byTestId('wall-draw-points')).innerText()).toContain('2');
    await page.mouse.dblclick(x3, y3);
    await page.waitForSelector(byTestId('wall-naming'));
    expect(await page.inputValue(byTestId('wall-material-select'))).toBe('concrete');
    await page.fill(byTestId('wall-name-input'), NAME);
    await page.click(byTestId('wall-save'));
    await wallItem(NAME).waitFor();
    await expect.poll(() => toastsSeen(page)).toContain('Wall created');
    const [created] = await suite.server.db
      .select()
      .from(walls)
      .where(and(eq(walls.floorId, floorId), eq(walls.name, NAME)));
    expect(created.material).toBe('concrete');
    expect(created.points).toHaveLength(3);
    await page.screenshot({ path: `${SCREENSHOTS}/installation-wall-drawn.png` });

    // The new wall is selected: rename it.
    await page.waitForSelector(byTestId('wall-selected'));
    await page.fill(byTestId('wall-edit-name'), RENAMED);
    await page.click(byTestId('wall-edit-save'));
    await wallItem(RENAMED).waitFor();
    expect((await stored())[0].points).toEqual(created.points);

    // Move the whole wall: press on its first segment, drag 40 px right and 30 px up.
    const mid = { x: (x1 + x2) / 2, y };
    await page.mouse.move(mid.x, mid.y);
    await page.mouse.down();
    await page.mouse.move(mid.x + 20, mid.y - 15, { steps: 4 });
    await page.mouse.move(mid.x + 40, mid.y - 30, { steps: 4 });
    await page.mouse.up();
    await expect
      .poll(async () => (await stored())[0].points[0], { timeout: 10_000 })
      .not.toEqual(created.points[0]);
    const moved = (await stored())[0].points;
    // Every vertex moved by the same amount.
    const shift = [moved[0][0] - created.points[0][0], moved[0][1] - created.points[0][1]];
    moved.forEach((point, index) => {
      expect(point[0] - created.points[index][0]).toBeCloseTo(shift[0], 9);
      expect(point[1] - created.points[index][1]).toBeCloseTo(shift[1], 9);
    });
    expect(shift[0]).toBeGreaterThan(0);
    expect(shift[1]).toBeGreaterThan(0);

    // The database has the move before the screen has its answer; until then the wall is still
    // "updating" and a press on it is not a new drag (Delete is enabled again once it is selected).
    await page.waitForSelector(`${byTestId('wall-delete')}:not([disabled])`, { timeout: 10_000 });
    // Reshape: drag the last vertex (now 40 px right, 30 px up of where it was drawn) down 50 px.
    await page.mouse.move(x3 + 40, y3 - 30);
    await page.mouse.down();
    await page.mouse.move(x3 + 40, y3 + 20, { steps: 6 });
    await page.mouse.up();
    await expect.poll(async () => (await stored())[0].points[2], { timeout: 10_000 }).not.toEqual(moved[2]);
    const reshaped = (await stored())[0].points;
    expect(reshaped.slice(0, 2)).toEqual(moved.slice(0, 2));
    expect(reshaped[2][1]).toBeLessThan(moved[2][1]);
    await page.screenshot({ path: `${SCREENSHOTS}/installation-wall-moved.png` });

    // Search is case-insensitive.
    await page.fill(byTestId('wall-search'), 'e2e PARTITION b');
    await expect.poll(() => page.locator(byTestId('wall-item')).count()).toBe(1);
    await page.fill(byTestId('wall-search'), 'no such wall');
    await expect.poll(() => page.locator(byTestId('wall-item')).count()).toBe(0);
    await page.fill(byTestId('wall-search'), '');

    // Escape (out of the search box) lets go of the wall; a drawing begun is dropped by Escape too.
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.keyboard.press('Escape');
    await page.waitForSelector(byTestId('wall-selected'), { state: 'detached' });
    await page.click(byTestId('wall-draw'));
    await page.mouse.click(x1, box.y + box.height * 0.3);
    await page.keyboard.press('Escape');
    await page.waitForSelector(byTestId('wall-drawing'), { state: 'detached' });

    // Delete it from the list, after the confirmation.
    await wallItem(RENAMED).locator('button').click();
    await page.click(byTestId('wall-delete'));
    expect(await page.locator(byTestId('wall-confirm-delete')).innerText()).toBe(
      'Are you sure to delete this wall?',
    );
    await page.locator('.bp6-alert').getByRole('button', { name: 'Delete wall' }).click();
    await wallItem(RENAMED).waitFor({ state: 'detached' });
    expect(await stored()).toEqual([]);
  }, 120_000);

  it('reads in Arabic, right to left, a wall drawn there too', async () => {
    await page.selectOption(byTestId('language-switch'), 'ar');
    await page.waitForFunction(() => document.documentElement.dir === 'rtl');
    await expect.poll(() => page.locator(`${byTestId('walls-panel')} h3`).innerText()).toBe('الجدران');
    expect(await page.locator(byTestId('wall-draw')).innerText()).toBe('رسم جدار');
    const box = await canvasBox();
    // The floor itself never mirrors: clicks land where they do in English.
    await page.click(byTestId('wall-draw'));
    await page.mouse.click(box.x + box.width * 0.3, box.y + box.height * 0.82);
    await page.mouse.click(box.x + box.width * 0.4, box.y + box.height * 0.82);
    await page.keyboard.press('Enter');
    await page.waitForSelector(byTestId('wall-naming'));
    await page.fill(byTestId('wall-name-input'), 'جدار الممر');
    await page.click(byTestId('wall-save'));
    await wallItem('جدار الممر').waitFor();
    // The new wall's material stays what was picked last (concrete).
    expect(await wallItem('جدار الممر').innerText()).toContain('خرسانة');
    await page.screenshot({ path: `${SCREENSHOTS}/installation-wall-ar.png` });
    await page.selectOption(byTestId('language-switch'), 'en');
    await page.waitForFunction(() => document.documentElement.dir === 'ltr');
  }, 60_000);
});
