import { mkdirSync } from 'node:fs';
import { desc, eq } from 'drizzle-orm';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emailOutbox, users } from '../../server/db/schema';
import { browserSuite } from './helpers/browserSuite';
import { E2E_OUTPUT_DIR } from './helpers/outputDir';
import { signIn } from './helpers/pages';
import { recordToasts, toastsSeen } from './helpers/toasts';

/**
 * User management as a site admin: invite a crew manager, who registers from the outbox link and
 * signs in in a browser of their own; deactivating them ends that open session, re-activating lets
 * them back. Rows offer only what the server would accept; the screen reads right to left in
 * Arabic; the language choice is saved on the account and login forces English again.
 */

const SCREENSHOTS = `${E2E_OUTPUT_DIR}/screenshots`;
const byTestId = (id: string) => `[data-testid="${id}"]`;
const INVITEE = { name: 'Omar Crew', email: 'omar.crew@example.test', password: 'a-good-password' };
const SITE_ADMIN = 'site-admin@demo.sitewatch.dev';
const POLL = { timeout: 10_000 };

describe('user management journey', () => {
  const env = browserSuite();
  let adminContext: BrowserContext;
  let inviteeContext: BrowserContext;
  let admin: Page;
  let invitee: Page;

  const rowOf = (email: string) => admin.locator(`${byTestId('users-row')}[data-email="${email}"]`);
  const statusOf = (email: string) =>
    rowOf(email).locator(byTestId('users-status')).getAttribute('data-status');
  const actionsOf = async (email: string) =>
    (await rowOf(email)
      .locator('[data-testid^="users-action-"]')
      .evaluateAll((buttons) =>
        buttons.map((button) => button.getAttribute('data-testid')?.replace('users-action-', '')),
      )) as string[];

  beforeAll(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    adminContext = await env.browser.newContext({ viewport: { width: 1400, height: 900 } });
    inviteeContext = await env.browser.newContext({ viewport: { width: 1200, height: 800 } });
    admin = await adminContext.newPage();
    invitee = await inviteeContext.newPage();
    await recordToasts(admin);
    await recordToasts(invitee);
  });
  afterAll(async () => {
    await adminContext?.close();
    await inviteeContext?.close();
  });

  it('shows the site admin its users with labels, and only the buttons the server accepts', async () => {
    await signIn(admin, env.server.baseUrl, SITE_ADMIN);
    await admin.click('nav[data-testid="side-menu"] a[href="/users"]');
    await admin.waitForSelector(byTestId('users-table'));
    expect(await admin.locator(byTestId('screen-title')).innerText()).toBe('User Management');
    const roles = await admin.locator(byTestId('users-role')).allInnerTexts();
    expect(roles).toEqual(expect.arrayContaining(['Site Admin', 'Crew Manager', 'Site Viewer']));
    // Never an admin above it: neither its client-admin's row nor its buttons.
    expect(roles).not.toContain('Client Admin');
    expect(await rowOf('client-admin@demo.sitewatch.dev').count()).toBe(0);
    // Itself: no Deactivate (the server answers "You cannot deactivate yourself").
    expect(await actionsOf(SITE_ADMIN)).toEqual(['details', 'edit', 'setPassword']);
    expect(await actionsOf('crew-manager@demo.sitewatch.dev')).toEqual([
      'details',
      'edit',
      'deactivate',
      'setPassword',
    ]);
    expect(await rowOf('crew-manager@demo.sitewatch.dev').locator(byTestId('users-sites')).innerText()).toBe(
      'Tower A',
    );

    await admin.click(byTestId('users-invite'));
    const roleOptions = await admin.locator(`${byTestId('user-form-role')} option`).allInnerTexts();
    expect(roleOptions).not.toContain('Client Admin');
    expect(roleOptions).not.toContain('Super Admin');
    await admin.click(byTestId('user-form-submit'));
    expect(await admin.locator(byTestId('user-form-name-error')).innerText()).toBe('Name is required');
    expect(await admin.locator(byTestId('user-form-email-error')).innerText()).toBe('Email is required');
    expect(await admin.locator(byTestId('user-form-role-error')).innerText()).toBe('Role is required');
    await admin.fill(byTestId('user-form-email'), 'not-an-address');
    expect(await admin.locator(byTestId('user-form-email-error')).innerText()).toBe('Email is invalid');
  });

  it('invites a crew manager, who registers from the e-mailed link and signs in', async () => {
    await admin.fill(byTestId('user-form-name'), INVITEE.name);
    await admin.fill(byTestId('user-form-email'), INVITEE.email);
    await admin.selectOption(byTestId('user-form-role'), 'crew-manager');
    await admin.locator('label.bp6-checkbox', { hasText: 'Tower A' }).click();
    expect(await admin.getByLabel('Tower A').isChecked()).toBe(true);
    await admin.click(byTestId('user-form-submit'));
    await admin.locator(byTestId('user-form')).waitFor({ state: 'detached' });
    await expect.poll(() => toastsSeen(admin), POLL).toContain('User is invited successfully');
    await rowOf(INVITEE.email).waitFor();
    expect(await statusOf(INVITEE.email)).toBe('invited');
    expect(await rowOf(INVITEE.email).locator(byTestId('users-role')).innerText()).toBe('Crew Manager');
    // Not registered: no Activate yet (the server answers "User has not registered yet").
    expect(await actionsOf(INVITEE.email)).toEqual([
      'details',
      'edit',
      'deactivate',
      'reinvite',
      'setPassword',
    ]);

    const [mail] = await env.server.db
      .select()
      .from(emailOutbox)
      .where(eq(emailOutbox.toAddress, INVITEE.email))
      .orderBy(desc(emailOutbox.id))
      .limit(1);
    expect(mail?.link).toMatch(new RegExp(`^${env.server.baseUrl}/register/`));
    await invitee.goto(mail.link!);
    await invitee.fill('input[name="name"]', INVITEE.name);
    await invitee.fill('input[name="password"]', INVITEE.password);
    await invitee.fill('input[name="confirmPassword"]', INVITEE.password);
    await invitee.click('button[type="submit"]');
    await invitee.waitForURL(`${env.server.baseUrl}/login`);
    await signIn(invitee, env.server.baseUrl, INVITEE.email, INVITEE.password);
    expect(new URL(invitee.url()).pathname).toBe('/');

    await admin.reload();
    await rowOf(INVITEE.email).waitFor();
    expect(await statusOf(INVITEE.email)).toBe('active');
    // Registered: no Re-invite any more.
    expect(await actionsOf(INVITEE.email)).toEqual(['details', 'edit', 'deactivate', 'setPassword']);
  });

  it("shows a user's clients and sites in the details drawer", async () => {
    await rowOf(INVITEE.email).locator(byTestId('users-action-details')).click();
    const drawer = admin.locator(byTestId('users-details'));
    await drawer.locator(byTestId('users-details-sites')).waitFor();
    expect(await drawer.locator(byTestId('users-details-clients')).innerText()).toBe('Demo Construction Co');
    expect(await drawer.locator(byTestId('users-details-sites')).innerText()).toBe('Tower A');
    await admin.keyboard.press('Escape');
    await drawer.waitFor({ state: 'detached' });
  });

  it("deactivating, once confirmed, refuses the invitee's open session", async () => {
    await rowOf(INVITEE.email).locator(byTestId('users-action-deactivate')).click();
    expect(await admin.locator(byTestId('users-confirm-deactivate')).innerText()).toContain(
      'They lose access at once',
    );
    await admin.click('.sw-users-confirm-deactivate .bp6-alert-footer .bp6-intent-danger');
    await expect.poll(() => statusOf(INVITEE.email), POLL).toBe('inactive');
    await expect.poll(() => toastsSeen(admin), POLL).toContain('User is deactivated successfully');
    expect(await actionsOf(INVITEE.email)).toEqual(['details', 'edit', 'activate', 'setPassword']);

    // The invitee's page is still open; its next call is refused.
    await invitee.click('nav[data-testid="side-menu"] a[href="/crews"]');
    await invitee.waitForURL(`${env.server.baseUrl}/login`);
    await expect.poll(() => toastsSeen(invitee), POLL).toContain('Bad Credentials');
    await invitee.fill('input[name="email"]', INVITEE.email);
    await invitee.fill('input[name="password"]', INVITEE.password);
    await invitee.click('button[type="submit"]');
    await invitee.getByText('Invalid email or password').first().waitFor();
  });

  it('re-activates the invitee, who signs in again', async () => {
    await rowOf(INVITEE.email).locator(byTestId('users-action-activate')).click();
    await expect.poll(() => statusOf(INVITEE.email), POLL).toBe('active');
    await expect.poll(() => toastsSeen(admin), POLL).toContain('User is activated successfully');
    await signIn(invitee, env.server.baseUrl, INVITEE.email, INVITEE.password);
    expect(new URL(invitee.url()).pathname).toBe('/');
  });

  it('sets a new password after a confirmation, which signs the user out', async () => {
    await rowOf(INVITEE.email).locator(byTestId('users-action-setPassword')).click();
    await admin.fill(byTestId('password-form-password'), 'short');
    await admin.fill(byTestId('password-form-confirmation'), 'short');
    await admin.click(byTestId('password-form-submit'));
    expect(await admin.locator(byTestId('password-form-password-error')).innerText()).toBe(
      'Password accepts a minimum of 8 characters',
    );
    await admin.fill(byTestId('password-form-password'), 'another-good-password');
    await admin.fill(byTestId('password-form-confirmation'), 'another-good-password');
    await admin.click(byTestId('password-form-submit'));
    expect(await admin.locator(byTestId('users-confirm-password')).innerText()).toContain('signed out');
    await admin.click('.sw-users-confirm-password .bp6-alert-footer .bp6-intent-danger');
    await admin.locator(byTestId('password-form')).waitFor({ state: 'detached' });
    await expect.poll(() => toastsSeen(admin), POLL).toContain('Password is updated successfully');

    await invitee.reload();
    await invitee.waitForURL(`${env.server.baseUrl}/login`);
    await signIn(invitee, env.server.baseUrl, INVITEE.email, 'another-good-password');
  });

  it('edits a name, searches, and starts afresh with Clear or after leaving the screen', async () => {
    await rowOf(INVITEE.email).locator(byTestId('users-action-edit')).click();
    await admin.fill(byTestId('user-form-name'), 'Omar Crewman');
    await admin.click(byTestId('user-form-submit'));
    await expect.poll(() => toastsSeen(admin), POLL).toContain('User is updated successfully');
    await expect
      .poll(() => rowOf(INVITEE.email).locator('.sw-users-name').innerText(), POLL)
      .toBe('Omar Crewman');

    await admin.fill(byTestId('users-search'), 'omar');
    await expect.poll(() => admin.locator(byTestId('users-row')).count(), POLL).toBe(1);
    await admin.click(byTestId('users-sort-email'));
    await admin.click(byTestId('users-clear'));
    expect(await admin.inputValue(byTestId('users-search'))).toBe('');
    await expect.poll(() => admin.locator(byTestId('users-row')).count(), POLL).toBeGreaterThan(1);
    expect(await admin.getAttribute(byTestId('users-sort-name'), 'data-sort')).toBe('asc');

    await admin.fill(byTestId('users-search'), 'omar');
    await expect.poll(() => admin.locator(byTestId('users-row')).count(), POLL).toBe(1);
    await rowOf(INVITEE.email).locator(byTestId('users-action-details')).click();
    await admin.locator(byTestId('users-details')).waitFor();
    await admin.keyboard.press('Escape');
    await admin.click('nav[data-testid="side-menu"] a[href="/crews"]');
    await admin.waitForURL(`${env.server.baseUrl}/crews`);
    await admin.click('nav[data-testid="side-menu"] a[href="/users"]');
    await admin.waitForSelector(byTestId('users-table'));
    expect(await admin.inputValue(byTestId('users-search'))).toBe('');
    await expect.poll(() => admin.locator(byTestId('users-row')).count(), POLL).toBeGreaterThan(1);
  });

  it('starts the section afresh when the super admin picks another client', async () => {
    // A second client with a user of its own, made through the API as the super admin would.
    const superAdmin = 'super-admin@demo.sitewatch.dev';
    const login = await fetch(`${env.server.baseUrl}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: superAdmin, password: 'sitewatch-demo' }),
    });
    const token = (await login.json()).data.access_token as string;
    const post = (path: string, body: unknown) =>
      fetch(`${env.server.baseUrl}/api${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify(body),
      }).then((response) => response.json());
    const client = (await post('/clients', { name: 'Harbour Works Ltd' })).data;
    const other = { name: 'Nadia Harbour', email: 'nadia.harbour@example.test' };
    // Spec §7: the invitation's data[0] is the user.
    const invited = await post('/invite', { ...other, user_role: 'client-admin', client_id: client.id });
    expect(invited.data[0].email).toBe(other.email);

    const context = await env.browser.newContext({ viewport: { width: 1400, height: 900 } });
    const page = await context.newPage();
    try {
      await signIn(page, env.server.baseUrl, superAdmin);
      await page.click('nav[data-testid="side-menu"] a[href="/users"]');
      const demoClient = await page
        .locator('select[data-testid="client-picker"] option', { hasText: 'Demo Construction Co' })
        .getAttribute('value');
      await page.selectOption('select[data-testid="client-picker"]', demoClient ?? '');
      await page.waitForSelector(byTestId('users-table'));
      const row = (email: string) => page.locator(`${byTestId('users-row')}[data-email="${email}"]`);
      await page.fill(byTestId('users-search'), 'omar');
      await expect.poll(() => page.locator(byTestId('users-row')).count(), POLL).toBe(1);
      await row(INVITEE.email).locator(byTestId('users-action-details')).click();
      await page.locator(byTestId('users-details')).waitFor();

      await page.selectOption('select[data-testid="client-picker"]', String(client.id));
      // The other client's users only, and nothing of the search or drawer the section had.
      await expect.poll(() => row(other.email).count(), POLL).toBe(1);
      expect(await page.locator(byTestId('users-row')).count()).toBe(1);
      expect(await page.inputValue(byTestId('users-search'))).toBe('');
      expect(await page.locator(byTestId('users-details')).count()).toBe(0);

      await page.fill(byTestId('users-search'), 'nadia');
      await page.selectOption('select[data-testid="client-picker"]', demoClient ?? '');
      await expect.poll(() => row('crew-manager@demo.sitewatch.dev').count(), POLL).toBe(1);
      expect(await page.inputValue(byTestId('users-search'))).toBe('');
      expect(await row(other.email).count()).toBe(0);
    } finally {
      await context.close();
    }
  });

  it('reads right to left in Arabic; the choice is saved on the account and login forces English', async () => {
    await admin.selectOption(byTestId('language-switch'), 'ar');
    await admin.waitForFunction(() => document.documentElement.dir === 'rtl');
    await admin.locator('.bp6-toast').first().waitFor({ state: 'detached', timeout: 10_000 });
    expect(await admin.locator(byTestId('users-role')).allInnerTexts()).not.toContain('Crew Manager');
    expect(await rowOf(INVITEE.email).locator(byTestId('users-status')).innerText()).toBe('نشط');
    await admin.screenshot({ path: `${SCREENSHOTS}/users-arabic.png`, fullPage: true });
    await rowOf(INVITEE.email).locator(byTestId('users-action-deactivate')).click();
    await admin.locator(byTestId('users-confirm-deactivate')).waitFor();
    // Past the overlay's fade-in, for the screenshot.
    await admin.waitForTimeout(500);
    await admin.screenshot({ path: `${SCREENSHOTS}/users-arabic-confirm.png` });
    await admin.click('.sw-users-confirm-deactivate .bp6-alert-footer button:not(.bp6-intent-danger)');
    await admin.locator(byTestId('users-confirm-deactivate')).waitFor({ state: 'detached' });
    await admin.click(byTestId('users-invite'));
    await admin.locator(byTestId('user-form')).waitFor();
    await admin.selectOption(byTestId('user-form-role'), 'crew-manager');
    // Past the overlay's fade-in, for the screenshot.
    await admin.waitForTimeout(500);
    await admin.screenshot({ path: `${SCREENSHOTS}/users-arabic-invite.png` });
    await admin.click(byTestId('user-form-cancel'));
    // The form changed: closing it asks first (spec §8).
    await admin.locator(byTestId('workforce-confirm-cancel')).waitFor();
    await admin.click('.sw-discard-changes .bp6-alert-footer .bp6-intent-warning');
    await admin.locator(byTestId('user-form')).waitFor({ state: 'detached' });

    const saved = async () =>
      (await env.server.db.select({ locale: users.locale }).from(users).where(eq(users.email, SITE_ADMIN)))[0]
        ?.locale;
    await expect.poll(saved, POLL).toBe('ar');
    await admin.reload();
    await admin.waitForSelector(byTestId('users-table'));
    expect(await admin.evaluate(() => document.documentElement.dir)).toBe('rtl');

    await admin.goto(`${env.server.baseUrl}/logout`);
    await admin.waitForURL(`${env.server.baseUrl}/login`);
    await signIn(admin, env.server.baseUrl, SITE_ADMIN);
    await admin.waitForFunction(() => document.documentElement.dir === 'ltr');
    expect(await admin.locator(byTestId('screen-title')).innerText()).toBe('Dashboard');
    await expect.poll(saved, POLL).toBe('en');
  });
});
