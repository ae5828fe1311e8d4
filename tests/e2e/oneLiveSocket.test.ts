import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserSuite } from './helpers/browserSuite';
import { signIn } from './helpers/pages';

/** Moves inside the tab as a menu link does (wouter follows pushState and popstate). */
async function navigateInTab(page: Page, path: string): Promise<void> {
  await page.evaluate((to) => {
    history.pushState(null, '', to);
    dispatchEvent(new PopStateEvent('popstate'));
  }, path);
}

describe('one live connection per tab', () => {
  const suite = browserSuite({ live: true });
  let page: Page;
  const sockets: string[] = [];

  beforeAll(async () => {
    page = await suite.browser.newPage({ viewport: { width: 1400, height: 900 } });
    page.on('websocket', (socket) => {
      if (socket.url().includes('/socket.io/')) sockets.push(socket.url());
    });
    await signIn(page, suite.server.baseUrl, 'site-admin@demo.sitewatch.dev');
  });
  afterAll(async () => {
    await page?.close();
  });

  it('keeps a single socket.io connection while the home screen, another floor and the wall screen are visited', async () => {
    await page.waitForSelector('[data-testid="live-indicator"][data-state="live"]', { timeout: 20_000 });
    expect(sockets).toHaveLength(1);

    // Another floor: its feed is subscribed on the same connection.
    const picker = page.locator('[data-testid="dashboard-floor-picker"]');
    const floorIds = await picker
      .locator('option')
      .evaluateAll((options) => options.map((option) => (option as HTMLOptionElement).value));
    expect(floorIds.length).toBeGreaterThan(1);
    const current = await picker.inputValue();
    await picker.selectOption(floorIds.find((id) => id !== current)!);
    await page.waitForSelector('[data-testid="live-indicator"][data-state="live"]', { timeout: 20_000 });
    await page.waitForSelector('[data-testid="dashboard-canvas"] [data-testid="floor-canvas"]');

    // The wall screen: the evacuation and site feeds, still on the same connection.
    await navigateInTab(page, '/safetyevacuation');
    await page.waitForSelector('[data-testid="evacuation-wall"]');
    await expect
      .poll(() => page.locator('[data-testid="evacuation-connection"]').innerText(), { timeout: 20_000 })
      .toMatch(/live/i);
    await page.waitForSelector('[data-testid="evacuation-idle"]', { timeout: 20_000 });

    // And home again.
    await navigateInTab(page, '/');
    await page.waitForSelector('[data-testid="live-indicator"][data-state="live"]', { timeout: 20_000 });

    expect(sockets).toHaveLength(1);
  });
});
