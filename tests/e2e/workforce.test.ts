import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '../../src/domain/messages';
import { BREAK_MESSAGES } from '../../src/domain/workshiftBreaks';
import { CANCEL_UPDATES_MESSAGE } from '../../src/views/workforce/workforceForm';
import { browserSuite } from './helpers/browserSuite';
import { signIn } from './helpers/pages';
import { recordToasts, toastsSeen } from './helpers/toasts';

const byTestId = (id: string) => `[data-testid="${id}"]`;

async function openScreen(page: Page, baseUrl: string, path: string): Promise<void> {
  await page.goto(`${baseUrl}${path}`);
  await page.waitForSelector(`${byTestId('workforce-list')}, ${byTestId('workforce-empty')}`);
}

async function rowNames(page: Page): Promise<string[]> {
  return (await page.locator(`${byTestId('workforce-row')} td:first-child`).allInnerTexts()).map((text) =>
    text.trim(),
  );
}

async function createNamed(page: Page, name: string): Promise<void> {
  await page.click(byTestId('workforce-new'));
  await page.fill(byTestId('name-form-name'), name);
  await page.click(byTestId('name-form-submit'));
}

describe('Crews, work shifts, worker roles and subcontractors in Chromium', () => {
  const env = browserSuite();
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    context = await env.browser.newContext({ viewport: { width: 1300, height: 850 } });
    page = await context.newPage();
    await recordToasts(page);
    await signIn(page, env.server.baseUrl, 'site-admin@demo.sitewatch.dev');
  });
  afterAll(() => context?.close());

  it('creates a worker role, refuses a duplicate name with the server message, and finds it by search', async () => {
    await openScreen(page, env.server.baseUrl, '/configuration/workerRoles');
    expect(await rowNames(page)).toContain('Carpenter');

    await page.click(byTestId('workforce-new'));
    await page.click(byTestId('name-form-submit'));
    expect(await page.locator(byTestId('name-form')).innerText()).toContain(messages.required('Name'));

    await page.fill(byTestId('name-form-name'), ' carpenter ');
    await page.click(byTestId('name-form-submit'));
    await page.waitForSelector(`${byTestId('name-form')} :text("${messages.duplicateName('Worker role')}")`);

    await page.fill(byTestId('name-form-name'), 'Scaffolder');
    await page.click(byTestId('name-form-submit'));
    await page.waitForSelector(byTestId('name-form'), { state: 'detached' });
    await page.waitForSelector(`${byTestId('workforce-row')} :text("Scaffolder")`);
    expect(await toastsSeen(page)).toContain(messages.created('Worker role'));

    await page.fill(byTestId('workforce-search'), 'scaff');
    expect(await rowNames(page)).toEqual(['Scaffolder']);
    await page.fill(byTestId('workforce-search'), 'no such role');
    await page.waitForSelector(byTestId('workforce-empty'));
  });

  it('asks before closing a dirty form, and closes a clean one at once', async () => {
    await page.fill(byTestId('workforce-search'), '');
    await page.click(byTestId('workforce-new'));
    await page.click(byTestId('name-form-cancel'));
    await page.waitForSelector(byTestId('name-form'), { state: 'detached' });

    await page.click(byTestId('workforce-new'));
    await page.fill(byTestId('name-form-name'), 'Half typed');
    await page.click(byTestId('name-form-cancel'));
    expect(await page.locator(byTestId('workforce-confirm-cancel')).innerText()).toBe(CANCEL_UPDATES_MESSAGE);
    await page.click('.bp6-alert-footer .bp6-button:not(.bp6-intent-warning)');
    expect(await page.inputValue(byTestId('name-form-name'))).toBe('Half typed');
    await page.keyboard.press('Escape');
    await page.waitForSelector(byTestId('workforce-confirm-cancel'));
    await page.click('.bp6-alert-footer .bp6-intent-warning');
    await page.waitForSelector(byTestId('name-form'), { state: 'detached' });
    expect(await rowNames(page)).not.toContain('Half typed');
  });

  it('creates a subcontractor', async () => {
    await openScreen(page, env.server.baseUrl, '/configuration/subContractors');
    await createNamed(page, 'E2E Formwork LLC');
    await page.waitForSelector(`${byTestId('workforce-row')} :text("E2E Formwork LLC")`);
    expect(await toastsSeen(page)).toContain(messages.created('Subcontractor'));
  });

  it('creates a crew, and shows current members with DD/MM/YYYY assignment dates', async () => {
    await openScreen(page, env.server.baseUrl, '/crews');
    await createNamed(page, 'E2E Crew');
    await page.waitForSelector(`${byTestId('workforce-row')} :text("E2E Crew")`);
    const text = await page.locator(byTestId('workforce-list')).innerText();
    expect(text).toMatch(/\b\d{2}\/\d{2}\/\d{4}\b/);
    expect(text).not.toMatch(/\b\d{4}-\d{2}-\d{2}\b/);
    await page.locator(byTestId('workforce-open')).first().click();
    await page.waitForSelector(byTestId('crew-members'));
    expect(await page.locator(byTestId('crew-members')).innerText()).toMatch(/\d{2}\/\d{2}\/\d{4}/);
    await page.keyboard.press('Escape');
  });

  it('creates a work shift with a break, after showing a break error', async () => {
    await openScreen(page, env.server.baseUrl, '/workshifts');
    await page.click(byTestId('workforce-new'));
    await page.fill(byTestId('workshift-field-name'), 'E2E Morning');
    await page.fill(byTestId('workshift-field-category'), 'Concrete');
    await page.fill(byTestId('workshift-field-start'), '06:00');
    await page.fill(byTestId('workshift-field-end'), '14:00');
    await page.check(byTestId('workshift-day-5'), { force: true });
    await page.click(byTestId('workshift-break-add'));
    await page.fill(byTestId('workshift-field-breaks.0.start'), '15:00');
    await page.fill(byTestId('workshift-field-breaks.0.end'), '15:30');
    await page.click(byTestId('workshift-form-submit'));
    expect(await page.locator(byTestId('workshift-break-errors')).innerText()).toContain(
      BREAK_MESSAGES.outside,
    );

    await page.fill(byTestId('workshift-field-breaks.0.start'), '10:00');
    await page.fill(byTestId('workshift-field-breaks.0.end'), '10:30');
    await page.waitForSelector(byTestId('workshift-break-errors'), { state: 'detached' });
    await page.click(byTestId('workshift-form-submit'));
    await page.waitForSelector(byTestId('workshift-form'), { state: 'detached' });
    const row = page.locator(byTestId('workforce-row'), { hasText: 'E2E Morning' });
    expect(await row.innerText()).toContain('10:00–10:30');
    expect(await toastsSeen(page)).toContain(messages.created('Workshift'));
    await page.screenshot({ path: 'test-output/screenshots/workforce.png' });
  });

  it('reads right-to-left in Arabic, with Arabic texts', async () => {
    await page.selectOption(byTestId('language-switch'), 'ar');
    await page.waitForFunction(() => document.documentElement.dir === 'rtl');
    expect(await page.locator(byTestId('workforce-new')).innerText()).toMatch(/[\u0600-\u06FF]/);
    expect(await page.locator(byTestId('workforce-count')).innerText()).toMatch(/[\u0600-\u06FF]/);
    await page.screenshot({ path: 'test-output/screenshots/workforce-ar.png' });
  });
});
