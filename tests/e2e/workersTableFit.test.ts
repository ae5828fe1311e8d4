import { and, eq } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildings, floors, inventoryItems } from '../../server/db/schema';
import { WORKER_TABLE_SCROLLER } from './harness/workerTableFixture';
import { browserSuite } from './helpers/browserSuite';
import { signIn } from './helpers/pages';

const byTestId = (id: string) => `[data-testid="${id}"]`;
/** The window a site admin reported the building column cut off at. */
const VIEWPORT = { width: 1600, height: 900 };

interface Box {
  left: number;
  right: number;
  top: number;
  bottom: number;
}

/**
 * Where a column's header and first body cell are, and the part of the page the table shows
 * them in: the table's visible scroll box clipped to the window.
 */
function columnGeometry(page: Page, header: string) {
  return page.evaluate(
    ({ header, scroller }) => {
      const box = (element: Element): Box => {
        const r = element.getBoundingClientRect();
        return { left: r.left, right: r.right, top: r.top, bottom: r.bottom };
      };
      const table = document.querySelector('[data-testid="workers-table"]')!;
      const scroll = table.querySelector(scroller)!;
      const visible = box(scroll);
      const view: Box = {
        left: Math.max(visible.left, 0),
        right: Math.min(visible.right, window.innerWidth),
        top: Math.max(visible.top, 0),
        bottom: Math.min(visible.bottom, window.innerHeight),
      };
      // The main quadrant's header cells (frozen quadrants hold copies of the first columns).
      const main = table.querySelector('.bp6-table-quadrant-main')!;
      const headers = [...main.querySelectorAll('.bp6-table-header')];
      const index = headers.findIndex(
        (cell) => cell.querySelector('.bp6-table-column-name')?.textContent?.trim() === header,
      );
      if (index < 0) return null;
      const headerCell = headers[index];
      const columnClass = [...headerCell.classList].find((c) => c.startsWith('bp6-table-cell-col-'));
      const bodyCell = main.querySelector(`.bp6-table-body-cells .${columnClass}.bp6-table-cell-row-0`);
      const text = bodyCell?.querySelector('.bp6-table-truncated-text') ?? bodyCell;
      const label = headerCell.querySelector('.bp6-table-column-name-text') ?? headerCell;
      return {
        view,
        header: box(headerCell),
        headerTruncated: label.scrollWidth > label.clientWidth + 1,
        cell: bodyCell ? box(bodyCell) : null,
        cellText: text?.textContent ?? null,
        cellTruncated: text ? text.scrollWidth > text.clientWidth + 1 : null,
        scrollLeft: scroll.scrollLeft,
        scrollable: scroll.scrollWidth - scroll.clientWidth,
      };
    },
    { header, scroller: WORKER_TABLE_SCROLLER },
  );
}

const inside = (inner: Box, outer: Box) =>
  inner.left >= outer.left - 0.5 &&
  inner.right <= outer.right + 0.5 &&
  inner.top >= outer.top - 0.5 &&
  inner.bottom <= outer.bottom + 0.5;

describe('the workers table at 1600 × 900', () => {
  const env = browserSuite();
  let page: Page;

  beforeAll(async () => {
    // Every helmet last seen on South Block's Level 2: the column's longest demo name in each cell.
    const { db, siteId } = env.server;
    const [{ floorId }] = await db
      .select({ floorId: floors.id })
      .from(floors)
      .innerJoin(buildings, eq(buildings.id, floors.buildingId))
      .where(
        and(eq(buildings.siteId, siteId), eq(buildings.name, 'South Block'), eq(floors.name, 'Level 2')),
      );
    await db
      .update(inventoryItems)
      .set({ floorId })
      .where(and(eq(inventoryItems.siteId, siteId), eq(inventoryItems.type, 'helmet')));
    page = await env.browser.newPage({ viewport: VIEWPORT });
    await signIn(page, env.server.baseUrl, 'site-admin@demo.sitewatch.dev');
    await page.goto(`${env.server.baseUrl}/workers`);
    await page.waitForSelector(byTestId('workers-open'));
  });
  afterAll(() => page?.close());

  it('shows the building column, header and cells, whole and readable without scrolling', async () => {
    const building = await columnGeometry(page, 'Building');
    expect(building, 'a Building column').not.toBeNull();
    const { view, header, cell, headerTruncated, cellTruncated, cellText, scrollLeft } = building!;
    expect(scrollLeft).toBe(0);
    expect(inside(header, view), JSON.stringify({ header, view })).toBe(true);
    expect(cell, 'a first row').not.toBeNull();
    expect(inside(cell!, view), JSON.stringify({ cell, view })).toBe(true);
    expect(headerTruncated).toBe(false);
    expect(cellText).toBe('South Block');
    expect(cellTruncated).toBe(false);
    // The page itself does not scroll sideways: the table keeps its columns in its own box.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      VIEWPORT.width,
    );
    await page.screenshot({ path: 'test-output/screenshots/workers-table-1600.png' });
  });

  it('reaches the last column by scrolling the table sideways, the worker’s name staying in view', async () => {
    // Not drawn yet: the table draws only the columns in view.
    const scrollable = await page.$eval(WORKER_TABLE_SCROLLER, (e) => e.scrollWidth - e.clientWidth);
    expect(scrollable).toBeGreaterThan(0);
    await page.$eval(WORKER_TABLE_SCROLLER, (element) => {
      element.scrollLeft = element.scrollWidth;
    });
    await expect
      .poll(async () => {
        const now = await columnGeometry(page, 'Created on');
        return (
          now !== null && now.cell !== null && inside(now.header, now.view) && inside(now.cell, now.view)
        );
      })
      .toBe(true);
    // The name column is frozen: the first row's name is still on screen and readable.
    const name = page.locator(byTestId('workers-open')).first();
    expect(await name.isVisible()).toBe(true);
    const nameBox = (await name.boundingBox())!;
    const tableBox = (await page.locator(byTestId('workers-table')).boundingBox())!;
    expect(nameBox.x).toBeGreaterThanOrEqual(tableBox.x);
    expect(nameBox.x + nameBox.width).toBeLessThanOrEqual(tableBox.x + tableBox.width);
    await page.screenshot({ path: 'test-output/screenshots/workers-table-1600-scrolled.png' });
  });

  it('in Arabic shows the building column whole from the right-hand end', async () => {
    await page.selectOption(byTestId('language-switch'), 'ar');
    await expect.poll(() => page.evaluate(() => document.documentElement.dir)).toBe('rtl');
    await page.goto(`${env.server.baseUrl}/workers`);
    await page.waitForSelector(byTestId('workers-open'));
    await expect
      .poll(async () => {
        const building = await columnGeometry(page, 'المبنى');
        return building !== null && inside(building.header, building.view) && building.cell !== null
          ? inside(building.cell, building.view) && !building.cellTruncated
          : false;
      })
      .toBe(true);
    await page.screenshot({ path: 'test-output/screenshots/workers-table-1600-ar.png' });
    await page.selectOption(byTestId('language-switch'), 'en');
  });
});
