import { and, eq, inArray } from 'drizzle-orm';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoEmail } from '../../server/db/demoSeed';
import { activities, activityCodes, crewManagers, crews, sites, users } from '../../server/db/schema';
import { ACTIVITY_STATUS_MESSAGES } from '../../src/domain/activityStatus';
import { calendarDateIn } from '../../src/domain/calendarDate';
import { browserSuite } from './helpers/browserSuite';
import { E2E_OUTPUT_DIR } from './helpers/outputDir';
import { DEMO_PASSWORD, signIn } from './helpers/pages';

const SCREENSHOTS = `${E2E_OUTPUT_DIR}/screenshots`;
const byTestId = (id: string) => `[data-testid="${id}"]`;
/** Wide enough for every column of the virtualised table to be drawn. */
const VIEWPORT = { width: 3000, height: 1300 };

const BOOKED = 'E2E Paving bay 4';
const STEADY = 'E2E Kerbs north';
const CHANGED = 'E2E Kerbs south';

describe('eTQR productivity in Chromium', () => {
  const env = browserSuite();
  const contexts: BrowserContext[] = [];
  let manager: Page;
  let codeId = 0;
  let crewName = '';
  const ids: Record<string, number> = {};

  async function apiToken(role: 'crew-manager' | 'group-of-sites-admin'): Promise<string> {
    const login = await fetch(`${env.server.baseUrl}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: demoEmail(role), password: DEMO_PASSWORD }),
    });
    return (await login.json()).data.access_token;
  }

  async function signedIn(role: 'crew-manager' | 'group-of-sites-admin' | 'group-of-sites-viewer') {
    const context = await env.browser.newContext({ viewport: VIEWPORT });
    contexts.push(context);
    const page = await context.newPage();
    await signIn(page, env.server.baseUrl, demoEmail(role));
    return page;
  }

  /** The screen with this test's activity code as its filter (kept in the address). */
  async function openScreen(page: Page): Promise<void> {
    await page.goto(`${env.server.baseUrl}/productivity?code=${codeId}`);
    await page.waitForSelector(byTestId('activities-table'));
    await page.waitForSelector(`${byTestId('activity-name')}[data-activity-id="${ids[BOOKED]}"]`);
  }

  const inRow = (page: Page, testId: string, name: string) =>
    page.locator(`${byTestId(testId)}[data-activity-id="${ids[name]}"]`).first();
  /** Ticks a row's checkbox as a user does, through its label (Blueprint draws the box over the input). */
  const select = (page: Page, name: string) => inRow(page, 'activity-select', name).locator('..').click();
  const statusOf = (page: Page, name: string) =>
    inRow(page, 'activity-status', name).getAttribute('data-status');

  beforeAll(async () => {
    const db = env.server.db;
    const siteId = env.server.siteId;
    const [site] = await db.select({ timezone: sites.timezone }).from(sites).where(eq(sites.id, siteId));
    const today = calendarDateIn(site.timezone);
    const [crew] = await db
      .select({ id: crews.id, name: crews.name })
      .from(crewManagers)
      .innerJoin(users, eq(users.id, crewManagers.userId))
      .innerJoin(crews, eq(crews.id, crewManagers.crewId))
      .where(and(eq(users.email, demoEmail('crew-manager')), eq(crews.siteId, siteId)))
      .limit(1);
    crewName = crew.name;
    const [code] = await db
      .insert(activityCodes)
      .values({ siteId, code: 'E2E-PV', name: 'E2E paving', uom: 'm2', targetRate: '10' })
      .returning({ id: activityCodes.id });
    codeId = code.id;
    const rows = await db
      .insert(activities)
      .values(
        [
          { name: BOOKED, status: 'assigned' },
          { name: STEADY, status: 'in_review' },
          { name: CHANGED, status: 'in_review' },
        ].map(({ name, status }) => ({
          siteId,
          activityCodeId: codeId,
          crewId: crew.id,
          name,
          day: today,
          targetQuantity: '100',
          plannedQuantity: '100',
          plannedHours: '10',
          status,
        })),
      )
      .returning({ id: activities.id, name: activities.name });
    for (const row of rows) ids[row.name] = row.id;
    manager = await signedIn('crew-manager');
  });
  afterAll(async () => {
    for (const context of contexts) await context.close();
  });

  it('books installed quantity and hours inline, and a delay, as the crew manager', async () => {
    await openScreen(manager);
    expect(manager.url()).toContain(`code=${codeId}`);
    await manager.getByLabel(`Installed qty ${BOOKED}`).fill('40');
    await manager.getByLabel(`Booked hours ${BOOKED}`).fill('5');
    await manager.getByLabel(`Actual hours ${BOOKED}`).fill('4.5');
    await inRow(manager, 'activity-save', BOOKED).click();
    // Earned 40 ÷ 10 = 4.00 hours against 4.50 actual: a loss of 0.50, booked 0.50 over actual.
    await expect
      .poll(() => inRow(manager, 'activity-loss', BOOKED).innerText(), { timeout: 10_000 })
      .toBe('0.50');
    expect(await inRow(manager, 'activity-gain', BOOKED).innerText()).toBe('0.00');
    expect(await inRow(manager, 'activity-difference', BOOKED).innerText()).toBe('0.50');
    expect(
      await inRow(manager, 'activity-actual', BOOKED).locator('[data-source]').getAttribute('data-source'),
    ).toBe('typed');

    await inRow(manager, 'activity-delays', BOOKED).click();
    await manager.waitForSelector(byTestId('delays-dialog'));
    const firstCode = await manager
      .locator(`${byTestId('delay-code')} option`)
      .nth(1)
      .getAttribute('value');
    await manager.selectOption(byTestId('delay-code'), firstCode ?? '');
    await manager.fill(byTestId('delay-hours'), '1.25');
    await manager.fill(byTestId('delay-notes'), 'Concrete truck late');
    await manager.click(byTestId('delay-add'));
    await expect.poll(() => manager.locator(byTestId('delay-row')).count(), { timeout: 10_000 }).toBe(1);
    expect(await manager.locator(byTestId('delay-row')).innerText()).toContain('Concrete truck late');
    await manager.screenshot({ path: `${SCREENSHOTS}/productivity-delays.png` });
    await manager.click(byTestId('delay-close'));
    await expect.poll(() => inRow(manager, 'activity-delay-hours', BOOKED).innerText()).toBe('1.25');
  });

  it('a refused booking shows the server’s words on the row', async () => {
    await manager.getByLabel(`Booked hours ${BOOKED}`).fill('1.234');
    await manager.getByLabel(`Booked hours ${BOOKED}`).press('Enter');
    await expect
      .poll(() => inRow(manager, 'activity-message', BOOKED).innerText(), { timeout: 10_000 })
      .toContain('Booked hours must be a number');
    await manager.getByLabel(`Booked hours ${BOOKED}`).fill('5');
    await manager.getByLabel(`Booked hours ${BOOKED}`).press('Enter');
    await expect
      .poll(() => inRow(manager, 'activity-message', BOOKED).innerText(), { timeout: 10_000 })
      .toBe('');
  });

  it('starts, finishes, submits and approves it (approved by CM)', async () => {
    for (const [action, status] of [
      ['start', 'in_progress'],
      ['finish', 'done'],
      ['submit', 'in_review'],
    ] as const) {
      await inRow(manager, `activity-action-${action}`, BOOKED).click();
      await expect.poll(() => statusOf(manager, BOOKED), { timeout: 10_000 }).toBe(status);
    }
    expect(await manager.isDisabled(byTestId('approve-selected'))).toBe(true);
    await select(manager, BOOKED);
    expect(await manager.isDisabled(byTestId('approve-selected'))).toBe(false);
    // Keyboard: the button is reached and pressed without the mouse.
    await manager.focus(byTestId('approve-selected'));
    await manager.keyboard.press('Enter');
    expect(await manager.locator(byTestId('approval-confirm-text')).innerText()).toBe(
      'Are you sure to approve the selected activities?',
    );
    await manager.screenshot({ path: `${SCREENSHOTS}/productivity-confirm.png` });
    await manager.click(byTestId('approval-confirm'));
    await manager.waitForSelector(byTestId('approval-done'));
    expect(await manager.locator(byTestId('approval-done')).innerText()).toContain(
      '1 of 1 activities approved',
    );
    await expect.poll(() => statusOf(manager, BOOKED), { timeout: 10_000 }).toBe('approved_by_cm');
  });

  it('charts the booked figures over the range', async () => {
    await expect
      .poll(() => manager.locator(byTestId('chart-gain-loss-canvas')).getAttribute('aria-label'))
      .toContain(`${crewName}: Gain hours 0.00, Loss hours 0.50`);
    expect(await manager.locator(byTestId('chart-delays-canvas')).getAttribute('aria-label')).toContain(
      '1.25',
    );
    await manager.screenshot({ path: `${SCREENSHOTS}/productivity.png`, fullPage: true });
  });

  it('names the row another session changed meanwhile and approves the other', async () => {
    await manager.locator(byTestId('approval-done')).getByRole('button').click();
    await select(manager, STEADY);
    await select(manager, CHANGED);
    // Another session sends the row back behind this page's back: its version moves on.
    const token = await apiToken('crew-manager');
    const [changed] = await env.server.db
      .select({ version: activities.version })
      .from(activities)
      .where(eq(activities.id, ids[CHANGED]));
    const reject = await fetch(`${env.server.baseUrl}/api/sites/${env.server.siteId}/activity/bulk`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({
        changes: [
          { id: ids[CHANGED], version: changed.version, action: 'reject', reason: 'Recount the kerbs' },
        ],
      }),
    });
    expect((await reject.json()).data.results[0].ok).toBe(true);

    await manager.click(byTestId('approve-selected'));
    await manager.click(byTestId('approval-confirm'));
    await manager.waitForSelector(byTestId('approval-partial'));
    const refused = manager.locator(byTestId('approval-refused'));
    expect(await refused.count()).toBe(1);
    expect(await refused.getAttribute('data-activity-id')).toBe(String(ids[CHANGED]));
    expect(await refused.innerText()).toBe(`E2E-PV ${CHANGED}: ${ACTIVITY_STATUS_MESSAGES.stale}`);
    await expect.poll(() => statusOf(manager, STEADY), { timeout: 10_000 }).toBe('approved_by_cm');
    expect(await statusOf(manager, CHANGED)).toBe('in_progress');
    await manager.screenshot({ path: `${SCREENSHOTS}/productivity-partial.png`, fullPage: true });
  });

  /** The history dialog's rows as "from>to|by|reason", oldest first. */
  async function historyOf(page: Page, name: string): Promise<string[]> {
    await inRow(page, 'activity-history-open', name).click();
    await page.waitForSelector(byTestId('activity-history'));
    // Its opening transition over, so a screenshot shows the dialog, not its fade.
    await page.waitForSelector('.bp6-dialog-container.bp6-overlay-enter-done');
    const entries = page.locator(byTestId('activity-history-entry'));
    const rows: string[] = [];
    for (let index = 0; index < (await entries.count()); index++) {
      const entry = entries.nth(index);
      const cells = await entry.locator('td').allInnerTexts();
      rows.push(
        `${await entry.getAttribute('data-from')}>${await entry.getAttribute('data-to')}|${cells[2]}|${cells[3]}`,
      );
    }
    return rows;
  }

  it('shows in a row’s history who sent it back and why', async () => {
    const [managerUser] = await env.server.db
      .select({ name: users.name })
      .from(users)
      .where(eq(users.email, demoEmail('crew-manager')));
    expect(await historyOf(manager, CHANGED)).toEqual([
      `in_review>in_progress|${managerUser.name}|Recount the kerbs`,
    ]);
    // On the site's wall clock, in words a reader knows: "27 Nov 2026, 09:15".
    expect(
      await manager
        .locator(`${byTestId('activity-history-entry')} td`)
        .first()
        .innerText(),
    ).toMatch(/^\d{1,2} [A-Z][a-z]{2} \d{4}, \d{2}:\d{2}$/);
    expect(
      await manager
        .locator(`${byTestId('activity-history-entry')} td`)
        .nth(1)
        .innerText(),
    ).toBe('In review → In progress');
    await manager.screenshot({ path: `${SCREENSHOTS}/productivity-history.png` });
    await manager.keyboard.press('Escape');
    await manager.waitForSelector(byTestId('activity-history'), { state: 'detached' });
  });

  it('reads right to left in Arabic', async () => {
    await manager.selectOption(byTestId('language-switch'), 'ar');
    await manager.waitForFunction(() => document.documentElement.dir === 'rtl');
    await expect
      .poll(() => manager.locator(byTestId('productivity-screen')).innerText())
      .toContain('اعتماد المحدد');
    expect(await inRow(manager, 'activity-loss', BOOKED).innerText()).toBe('0.50');
    // Every row drawn once, in Arabic: no cell of the left-to-right table lingers.
    expect(await manager.locator(byTestId('activity-status')).count()).toBe(3);
    expect(await inRow(manager, 'activity-status', CHANGED).innerText()).toBe('قيد التنفيذ');
    expect(await manager.locator(byTestId('activity-action-finish')).innerText()).toBe('إنهاء');
    // The server's refusal in the user's language.
    expect(await manager.locator(byTestId('approval-refused')).innerText()).toBe(
      `E2E-PV ${CHANGED}: غيّر شخص آخر هذا النشاط؛ أعد تحميله وحاول مرة أخرى`,
    );
    await manager.screenshot({ path: `${SCREENSHOTS}/productivity-ar.png`, fullPage: true });
    // The history in Arabic: the statuses by their Arabic names, the arrow pointing the reading way.
    await historyOf(manager, CHANGED);
    expect(
      await manager
        .locator(`${byTestId('activity-history-entry')} td`)
        .nth(1)
        .innerText(),
    ).toBe('قيد المراجعة ← قيد التنفيذ');
    await manager.screenshot({ path: `${SCREENSHOTS}/productivity-history-ar.png` });
    await manager.keyboard.press('Escape');
    await manager.waitForSelector(byTestId('activity-history'), { state: 'detached' });
    await manager.selectOption(byTestId('language-switch'), 'en');
  });

  it('gives the final approval as the site admin', async () => {
    const admin = await signedIn('group-of-sites-admin');
    await openScreen(admin);
    expect(await statusOf(admin, BOOKED)).toBe('approved_by_cm');
    await select(admin, BOOKED);
    await admin.click(byTestId('approve-selected'));
    await admin.click(byTestId('approval-confirm'));
    await admin.waitForSelector(byTestId('approval-done'));
    await expect.poll(() => statusOf(admin, BOOKED), { timeout: 10_000 }).toBe('approved');
    // Approved is final: nothing left to do on it.
    expect(await inRow(admin, 'activity-select', BOOKED).isDisabled()).toBe(true);
    const names = await env.server.db
      .select({ email: users.email, name: users.name })
      .from(users)
      .where(inArray(users.email, [demoEmail('crew-manager'), demoEmail('group-of-sites-admin')]));
    const nameOf = (role: 'crew-manager' | 'group-of-sites-admin') =>
      names.find((row) => row.email === demoEmail(role))?.name;
    expect(await historyOf(admin, BOOKED)).toEqual([
      `assigned>in_progress|${nameOf('crew-manager')}|`,
      `in_progress>done|${nameOf('crew-manager')}|`,
      `done>in_review|${nameOf('crew-manager')}|`,
      `in_review>approved_by_cm|${nameOf('crew-manager')}|`,
      `approved_by_cm>approved|${nameOf('group-of-sites-admin')}|`,
    ]);
  });

  it('shows a site viewer the figures without any write control', async () => {
    const viewer = await signedIn('group-of-sites-viewer');
    await openScreen(viewer);
    expect(await inRow(viewer, 'activity-loss', BOOKED).innerText()).toBe('0.50');
    expect(await viewer.locator(byTestId('approve-selected')).count()).toBe(0);
    expect(await viewer.locator('[data-testid="activities-table"] input[inputmode="decimal"]').count()).toBe(
      0,
    );
    expect(await viewer.locator('[data-testid^="activity-action-"]').count()).toBe(0);
    // Reading the history is not writing: a viewer sees it too.
    expect((await historyOf(viewer, BOOKED)).at(-1)).toMatch(/^approved_by_cm>approved\|/);
  });
});
