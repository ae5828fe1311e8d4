import { isNull } from 'drizzle-orm';
import type { BrowserContext, Page } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { sessions } from '../../server/db/schema';
import { isMenuGroup, menuFor, SCREEN_ROUTES } from '../../src/domain/routes';
import { browserSuite } from './helpers/browserSuite';
import { signIn } from './helpers/pages';
import { recordToasts, toastsSeen } from './helpers/toasts';

async function selectedText(page: Page, testId: string): Promise<string> {
  return page.locator(`select[data-testid="${testId}"] option:checked`).innerText();
}

async function optionTexts(page: Page, testId: string): Promise<string[]> {
  return page.locator(`select[data-testid="${testId}"] option`).allInnerTexts();
}

/** Escape reaches an overlay once it has taken the focus, a frame or so after it appears. */
async function pressEscapeInOverlay(page: Page): Promise<void> {
  await page.waitForFunction(() => document.activeElement?.closest('.bp6-overlay-open') != null);
  await page.keyboard.press('Escape');
}

describe('the console shell in Chromium', () => {
  const env = browserSuite();
  let context: BrowserContext;

  // A page stuck mid-navigation must not hold the suite for the hook's whole timeout.
  afterEach(() => Promise.race([context?.close(), new Promise((resolve) => setTimeout(resolve, 10_000))]));

  async function newPage(): Promise<Page> {
    context = await env.browser.newContext({ viewport: { width: 1400, height: 900 } });
    return context.newPage();
  }

  it('picks the client, site and first building; a new site becomes selected and survives a reload', async () => {
    const page = await newPage();
    await signIn(page, env.server.baseUrl, 'client-admin@demo.sitewatch.dev');
    await page.waitForFunction(() => {
      const building = document.querySelector<HTMLSelectElement>('select[data-testid="building-picker"]');
      return building !== null && !building.disabled;
    });
    expect(await selectedText(page, 'client-picker')).toBe('Demo Construction Co');
    expect(await selectedText(page, 'site-picker')).toBe('Tower A');
    expect(await selectedText(page, 'building-picker')).toBe('North Block');

    // Focus moves around when another overlay closes first; the dialog must still open clean.
    await page.click('[data-testid="current-user"]');
    await page.locator('[data-testid="side-modal"]').waitFor();
    await pressEscapeInOverlay(page);
    await page.click('[data-testid="new-site"]');
    const form = page.locator('[data-testid="new-site-form"]');
    await form.waitFor();
    await page.waitForTimeout(500);
    // An empty form does not open in red; submitting it names what is missing.
    expect(await form.innerText()).not.toContain('Site name is required');
    await form.locator('button[type="submit"]').click();
    await form.getByText('Site name is required').waitFor();
    await page.fill('[data-testid="new-site-form"] input[name="name"]', 'Annex B');
    await page.click('[data-testid="new-site-form"] button[type="submit"]');
    await page.waitForFunction(
      () =>
        document.querySelector<HTMLSelectElement>('select[data-testid="site-picker"]')?.selectedOptions[0]
          ?.textContent === 'Annex B',
    );
    // Sites are listed by name, and the new one has no buildings yet.
    expect(await optionTexts(page, 'site-picker')).toEqual(['Annex B', 'Tower A']);

    await page.reload();
    await page.waitForSelector('nav[data-testid="side-menu"]');
    await page.waitForFunction(
      () =>
        document.querySelector<HTMLSelectElement>('select[data-testid="site-picker"]')?.selectedOptions[0]
          ?.textContent === 'Annex B',
    );

    // Switching back is remembered too.
    const towerA = await page
      .locator('select[data-testid="site-picker"] option', { hasText: 'Tower A' })
      .getAttribute('value');
    await page.selectOption('select[data-testid="site-picker"]', towerA!);
    await page.waitForFunction(
      () =>
        document.querySelector<HTMLSelectElement>('select[data-testid="building-picker"]')?.selectedOptions[0]
          ?.textContent === 'North Block',
    );
    await page.reload();
    await page.waitForFunction(
      () =>
        document.querySelector<HTMLSelectElement>('select[data-testid="site-picker"]')?.selectedOptions[0]
          ?.textContent === 'Tower A',
    );
  });

  it('shows the offline notice until the connection is back, then "Internet is back!" for a second', async () => {
    const page = await newPage();
    await recordToasts(page);
    await signIn(page, env.server.baseUrl, 'site-viewer@demo.sitewatch.dev');
    await context.setOffline(true);
    const offline = page.getByText('No internet connection, please check your connection and try again');
    await offline.waitFor();
    await page.waitForTimeout(1500);
    expect(await offline.isVisible()).toBe(true);
    await context.setOffline(false);
    await offline.waitFor({ state: 'detached' });
    await expect.poll(() => toastsSeen(page)).toContain('Internet is back!');
    await page.getByText('Internet is back!').waitFor({ state: 'detached', timeout: 3000 });
  });

  // The route changes as soon as the refusal arrives; its toast follows a moment later.
  it('a revoked session shows "Bad Credentials" and goes to /login', async () => {
    const page = await newPage();
    await recordToasts(page);
    await signIn(page, env.server.baseUrl, 'crew-manager@demo.sitewatch.dev');
    await env.server.db.update(sessions).set({ revokedAt: new Date() }).where(isNull(sessions.revokedAt));
    await page.reload();
    await page.waitForURL(`${env.server.baseUrl}/login`);
    await expect.poll(() => toastsSeen(page)).toContain('Bad Credentials');
    expect(await page.evaluate(() => [localStorage.getItem('auth'), localStorage.getItem('user')])).toEqual([
      null,
      null,
    ]);
  });

  it('a refused call shows "Not Authorized" and goes to /403', async () => {
    const page = await newPage();
    await recordToasts(page);
    await signIn(page, env.server.baseUrl, 'site-admin@demo.sitewatch.dev');
    await page.route('**/api/sites/*/buildings', (route) =>
      route.fulfill({
        status: 403,
        contentType: 'application/json',
        body: JSON.stringify({ status: 'error', message: 'Not Authorized' }),
      }),
    );
    await page.reload();
    await page.waitForURL(`${env.server.baseUrl}/403`);
    await page.waitForSelector('[data-testid="forbidden"]');
    await expect.poll(() => toastsSeen(page)).toContain('Not Authorized');
  });

  it('shows the loading screen while the session is restored', async () => {
    const page = await newPage();
    await signIn(page, env.server.baseUrl, 'safety-demo@demo.sitewatch.dev');
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route('**/api/user', async (route) => {
      await held;
      await route.continue();
    });
    await page.reload({ waitUntil: 'domcontentloaded' });
    await page.waitForSelector('[data-testid="session-loading"]');
    release();
    await page.waitForSelector('nav[data-testid="side-menu"]');
  });

  it("opens the side modal with the user's profile from the header, and Escape closes it", async () => {
    const page = await newPage();
    await signIn(page, env.server.baseUrl, 'site-viewer@demo.sitewatch.dev');
    await page.click('[data-testid="current-user"]');
    const modal = page.locator('[data-testid="side-modal"]');
    await modal.waitFor();
    expect(await modal.innerText()).toContain('site-viewer@demo.sitewatch.dev');
    expect(await modal.innerText()).toContain('Site Viewer');
    await pressEscapeInOverlay(page);
    await modal.waitFor({ state: 'detached' });
  });

  it("puts every screen's heading in the same place as the workers screen's", async () => {
    const page = await newPage();
    await signIn(page, env.server.baseUrl, 'site-admin@demo.sitewatch.dev');
    // Every screen of the menu, and the analytics screens reached by their tabs.
    const paths = [
      ...menuFor('group-of-sites-admin').flatMap((entry) =>
        isMenuGroup(entry) ? entry.children.map((child) => child.path) : [entry.path],
      ),
      ...SCREEN_ROUTES.filter((route) => route.path.startsWith('/analytics/')).map((route) => route.path),
    ];
    const headingAt = async (path: string) => {
      await page.goto(`${env.server.baseUrl}${path}`);
      const box = (await page.locator('[data-testid="screen-title"]').first().boundingBox())!;
      return { path, x: Math.round(box.x), y: Math.round(box.y) };
    };
    const reference = await headingAt('/workers');
    const placed = [];
    for (const path of paths) placed.push(await headingAt(path));
    const elsewhere = placed.filter(
      ({ x, y }) => Math.abs(x - reference.x) > 1 || Math.abs(y - reference.y) > 1,
    );
    expect(elsewhere, `where /workers has it: ${reference.x}, ${reference.y}`).toEqual([]);
  });

  it('logging out in one tab reloads the other, which lands on /login', async () => {
    const first = await newPage();
    await signIn(first, env.server.baseUrl, 'site-admin@demo.sitewatch.dev');
    const second = await context.newPage();
    await second.goto(`${env.server.baseUrl}/workers`);
    await second.waitForSelector('nav[data-testid="side-menu"]');
    await first.goto(`${env.server.baseUrl}/logout`);
    await first.waitForURL(`${env.server.baseUrl}/login`);
    // The other tab reloads and then routes itself to /login: wait on what it shows, which
    // survives the reload, rather than on one navigation the reload may abort.
    await second.locator('input[name="email"]').waitFor();
    await expect.poll(() => new URL(second.url()).pathname).toBe('/login');
  });
});
