import type { Page } from 'playwright-core';

export const DEMO_PASSWORD = 'sitewatch-demo';

export async function signIn(
  page: Page,
  baseUrl: string,
  email: string,
  password = DEMO_PASSWORD,
): Promise<void> {
  await page.goto(`${baseUrl}/login`);
  await page.fill('input[name="email"]', email);
  await page.fill('input[name="password"]', password);
  await page.click('button[type="submit"]');
  // Attached rather than visible: on a phone-sized page the menu folds behind the menu button.
  await page.waitForSelector('nav[data-testid="side-menu"]', { state: 'attached' });
}

/** The texts of the side menu's links, as the user sees them. */
export async function menuLabels(page: Page): Promise<string[]> {
  const labels = await page.locator('nav[data-testid="side-menu"] a').allInnerTexts();
  return labels.map((label) => label.trim()).filter(Boolean);
}
