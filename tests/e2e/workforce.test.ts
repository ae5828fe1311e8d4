import { eq } from 'drizzle-orm';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sites } from '../../server/db/schema';
import { calendarDateIn } from '../../src/domain/calendarDate';
import { formatAssignmentDate } from '../../src/domain/currentAssignment';
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

/** YYYY-MM-DD, `days` before a YYYY-MM-DD date. */
function daysBefore(date: string, days: number): string {
  const at = new Date(`${date}T00:00:00Z`);
  at.setUTCDate(at.getUTCDate() - days);
  return at.toISOString().slice(0, 10);
}

/** Opens a crew's or shift's drawer from its row. */
async function openRow(page: Page, name: string): Promise<void> {
  await page
    .locator(byTestId('workforce-row'), { hasText: name })
    .locator(byTestId('workforce-open'))
    .click();
}

/** Picks the first `count` workers whose tag matches `search`; returns their names. */
async function pickWorkers(page: Page, search: string, count: number): Promise<string[]> {
  await page.fill(byTestId('assign-search'), search);
  // The picker keeps the previous matches until the server answers the new search.
  await expect
    .poll(
      async () => {
        const tags = await page.locator(`${byTestId('assign-option')} .bp6-menu-item-label`).allInnerTexts();
        return tags.length >= count && tags.every((tag) => tag.includes(search));
      },
      { timeout: 10_000 },
    )
    .toBe(true);
  const names: string[] = [];
  for (let index = 0; index < count; index++) {
    const option = page.locator(byTestId('assign-option')).nth(index);
    names.push((await option.locator('.bp6-text-overflow-ellipsis').innerText()).trim());
    await option.click();
  }
  return names;
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
  let today = '';

  beforeAll(async () => {
    const [site] = await env.server.db
      .select({ timezone: sites.timezone })
      .from(sites)
      .where(eq(sites.id, env.server.siteId));
    today = calendarDateIn(site.timezone);
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

  it('assigns workers to a crew from /crews from a chosen date; the members list shows them', async () => {
    await openRow(page, 'E2E Crew');
    await page.waitForSelector(byTestId('crew-drawer'));
    expect(await page.locator(byTestId('crew-members')).innerText()).toContain('No workers are in this crew');
    await page.click(byTestId('crew-assign'));
    await page.waitForSelector(byTestId('assign-form'));
    expect(await page.inputValue(byTestId('assign-date'))).toBe(today);
    await page.click(byTestId('assign-form-submit'));
    await expect
      .poll(() => page.locator(byTestId('assign-form')).innerText())
      .toContain(messages.required('Workers'));

    // Server-side search by tag: the demo workers EMP-1001… .
    const names = await pickWorkers(page, 'EMP-100', 2);
    expect(await page.locator(byTestId('assign-picked')).innerText()).toContain(names[1]);
    const date = daysBefore(today, 3);
    await page.fill(byTestId('assign-date'), date);
    await page.screenshot({ path: 'test-output/screenshots/workforce-assign.png' });
    await page.click(byTestId('assign-form-submit'));
    await page.waitForSelector(byTestId('assign-form'), { state: 'detached' });
    await expect.poll(() => toastsSeen(page)).toContain('Workers are assigned to the crew');
    await expect.poll(() => page.locator(byTestId('crew-member')).count()).toBe(2);
    const members = await page.locator(byTestId('crew-members')).innerText();
    for (const name of names) expect(members).toContain(name);
    expect(members).toContain(formatAssignmentDate(date));
    // The list row counts them too.
    const row = page.locator(byTestId('workforce-row'), { hasText: 'E2E Crew' });
    expect((await row.innerText()).replace(/\s+/g, ' ')).toMatch(/E2E Crew 2 /);
  });

  it('lets an admin name a crew manager, shown in the crew drawer', async () => {
    expect(await page.locator(byTestId('crew-managers')).innerText()).toContain('No managers yet');
    await page.click(byTestId('crew-managers-edit'));
    await page.waitForSelector(byTestId('managers-options'));
    const option = page
      .locator(byTestId('managers-options'))
      .locator('label', { hasText: 'Demo Crew Manager' });
    await option.click();
    await page.click(byTestId('managers-form-submit'));
    await page.waitForSelector(byTestId('managers-form'), { state: 'detached' });
    await expect.poll(() => toastsSeen(page)).toContain('Crew managers are updated successfully');
    await expect
      .poll(() => page.locator(byTestId('crew-managers')).innerText())
      .toContain('Demo Crew Manager');
    await page.screenshot({ path: 'test-output/screenshots/workforce-crew-drawer.png' });
    await page.click('.bp6-drawer .bp6-dialog-close-button');
    await page.waitForSelector(byTestId('crew-drawer'), { state: 'detached' });
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

  it("assigns a worker to a shift from the shift's row; the shift's members show it", async () => {
    await page
      .locator(byTestId('workforce-row'), { hasText: 'E2E Morning' })
      .locator(byTestId('workshift-assign'))
      .click();
    await page.waitForSelector(byTestId('assign-form'));
    const [name] = await pickWorkers(page, 'EMP-1010', 1);
    await page.click(byTestId('assign-form-submit'));
    await page.waitForSelector(byTestId('assign-form'), { state: 'detached' });
    await expect.poll(() => toastsSeen(page)).toContain('Workers are assigned to the workshift');
    await openRow(page, 'E2E Morning');
    await expect.poll(() => page.locator(byTestId('workshift-member')).count()).toBe(1);
    const member = await page.locator(byTestId('workshift-member')).innerText();
    expect(member).toContain(name);
    expect(member).toContain(formatAssignmentDate(today));
    await page.click('.bp6-drawer .bp6-dialog-close-button');
    await page.waitForSelector(byTestId('workshift-drawer'), { state: 'detached' });
  });

  it('reads right-to-left in Arabic, with Arabic texts', async () => {
    await page.selectOption(byTestId('language-switch'), 'ar');
    await page.waitForFunction(() => document.documentElement.dir === 'rtl');
    expect(await page.locator(byTestId('workforce-new')).innerText()).toMatch(/[\u0600-\u06FF]/);
    expect(await page.locator(byTestId('workforce-count')).innerText()).toMatch(/[\u0600-\u06FF]/);
    await page.screenshot({ path: 'test-output/screenshots/workforce-ar.png' });

    // The crew drawer opens on the left, its assign dialog speaks Arabic, a clean one closes at once.
    await openScreen(page, env.server.baseUrl, '/crews');
    await openRow(page, 'E2E Crew');
    await page.waitForSelector(byTestId('crew-drawer'));
    await expect.poll(async () => (await page.locator('.bp6-drawer').boundingBox())?.x).toBe(0);
    expect(await page.locator(byTestId('crew-managers')).innerText()).toContain('مديرو الطاقم');
    await page.click(byTestId('crew-assign'));
    await page.waitForSelector(byTestId('assign-form'));
    expect(await page.locator(byTestId('assign-form')).innerText()).toContain('تاريخ التعيين');
    // A worker's name and helmet tag stand apart in Arabic too: the name on the right, a gap, the tag.
    await page.fill(`${byTestId('assign-form')} ${byTestId('assign-search')}`, 'a');
    const option = page.locator(`${byTestId('assign-option')}:has(.bp6-menu-item-label)`).first();
    await option.waitFor();
    // Polled: the dialog is still growing into place when the options first show.
    const gap = async () => {
      const name = (await option.locator('.bp6-fill').boundingBox())!;
      const tag = (await option.locator('.bp6-menu-item-label').boundingBox())!;
      return name.x - (tag.x + tag.width);
    };
    await expect.poll(gap, { message: 'space between the tag and the name' }).toBeGreaterThanOrEqual(6);
    await page.screenshot({ path: 'test-output/screenshots/workforce-assign-ar.png' });
    await page.click(byTestId('assign-form-cancel'));
    await page.waitForSelector(byTestId('assign-form'), { state: 'detached' });
    await page.click('.bp6-drawer .bp6-dialog-close-button');
    await page.waitForSelector(byTestId('crew-drawer'), { state: 'detached' });
    await page.selectOption(byTestId('language-switch'), 'en');
  });

  it('shows a Site Viewer no assign or managers buttons, and a crew manager no managers button', async () => {
    for (const [email, assigns] of [
      ['site-viewer@demo.sitewatch.dev', false],
      ['crew-manager@demo.sitewatch.dev', true],
    ] as const) {
      const other = await env.browser.newContext({ viewport: { width: 1300, height: 850 } });
      try {
        const viewer = await other.newPage();
        await signIn(viewer, env.server.baseUrl, email);
        await openScreen(viewer, env.server.baseUrl, '/crews');
        await openRow(viewer, 'Formwork A');
        await viewer.waitForSelector(byTestId('crew-members'));
        expect(await viewer.locator(byTestId('crew-assign')).count()).toBe(assigns ? 1 : 0);
        expect(await viewer.locator(byTestId('crew-managers')).count()).toBe(0);
        await openScreen(viewer, env.server.baseUrl, '/workshifts');
        await viewer.waitForSelector(byTestId('workforce-row'));
        const rows = await viewer.locator(byTestId('workforce-row')).count();
        expect(rows).toBeGreaterThan(0);
        expect(await viewer.locator(byTestId('workshift-assign')).count()).toBe(assigns ? rows : 0);
        await openRow(viewer, 'Day shift');
        await viewer.waitForSelector(byTestId('workshift-members'));
        expect(await viewer.locator(byTestId('workshift-drawer-assign')).count()).toBe(assigns ? 1 : 0);
        await viewer.goto(`${env.server.baseUrl}/workers`);
        await viewer.locator(byTestId('workers-open')).first().click();
        await viewer.waitForSelector(byTestId('worker-assignments'));
        expect(await viewer.locator(byTestId('worker-assign-crews')).count()).toBe(assigns ? 1 : 0);
        expect(await viewer.locator(byTestId('worker-assign-workshifts')).count()).toBe(assigns ? 1 : 0);
      } finally {
        await other.close();
      }
    }
  });
});
