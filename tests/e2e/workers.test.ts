import { crc32, deflateSync } from 'node:zlib';
import { and, eq, isNotNull, sql } from 'drizzle-orm';
import type { BrowserContext, Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inventoryItems, sites, userSites, users, workers } from '../../server/db/schema';
import { calendarDateIn } from '../../src/domain/calendarDate';
import { formatAssignmentDate } from '../../src/domain/currentAssignment';
import { messages } from '../../src/domain/messages';
import { workerMessages } from '../../src/domain/workerValidation';
import { WINDOW_PAGE_SIZE } from '../../src/views/workers/useWorkerWindow';
import { WORKER_COLUMNS } from '../../src/views/workers/workerColumns';
import { WORKER_TABLE_SCROLLER } from './harness/workerTableFixture';
import { browserSuite } from './helpers/browserSuite';
import { signIn } from './helpers/pages';
import { recordToasts, toastsSeen } from './helpers/toasts';

/** A small real PNG (signature, IHDR, one IDAT, IEND), one flat colour. */
function makePng(size: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header[8] = 8;
  header[9] = 2;
  const row = Buffer.alloc(1 + size * 3, 0);
  for (let x = 0; x < size; x++) row.set([230, 120, 30], 1 + x * 3);
  const rows = Buffer.concat(Array.from({ length: size }, () => row));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const byTestId = (id: string) => `[data-testid="${id}"]`;
/** How far a row's name may sit from the table's edge on its side (cell padding and border). */
const ROW_NAME_INSET = 40;
const WORKER_NAME = 'Zubair E2E Rigger';
const WORKER_TAG = 'E2E-TAG-77';
const SPARE_HELMET = 'HLM-E2E-SPARE';
/** A demo crew and a demo shift the new worker joins. */
const CREW = 'Rebar';
const SHIFT = 'Night shift';

async function waitForToast(page: Page, text: string): Promise<void> {
  await expect.poll(() => toastsSeen(page), { timeout: 10_000 }).toContain(text);
}

describe('Workers in Chromium', () => {
  const env = browserSuite();
  let context: BrowserContext;
  let page: Page;
  let timeZone = 'UTC';
  const consoleProblems: string[] = [];

  beforeAll(async () => {
    const [site] = await env.server.db
      .select({ timezone: sites.timezone })
      .from(sites)
      .where(eq(sites.id, env.server.siteId));
    timeZone = site.timezone;
    // Every demo helmet is worn: a spare one on the demo site's first network, for the picker.
    const [worn] = await env.server.db
      .select({ networkId: inventoryItems.networkId })
      .from(inventoryItems)
      .where(
        and(
          eq(inventoryItems.siteId, env.server.siteId),
          eq(inventoryItems.type, 'helmet'),
          isNotNull(inventoryItems.networkId),
        ),
      )
      .limit(1);
    await env.server.db.insert(inventoryItems).values({
      siteId: env.server.siteId,
      networkId: worn.networkId,
      wntInventoryId: SPARE_HELMET,
      type: 'helmet',
    });
    context = await env.browser.newContext({ viewport: { width: 1400, height: 900 }, acceptDownloads: true });
    page = await context.newPage();
    page.on('console', (message) => {
      if (message.type() === 'warning' || message.type() === 'error') consoleProblems.push(message.text());
    });
    await recordToasts(page);
    await signIn(page, env.server.baseUrl, 'site-admin@demo.sitewatch.dev');
    await page.goto(`${env.server.baseUrl}/workers`);
    await page.waitForSelector(byTestId('workers-table'));
  });
  afterAll(() => context?.close());

  it('lists the demo workers with a total in thousands-separated form and helmet dots', async () => {
    // Left to right the name is the first column, at the table's left edge.
    const table = (await page.locator(byTestId('workers-table')).boundingBox())!;
    const name = (await page.locator(byTestId('workers-open')).first().boundingBox())!;
    expect(name.x - table.x).toBeLessThan(ROW_NAME_INSET);
    const count = await page.locator(byTestId('workers-count')).innerText();
    expect(count).toMatch(/^Workers: \d{1,3}(,\d{3})*$/);
    // The table's keyboard shortcuts have their provider (Blueprint warns once per table otherwise).
    expect(consoleProblems.filter((text) => text.includes('Blueprint'))).toEqual([]);
    expect(await page.locator('.sw-helmet-dot').count()).toBeGreaterThan(0);
  });

  it('scrolls through the whole list, fetching the rows that come into view from the server', async () => {
    const names = await env.server.db
      .select({ name: workers.name })
      .from(workers)
      .where(eq(workers.siteId, env.server.siteId))
      .orderBy(sql`lower(${workers.name})`, workers.id);
    expect(names.length).toBeGreaterThan(WINDOW_PAGE_SIZE);
    const pagesAsked: string[] = [];
    const listener = (request: Request) => {
      const url = new URL(request.url());
      if (url.pathname.endsWith('/workers')) pagesAsked.push(url.searchParams.get('page') ?? '');
    };
    page.on('request', listener);
    // The table is as tall as the whole list, though only the first page was fetched.
    const height = await page.$eval(WORKER_TABLE_SCROLLER, (element) => element.scrollHeight);
    expect(height).toBeGreaterThanOrEqual(names.length * 30);
    await page.$eval(WORKER_TABLE_SCROLLER, (element) => {
      element.scrollTop = element.scrollHeight;
    });
    const last = names.at(-1)!.name;
    await expect
      .poll(() => page.locator(byTestId('workers-open')).allInnerTexts(), { timeout: 10_000 })
      .toContain(last);
    page.off('request', listener);
    expect(pagesAsked).toContain(String(Math.ceil(names.length / WINDOW_PAGE_SIZE)));
    await page.$eval(WORKER_TABLE_SCROLLER, (element) => {
      element.scrollTop = 0;
    });
    await expect
      .poll(() => page.locator(byTestId('workers-open')).allInnerTexts(), { timeout: 10_000 })
      .toContain(names[0].name);
  });

  it('sorts by a column when its header is clicked with the mouse, and back', async () => {
    const names = await env.server.db
      .select({ name: workers.name })
      .from(workers)
      .where(eq(workers.siteId, env.server.siteId))
      .orderBy(sql`lower(${workers.name})`, workers.id);
    const firstName = () => page.locator(byTestId('workers-open')).first().innerText();
    // The name column is frozen left to right: its header is the one in the top-left quadrant,
    // over the copies Blueprint keeps under it. A real pointer click at its centre: Blueprint's
    // header text ignores the pointer, so a button that did not take it back would never hear it.
    const nameHeader = page.locator(`.bp6-table-quadrant-top-left ${byTestId('workers-sort-name')}`);
    await nameHeader.click();
    await expect.poll(firstName, { timeout: 10_000 }).toBe(names.at(-1)!.name);
    expect(await nameHeader.getAttribute('data-sort')).toBe('desc');
    await nameHeader.click();
    await expect.poll(firstName, { timeout: 10_000 }).toBe(names[0].name);
  });

  it('creates a worker with a picture, checking the fields first', async () => {
    await page.click(byTestId('workers-new'));
    await page.waitForSelector(byTestId('worker-form'));
    await page.click(byTestId('worker-form-submit'));
    await expect
      .poll(() => page.locator(byTestId('worker-form')).innerText())
      .toContain(messages.required('Name'));
    await page.fill(byTestId('worker-field-contact_number'), '05x12');
    await page.click(byTestId('worker-form-submit'));
    await expect
      .poll(() => page.locator(byTestId('worker-form')).innerText())
      .toContain(messages.onlyDigits('Contact number'));

    await page.fill(byTestId('worker-field-name'), WORKER_NAME);
    await page.fill(byTestId('worker-field-worker_tag_id'), WORKER_TAG);
    await page.fill(byTestId('worker-field-contact_number'), '0501234567');
    await page.fill(byTestId('worker-field-helmet_color'), 'orange');
    await page.setInputFiles(byTestId('worker-field-picture'), {
      name: 'face.png',
      mimeType: 'image/png',
      buffer: makePng(64),
    });
    await page.click(byTestId('worker-form-submit'));
    await waitForToast(page, messages.created('Worker'));
    await page.waitForSelector(byTestId('worker-details'));
    expect(await page.locator(byTestId('worker-name')).innerText()).toBe(WORKER_NAME);
    // The uploaded picture comes back through the API with the token.
    await page.waitForSelector(byTestId('worker-picture'));
    await page.waitForSelector('.bp6-overlay-enter-done .bp6-drawer, .bp6-drawer.bp6-overlay-enter-done');
    await page.screenshot({ path: 'test-output/screenshots/workers-drawer.png' });
  });

  it('assigns the spare helmet from the unassigned picker', async () => {
    await page.selectOption(byTestId('worker-helmet-picker'), { label: SPARE_HELMET });
    await page.click(byTestId('worker-helmet-assign'));
    await waitForToast(page, workerMessages.helmetAssigned);
    await expect
      .poll(() => page.locator(byTestId('worker-helmet-current')).innerText())
      .toContain(SPARE_HELMET);
  });

  it("puts the worker in a crew and a shift from the worker's page, shown as current with DD/MM/YYYY", async () => {
    const today = calendarDateIn(timeZone);
    expect(await page.locator(byTestId('worker-crews-none')).innerText()).toBe('Not in a crew yet');

    await page.click(byTestId('worker-assign-crews'));
    await page.waitForSelector(byTestId('assign-form'));
    // "Assigned at" starts at the site's today; the crew must be picked.
    expect(await page.inputValue(byTestId('assign-date'))).toBe(today);
    await page.click(byTestId('assign-form-submit'));
    await expect
      .poll(() => page.locator(byTestId('assign-form')).innerText())
      .toContain(messages.required('Crew'));
    await page.selectOption(byTestId('assign-target'), { label: CREW });
    await page.click(byTestId('assign-form-submit'));
    await waitForToast(page, 'Workers are assigned to the crew');
    await page.waitForSelector(byTestId('assign-form'), { state: 'detached' });
    await expect.poll(() => page.locator(byTestId('worker-crews-current')).innerText()).toContain(CREW);
    const crewRow = await page.locator(byTestId('worker-crews-current')).innerText();
    expect(crewRow).toContain(formatAssignmentDate(today));
    expect(crewRow).toContain('Current');

    await page.click(byTestId('worker-assign-workshifts'));
    await page.waitForSelector(byTestId('assign-form'));
    await page.selectOption(byTestId('assign-target'), { label: SHIFT });
    await page.click(byTestId('assign-form-submit'));
    await waitForToast(page, 'Workers are assigned to the workshift');
    await expect.poll(() => page.locator(byTestId('worker-workshifts-current')).innerText()).toContain(SHIFT);
    expect(await page.locator(byTestId('worker-workshifts-current')).innerText()).toContain(
      formatAssignmentDate(today),
    );
    // The details above follow the same rule on the server.
    await expect.poll(() => page.locator(byTestId('worker-detail-crew_name')).innerText()).toBe(CREW);
    expect(await page.locator(byTestId('worker-detail-workshift_name')).innerText()).toBe(SHIFT);
    await page.screenshot({ path: 'test-output/screenshots/workers-assignments.png' });
    await page.click('.bp6-drawer .bp6-dialog-close-button');
    await page.waitForSelector(byTestId('worker-drawer'), { state: 'detached' });
  });

  it('finds the worker by its helmet through the server search', async () => {
    await page.fill(byTestId('workers-search'), SPARE_HELMET);
    await expect
      .poll(() => page.locator(byTestId('workers-count')).innerText(), { timeout: 10_000 })
      .toBe('Workers: 1');
    const helmetCell = page.locator(byTestId('workers-helmet')).first();
    expect(await helmetCell.innerText()).toContain(SPARE_HELMET);
    expect(await helmetCell.locator('.sw-helmet-dot').count()).toBe(1);
    // The row's crew and shift columns (crew_name, workshift_name) show the new assignments.
    const column = (key: string) =>
      page
        .locator(
          `.bp6-table-body-cells .bp6-table-cell-col-${WORKER_COLUMNS.findIndex((one) => one.key === key)}`,
        )
        .first()
        .innerText();
    expect(await column('crew_name')).toBe(CREW);
    expect(await column('workshift_name')).toBe(SHIFT);
    // With a search on (and "Clear filters" shown), "New worker" stays on the search's row.
    const top = async (id: string) => (await page.locator(byTestId(id)).boundingBox())!.y;
    expect(Math.abs((await top('workers-new')) - (await top('workers-search')))).toBeLessThanOrEqual(4);
    await page.screenshot({ path: 'test-output/screenshots/workers.png' });
    await page.click(byTestId('workers-open'));
    await page.waitForSelector(byTestId('worker-details'));
  });

  it('unassigns the helmet after "Are you sure to unassign helmet?"', async () => {
    await page.click(byTestId('worker-helmet-unassign'));
    await expect
      .poll(() => page.locator('.bp6-alert').innerText())
      .toContain('Are you sure to unassign helmet?');
    await page.locator('.bp6-alert').getByRole('button', { name: 'Yes' }).click();
    await waitForToast(page, workerMessages.helmetUnassigned);
    await page.waitForSelector(byTestId('worker-helmet-picker'));
  });

  it('deletes the worker after a confirmation', async () => {
    await page.click(byTestId('worker-delete'));
    await page.locator('.bp6-alert').getByRole('button', { name: 'Yes' }).click();
    await waitForToast(page, messages.deleted('Worker'));
    await page.waitForSelector(byTestId('worker-drawer'), { state: 'detached' });
    await page.fill(byTestId('workers-search'), WORKER_TAG);
    await page.waitForSelector(byTestId('workers-empty'));
  });

  it('exports the filtered list to .xlsx', async () => {
    await page.fill(byTestId('workers-search'), 'HLM-000');
    await expect
      .poll(() => page.locator(byTestId('workers-count')).innerText(), { timeout: 10_000 })
      .toBe('Workers: 9');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.click(byTestId('workers-export')),
    ]);
    expect(download.suggestedFilename()).toMatch(/^workers-.+\.xlsx$/);
    const path = await download.path();
    const { default: ExcelJS } = await import('exceljs');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.readFile(path);
    const sheet = workbook.worksheets[0];
    expect(sheet.getRow(1).getCell(1).value).toBe('Name');
    expect(sheet.rowCount).toBe(1 + 9);
  });

  it("shows another site's list from the top, without the filters that named this site's roles", async () => {
    await page.fill(byTestId('workers-search'), '');
    const [demoSite] = await env.server.db.select().from(sites).where(eq(sites.id, env.server.siteId));
    const [siteAdmin] = await env.server.db
      .select({ id: users.id })
      .from(users)
      .where(eq(users.email, 'site-admin@demo.sitewatch.dev'));
    const [annex] = await env.server.db
      .insert(sites)
      .values({ name: 'Annex W', clientId: demoSite.clientId, timezone: demoSite.timezone })
      .returning();
    await env.server.db.insert(userSites).values({ userId: siteAdmin.id, siteId: annex.id });
    // More workers than the window shows, so a scroll position could carry over.
    const annexWorkers = Array.from(
      { length: 60 },
      (_, i) => `Annex Welder ${String(i + 1).padStart(2, '0')}`,
    );
    await env.server.db.insert(workers).values(annexWorkers.map((name) => ({ siteId: annex.id, name })));
    const [busiest] = await env.server.db
      .select({ roleId: workers.workerRoleId, count: sql<number>`count(*)::int` })
      .from(workers)
      .where(and(eq(workers.siteId, env.server.siteId), isNotNull(workers.workerRoleId)))
      .groupBy(workers.workerRoleId)
      .orderBy(sql`count(*) desc`)
      .limit(1);
    const pickSite = (siteId: number) => page.selectOption(byTestId('site-picker'), String(siteId));
    const count = () => page.locator(byTestId('workers-count')).innerText();
    const scrollTop = () => page.$eval(WORKER_TABLE_SCROLLER, (element) => element.scrollTop);

    await page.reload();
    // With no site picked yet, the first by name (the annex) is shown: go back to the demo site.
    await pickSite(env.server.siteId);
    await page.selectOption(byTestId('workers-filter-roleId'), String(busiest.roleId));
    await expect.poll(count, { timeout: 10_000 }).toBe(`Workers: ${busiest.count}`);
    // The annex has no such role: the filter goes rather than hiding all of its workers.
    await pickSite(annex.id);
    await expect.poll(count, { timeout: 10_000 }).toBe('Workers: 60');
    expect(await page.inputValue(byTestId('workers-filter-roleId'))).toBe('');

    await pickSite(env.server.siteId);
    await expect.poll(count, { timeout: 10_000 }).not.toBe('Workers: 60');
    await page.$eval(WORKER_TABLE_SCROLLER, (element) => {
      element.scrollTop = element.scrollHeight;
    });
    await expect.poll(scrollTop).toBeGreaterThan(0);
    await pickSite(annex.id);
    await expect.poll(count, { timeout: 10_000 }).toBe('Workers: 60');
    await expect
      .poll(async () => (await page.locator(byTestId('workers-open')).allInnerTexts())[0], {
        timeout: 10_000,
      })
      .toBe(annexWorkers[0]);
    expect(await scrollTop()).toBe(0);
    await page.screenshot({ path: 'test-output/screenshots/workers-site-switch.png' });

    await pickSite(env.server.siteId);
    await expect.poll(count, { timeout: 10_000 }).not.toBe('Workers: 60');
  });

  it('reads right to left in Arabic, with Arabic headings and the drawer on the left', async () => {
    await page.fill(byTestId('workers-search'), '');
    await page.selectOption(byTestId('language-switch'), 'ar');
    await page.waitForFunction(() => document.documentElement.dir === 'rtl');
    await expect.poll(() => page.locator(byTestId('workers-count')).innerText()).toMatch(/^العمال: /);
    await expect.poll(() => page.locator(byTestId('workers-table')).innerText()).toContain('الاسم');
    // Right to left the name is the first column a reader meets: at the table's right edge, in view.
    const table = (await page.locator(byTestId('workers-table')).boundingBox())!;
    await expect
      .poll(async () => {
        const name = await page.locator(byTestId('workers-open')).first().boundingBox();
        return name ? Math.round(table.x + table.width - (name.x + name.width)) : null;
      })
      .toBeLessThan(ROW_NAME_INSET);
    await page.screenshot({ path: 'test-output/screenshots/workers-ar-list.png' });
    await page.locator(byTestId('workers-open')).first().click();
    await page.waitForSelector(byTestId('worker-details'));
    // After its slide-in, the drawer sits against the left edge.
    await expect.poll(async () => (await page.locator('.bp6-drawer').boundingBox())?.x).toBe(0);
    await page.screenshot({ path: 'test-output/screenshots/workers-ar.png' });
    await page.click('.bp6-drawer .bp6-dialog-close-button');
    await page.selectOption(byTestId('language-switch'), 'en');
  });
});
