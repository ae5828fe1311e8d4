import { desc, eq } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { emailOutbox, sites } from '../../server/db/schema';
import { browserSuite } from './helpers/browserSuite';
import type { E2eServer } from './helpers/e2eServer';
import { DEMO_PASSWORD, signIn } from './helpers/pages';

async function latestLinkTo(server: E2eServer, address: string): Promise<string> {
  const [mail] = await server.db
    .select()
    .from(emailOutbox)
    .where(eq(emailOutbox.toAddress, address))
    .orderBy(desc(emailOutbox.id))
    .limit(1);
  expect(mail, `an e-mail to ${address} in the outbox`).toBeDefined();
  expect(mail.body).toContain(mail.link);
  return mail.link!;
}

describe('account journeys through the outbox', () => {
  const env = browserSuite();
  let page: Page;

  it('invite → register → login', async () => {
    const login = await fetch(`${env.server.baseUrl}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'site-admin@demo.sitewatch.dev', password: DEMO_PASSWORD }),
    });
    const token = (await login.json()).data.access_token;
    const [towerA] = await env.server.db.select().from(sites).where(eq(sites.name, 'Tower A'));
    const invite = await fetch(`${env.server.baseUrl}/api/invite`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({
        name: 'New Viewer',
        email: 'new.viewer@example.test',
        user_role: 'group-of-sites-viewer',
        site_ids: [towerA.id],
      }),
    });
    expect(invite.status).toBe(200);
    expect((await invite.json()).data[0].email).toBe('new.viewer@example.test');

    const link = await latestLinkTo(env.server, 'new.viewer@example.test');
    expect(link.startsWith(`${env.server.baseUrl}/register/`)).toBe(true);
    page = await env.browser.newPage();
    await page.goto(link);
    await page.fill('input[name="name"]', 'Nadia Viewer');
    await page.fill('input[name="password"]', 'a-good-password');
    await page.fill('input[name="confirmPassword"]', 'a-good-password');
    await page.click('button[type="submit"]');
    await page.waitForURL(`${env.server.baseUrl}/login`);

    await signIn(page, env.server.baseUrl, 'new.viewer@example.test', 'a-good-password');
    await expect(page.locator('body').innerText()).resolves.toContain('Nadia Viewer');

    // The invitation link is single use.
    await page.goto(`${env.server.baseUrl}/logout`);
    await page.waitForURL(`${env.server.baseUrl}/login`);
    await page.goto(link);
    await page.fill('input[name="name"]', 'Someone Else');
    await page.fill('input[name="password"]', 'another-password');
    await page.fill('input[name="confirmPassword"]', 'another-password');
    await page.click('button[type="submit"]');
    await page.getByText('This link is invalid or has expired').first().waitFor();
    await page.close();
  });

  it('forgot password → reset → login with the new password only', async () => {
    page = await env.browser.newPage();
    await page.goto(`${env.server.baseUrl}/forgot-password`);
    await page.fill('input[name="email"]', 'crew-manager@demo.sitewatch.dev');
    await page.click('button[type="submit"]');
    await page.getByText('If the address is registered, a reset link has been sent').first().waitFor();

    const link = await latestLinkTo(env.server, 'crew-manager@demo.sitewatch.dev');
    expect(link.startsWith(`${env.server.baseUrl}/reset-password/`)).toBe(true);
    await page.goto(link);
    await page.fill('input[name="password"]', 'brand-new-secret');
    await page.fill('input[name="confirmPassword"]', 'brand-new-secret');
    await page.click('button[type="submit"]');
    await page.waitForURL(`${env.server.baseUrl}/login`);

    await page.fill('input[name="email"]', 'crew-manager@demo.sitewatch.dev');
    await page.fill('input[name="password"]', DEMO_PASSWORD);
    await page.click('button[type="submit"]');
    await page.getByText('Invalid email or password').first().waitFor();

    await signIn(page, env.server.baseUrl, 'crew-manager@demo.sitewatch.dev', 'brand-new-secret');
    expect(new URL(page.url()).pathname).toBe('/');
    await page.close();
  });

  it("form errors use the spec's words, next to their fields", async () => {
    page = await env.browser.newPage();
    await page.goto(`${env.server.baseUrl}/register/not-a-real-link`);
    await page.click('button[type="submit"]');
    expect(await page.locator('#name-error').innerText()).toBe('Name is required');
    expect(await page.locator('#password-error').innerText()).toBe('Password is required');
    await page.fill('input[name="password"]', 'short');
    await page.fill('input[name="confirmPassword"]', 'short');
    expect(await page.locator('#password-error').innerText()).toBe(
      'Password accepts a minimum of 8 characters',
    );
    await page.goto(`${env.server.baseUrl}/login`);
    await page.click('button[type="submit"]');
    expect(await page.locator('#email-error').innerText()).toBe('Email is required');
    await page.close();
  });

  it('a signed-out visitor is sent to /login, and a signed-in one away from /login', async () => {
    page = await env.browser.newPage();
    await page.goto(`${env.server.baseUrl}/workers`);
    await page.waitForURL(`${env.server.baseUrl}/login`);
    await signIn(page, env.server.baseUrl, 'client-admin@demo.sitewatch.dev');
    await page.goto(`${env.server.baseUrl}/login`);
    await page.waitForURL(`${env.server.baseUrl}/`);
    await page.close();
  });
});
