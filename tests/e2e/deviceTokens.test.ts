import { and, eq } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { hashToken } from '../../server/auth/tokens';
import { deviceTokens } from '../../server/db/schema';
import { browserSuite } from './helpers/browserSuite';
import { signIn } from './helpers/pages';
import { recordToasts, toastsSeen } from './helpers/toasts';

const byTestId = (id: string) => `[data-testid="${id}"]`;
const LABEL = 'Gateway level 3';

describe('device tokens on Nodes Management', () => {
  const suite = browserSuite();
  let page: Page;

  beforeAll(async () => {
    const context = await suite.browser.newContext({ viewport: { width: 1300, height: 850 } });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: suite.server.baseUrl });
    page = await context.newPage();
    await recordToasts(page);
    await signIn(page, suite.server.baseUrl, 'site-admin@demo.sitewatch.dev');
  });

  const ingest = (token: string) =>
    fetch(`${suite.server.baseUrl}/api/ingest/${suite.server.siteId}/positions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: '[]',
    });

  it('lets a site admin create a token, see it once, revoke it, and shows it revoked', async () => {
    await page.goto(`${suite.server.baseUrl}/nodes`);
    await page.waitForSelector(byTestId('device-tokens-empty'));

    await page.click(byTestId('device-token-new'));
    // A label is required.
    await page.click(byTestId('device-token-create'));
    await expect
      .poll(() => page.locator(byTestId('device-token-form')).innerText())
      .toContain('Label is required');
    await page.fill(byTestId('device-token-label-input'), LABEL);
    await page.click(byTestId('device-token-create'));

    await page.waitForSelector(byTestId('device-token-created'));
    const username = await page.inputValue(byTestId('device-token-username'));
    const secret = await page.inputValue(byTestId('device-token-secret'));
    const [row] = await suite.server.db
      .select()
      .from(deviceTokens)
      .where(and(eq(deviceTokens.siteId, suite.server.siteId), eq(deviceTokens.label, LABEL)));
    expect(username).toBe(String(row.id));
    expect(hashToken(secret)).toBe(row.tokenHash);
    expect(await page.locator(`${byTestId('device-token-topics')} li`).allInnerTexts()).toEqual([
      `sitewatch/${suite.server.siteId}/positions`,
      `sitewatch/${suite.server.siteId}/nodes`,
      `sitewatch/${suite.server.siteId}/events`,
    ]);
    await page.click(byTestId('device-token-secret-copy'));
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
    await page.screenshot({ path: 'test-output/screenshots/device-token-created.png' });
    // The token works as a gateway's credential.
    expect((await ingest(secret)).status).toBe(200);

    // Once closed, the secret is nowhere on the page: the list shows the label and the id only.
    await page.click(byTestId('device-token-done'));
    const listed = page.locator(byTestId('device-token-row'), { hasText: LABEL });
    await listed.waitFor();
    expect(await listed.getAttribute('data-state')).toBe('active');
    expect(await page.content()).not.toContain(secret);

    await listed.locator(byTestId('device-token-revoke')).click();
    await expect
      .poll(() => page.locator(byTestId('device-token-revoke-confirm')).innerText())
      .toContain(`Are you sure to revoke the device token "${LABEL}"`);
    await page.locator('.bp6-alert-footer .bp6-intent-danger').click();
    await expect.poll(() => listed.getAttribute('data-state'), { timeout: 10_000 }).toBe('revoked');
    expect(await listed.locator(byTestId('device-token-status')).innerText()).toMatch(/^Revoked /);
    expect(await listed.locator(byTestId('device-token-revoke')).count()).toBe(0);
    expect(await toastsSeen(page)).toEqual(
      expect.arrayContaining(['Device token is created successfully', `Device token "${LABEL}" is revoked`]),
    );
    await page.screenshot({ path: 'test-output/screenshots/device-tokens-revoked.png' });
    expect((await ingest(secret)).status).toBe(401);
  });
});
