import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoEmail } from '../../server/db/demoSeed';
import { workerRoles, workers } from '../../server/db/schema';
import { messages } from '../../src/domain/messages';
import { CANCEL_UPDATES_MESSAGE } from '../../src/views/workforce/workforceForm';
import { browserSuite } from './helpers/browserSuite';
import { E2E_OUTPUT_DIR } from './helpers/outputDir';
import { signIn } from './helpers/pages';

const SCREENSHOTS = `${E2E_OUTPUT_DIR}/screenshots`;
const byTestId = (id: string) => `[data-testid="${id}"]`;

/**
 * A site admin onboards workers from Excel as the issue tells it: opens Configurations, picks the
 * kind, downloads its template, fills it (one contact number wrong), uploads it, sees the error on
 * its cell, gives the draft up, uploads the fixed file, commits, and finds the workers in the list.
 */
describe('Excel bulk upload in Chromium', () => {
  const env = browserSuite();
  let context: BrowserContext;
  let page: Page;
  let folder = '';
  let roleName = '';

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'sitewatch-bulk-'));
    const [role] = await env.server.db
      .select({ name: workerRoles.name })
      .from(workerRoles)
      .where(eq(workerRoles.siteId, env.server.siteId))
      .limit(1);
    roleName = role.name;
    context = await env.browser.newContext({ viewport: { width: 1400, height: 950 }, acceptDownloads: true });
    page = await context.newPage();
    await signIn(page, env.server.baseUrl, demoEmail('group-of-sites-admin'));
  });
  afterAll(() => context?.close());

  let template: Buffer;

  it('opens Bulk Uploads from Configurations and downloads the workers template', async () => {
    await page.goto(`${env.server.baseUrl}/configuration`);
    await page
      .getByRole('link', { name: /Bulk Uploads/ })
      .first()
      .click();
    await page.waitForURL(/\/configuration\/bulkUploads/);
    await page.getByLabel('Upload kind').selectOption('workers');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download template' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('workers-template.xlsx');
    template = await readFile((await download.path()) as string);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(template as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0];
    expect(sheet.getRow(1).values).toContain('Contact number');
    // The role drop-down lists the site's own roles, and a second sheet explains every column.
    const lists = workbook.getWorksheet('Lists');
    const listed = lists?.getColumn(1).values.map(String) ?? [];
    expect(listed).toContain(roleName);
    expect(workbook.getWorksheet('Columns')?.rowCount).toBeGreaterThan(8);
    await page.screenshot({ path: `${SCREENSHOTS}/bulk-uploads-kind.png`, fullPage: true });
  });

  async function filledTemplate(contact: string): Promise<string> {
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(template as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0];
    sheet.spliceRows(2, 1);
    sheet.addRow(['Onboarded Ada', 'ONB-1', '971500000101', 'yellow', roleName]);
    sheet.addRow(['Onboarded Bea', 'ONB-2', contact, 'white', roleName]);
    const path = join(folder, `workers-${contact}.xlsx`);
    await writeFile(path, Buffer.from(await workbook.xlsx.writeBuffer()));
    return path;
  }

  async function upload(path: string): Promise<void> {
    await page.setInputFiles(byTestId('bulk-file'), path);
    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    await page.waitForSelector(byTestId('bulk-review'));
  }

  it('shows a wrong contact number on its cell and refuses to commit the draft', async () => {
    await upload(await filledTemplate('97150ab'));
    const review = page.locator(byTestId('bulk-review'));
    await expect
      .poll(() => review.innerText(), { timeout: 20_000 })
      .toContain(messages.onlyDigits('Contact number'));
    await expect.poll(() => review.innerText()).toMatch(/2 rows, 1 with errors/);
    expect(await page.getByRole('button', { name: 'Commit' }).isDisabled()).toBe(true);
    await page.screenshot({ path: `${SCREENSHOTS}/bulk-uploads-errors.png`, fullPage: true });
    // A reload keeps the draft on screen.
    await page.reload();
    await page.waitForSelector(byTestId('bulk-review'));
    await expect.poll(() => page.locator(byTestId('bulk-review')).innerText()).toContain('with errors');
  });

  it('gives the draft up after a confirmation, uploads the fixed file and commits it', async () => {
    await page.click(byTestId('bulk-cancel-draft'));
    const confirmation = page.locator(byTestId('bulk-confirm-cancel'));
    expect(await confirmation.innerText()).toBe(CANCEL_UPDATES_MESSAGE);
    await page.locator('.bp6-alert').getByRole('button', { name: 'Cancel draft' }).click();
    await page.waitForSelector(byTestId('bulk-cancelled'));
    await upload(await filledTemplate('971500000102'));
    await expect
      .poll(() => page.locator(byTestId('bulk-review')).innerText(), { timeout: 20_000 })
      .toMatch(/2 rows/);
    await page.click(byTestId('bulk-commit'));
    await page.waitForSelector(byTestId('bulk-committed'));
    await expect.poll(() => page.getByText('Upload Success').first().isVisible()).toBe(true);
    const stored = await env.server.db
      .select({ name: workers.name })
      .from(workers)
      .where(eq(workers.workerTagId, 'ONB-2'));
    expect(stored.map((w) => w.name)).toEqual(['Onboarded Bea']);
    const history = page.getByRole('table', { name: 'Past uploads' });
    await expect.poll(() => history.innerText()).toMatch(/committed/i);
    await page.screenshot({ path: `${SCREENSHOTS}/bulk-uploads-committed.png`, fullPage: true });
  });

  it('lists the onboarded workers on the workers screen', async () => {
    await page.goto(`${env.server.baseUrl}/workers`);
    await page.fill(byTestId('workers-search'), 'Onboarded');
    await expect.poll(() => page.locator('body').innerText(), { timeout: 20_000 }).toContain('Onboarded Bea');
    expect(await page.locator('body').innerText()).toContain('Onboarded Ada');
    await page.screenshot({ path: `${SCREENSHOTS}/bulk-uploads-workers.png`, fullPage: true });
  });

  it('reads right to left in Arabic, the past uploads with their figures', async () => {
    await page.goto(`${env.server.baseUrl}/configuration/bulkUploads?kind=workers`);
    await page.selectOption(byTestId('language-switch'), 'ar');
    await expect.poll(() => page.evaluate(() => document.documentElement.dir)).toBe('rtl');
    const history = page.getByRole('table').last();
    await expect.poll(() => history.innerText(), { timeout: 20_000 }).toContain('workers-971500000102.xlsx');
    expect(await page.locator('h1').innerText()).not.toContain('Bulk Uploads');
    await page.screenshot({ path: `${SCREENSHOTS}/bulk-uploads-ar.png`, fullPage: true });
    await page.selectOption(byTestId('language-switch'), 'en');
  });
});
