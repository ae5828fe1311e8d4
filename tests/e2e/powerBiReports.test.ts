import { mkdirSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { POWER_BI_FRAME_SANDBOX } from '../../src/domain/powerBi';
import { browserSuite } from './helpers/browserSuite';
import { E2E_OUTPUT_DIR } from './helpers/outputDir';
import { signIn } from './helpers/pages';
import { recordToasts, toastsSeen } from './helpers/toasts';

const byTestId = (id: string) => `[data-testid="${id}"]`;
const SCREENSHOTS = `${E2E_OUTPUT_DIR}/screenshots`;
const REPORT_URL = 'https://app.powerbi.com/reportEmbed?reportId=5b218778-e7a5-4d73-8187-f10824047715';
const POWER_BI_HOSTS = [
  'https://app.powerbi.com',
  'https://app.powerbigov.us',
  'https://app.high.powerbigov.us',
  'https://app.mil.powerbigov.us',
  'https://app.powerbi.cn',
];

declare global {
  interface Window {
    frameViolations?: string[];
  }
}

/** The directives of a Content-Security-Policy header, as name → sources. */
function policyOf(header: string | undefined): Record<string, string[]> {
  return Object.fromEntries(
    (header ?? '')
      .split(';')
      .map((directive) => directive.trim().split(/\s+/))
      .map(([name, ...sources]) => [name, sources]),
  );
}

/**
 * Power BI is out of reach offline: its embed page answers with a stand-in, so the test sees the
 * browser actually frame it under the policy (a blocked frame would never ask for it).
 */
async function standInPowerBi(page: Page, asked: string[]): Promise<void> {
  await page.route('https://app.powerbi.com/**', (route) => {
    asked.push(route.request().url());
    return route.fulfill({
      contentType: 'text/html',
      body: '<!doctype html><title>Power BI</title><h1 id="stand-in">Power BI report stand-in</h1>',
    });
  });
}

async function openReports(page: Page, baseUrl: string, query = 'view=reports') {
  const response = await page.goto(`${baseUrl}/analytics?${query}`);
  await page.waitForSelector(byTestId('power-bi-reports'));
  return response;
}

async function addReport(page: Page, name: string, url: string) {
  await page.click(byTestId('power-bi-add'));
  await page.waitForSelector(byTestId('power-bi-form'));
  await page.fill(byTestId('power-bi-form-name'), name);
  await page.fill(byTestId('power-bi-form-url'), url);
  await page.click(byTestId('power-bi-form-submit'));
}

const itemNames = (page: Page) =>
  page.locator(`${byTestId('power-bi-item')} ${byTestId('power-bi-open')}`).allInnerTexts();

describe('Analytics → Reports: Power BI report links', () => {
  const suite = browserSuite();
  let page: Page;
  const asked: string[] = [];

  beforeAll(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    page = await suite.browser.newPage({ viewport: { width: 1400, height: 900 } });
    await recordToasts(page);
    await standInPowerBi(page, asked);
    await page.addInitScript(() => {
      window.frameViolations = [];
      document.addEventListener('securitypolicyviolation', (event) => {
        if (event.effectiveDirective === 'frame-src') window.frameViolations?.push(event.blockedURI);
      });
    });
    await signIn(page, suite.server.baseUrl, 'site-admin@demo.sitewatch.dev');
  });

  it('refuses an http link with the rule’s message, then adds an https Power BI link to the list', async () => {
    // A tab of Analytics, reached from the overview and left for it again.
    await page.goto(`${suite.server.baseUrl}/analytics`);
    await page.waitForSelector(byTestId('analytics-overview'));
    await page.click('.sw-analytics-nav [role="tab"]:has-text("Reports")');
    await page.waitForSelector(byTestId('power-bi-reports'));
    expect(new URL(page.url()).search).toBe('?view=reports');
    await page.click('.sw-analytics-nav [role="tab"]:has-text("Analytics")');
    await page.waitForSelector(byTestId('analytics-overview'));
    await page.goBack();
    await page.waitForSelector(byTestId('power-bi-reports'));
    expect(await page.locator(byTestId('power-bi-view')).innerText()).toBe('');
    expect(await page.locator(byTestId('power-bi-reports')).innerText()).toContain(
      'No Power BI reports available',
    );

    await addReport(page, 'Weekly progress', 'http://app.powerbi.com/reportEmbed?reportId=1');
    await expect
      .poll(() => page.locator(byTestId('power-bi-form-url-message')).innerText())
      .toBe('Embed URL must start with https://');
    await page.fill(byTestId('power-bi-form-url'), 'https://app.powerbi.com.evil.example/view?r=abc');
    await expect
      .poll(() => page.locator(byTestId('power-bi-form-url-message')).innerText())
      .toMatch(/^Embed URL must be a Power BI embed link/);
    await page.click(byTestId('power-bi-form-submit'));
    expect(await page.locator(byTestId('power-bi-item')).count()).toBe(0);

    await page.fill(byTestId('power-bi-form-url'), REPORT_URL);
    await page.click(byTestId('power-bi-form-submit'));
    await page.waitForSelector(byTestId('power-bi-form'), { state: 'detached' });
    await expect.poll(() => toastsSeen(page)).toContain('Power BI report is created successfully');
    await expect.poll(() => itemNames(page)).toEqual(['Weekly progress']);
  });

  it('opens the report in a sandboxed frame kept in the address across a reload', async () => {
    await page.click(`${byTestId('power-bi-item')}:has-text("Weekly progress") ${byTestId('power-bi-open')}`);
    const frame = page.locator(byTestId('power-bi-frame'));
    await frame.waitFor();
    expect(new URL(page.url()).searchParams.get('view')).toBe('reports');
    expect(new URL(page.url()).searchParams.get('report')).toMatch(/^\d+$/);
    const attributes = async () => ({
      src: await frame.getAttribute('src'),
      sandbox: await frame.getAttribute('sandbox'),
      referrerpolicy: await frame.getAttribute('referrerpolicy'),
      loading: await frame.getAttribute('loading'),
      title: await frame.getAttribute('title'),
    });
    const expected = {
      src: REPORT_URL,
      sandbox: POWER_BI_FRAME_SANDBOX,
      referrerpolicy: 'no-referrer',
      loading: 'lazy',
      title: 'Weekly progress',
    };
    expect(await attributes()).toEqual(expected);
    expect(POWER_BI_FRAME_SANDBOX.split(' ')).not.toContain('allow-top-navigation');
    // The policy lets the browser frame Power BI: it asks for the page and shows it.
    await expect.poll(() => asked).toContain(REPORT_URL);
    await expect
      .poll(async () => page.frameLocator(byTestId('power-bi-frame')).locator('#stand-in').innerText())
      .toBe('Power BI report stand-in');
    expect(await page.evaluate(() => window.frameViolations)).toEqual([]);
    await page.screenshot({ path: `${SCREENSHOTS}/power-bi-reports-en.png` });

    const reloaded = await page.reload();
    await frame.waitFor();
    expect(await attributes()).toEqual(expected);
    expect(await page.locator(byTestId('power-bi-open')).first().getAttribute('aria-current')).toBe('page');

    // The console's policy frames the Power BI hosts over https and nothing else.
    const policy = policyOf(reloaded?.headers()['content-security-policy']);
    expect(policy['frame-src']).toEqual(POWER_BI_HOSTS);
    expect(policy['frame-ancestors']).toEqual(["'none'"]);
    expect(policy['script-src']).toEqual(["'self'"]);
    expect(policy['default-src']).toEqual(["'self'"]);
  });

  it('lets the browser frame nothing else, not even this origin', async () => {
    const blocked = ['https://evil.example/view', `${suite.server.baseUrl}/`, 'http://app.powerbi.com/view'];
    await page.evaluate((urls) => {
      for (const url of urls) {
        const frame = document.createElement('iframe');
        frame.src = url;
        document.body.append(frame);
      }
    }, blocked);
    await expect.poll(() => page.evaluate(() => window.frameViolations?.length)).toBe(blocked.length);
    expect(asked.filter((url) => url.startsWith('http:'))).toEqual([]);
  });

  it('deactivates a report after asking, which site viewers then no longer see', async () => {
    await openReports(page, suite.server.baseUrl);
    await addReport(page, 'Old cost report', 'https://app.powerbi.com/view?r=eyJrIjoiMSJ9');
    await page.waitForSelector(byTestId('power-bi-form'), { state: 'detached' });
    const old = page.locator(byTestId('power-bi-item'), { hasText: 'Old cost report' });
    await old.locator(byTestId('power-bi-deactivate')).click();
    await expect
      .poll(() => page.locator(byTestId('power-bi-confirm')).innerText())
      .toContain('Deactivate the report "Old cost report"?');
    await page.click('.bp6-alert-footer button.bp6-intent-danger');
    await expect.poll(() => old.getAttribute('data-active')).toBe('false');
    expect(await old.innerText()).toContain('Inactive');
    expect(await old.locator(byTestId('power-bi-activate')).count()).toBe(1);
  });

  it('shows a site viewer the active reports, to open but not to change', async () => {
    const viewer = await suite.browser.newPage({ viewport: { width: 1400, height: 900 } });
    await standInPowerBi(viewer, []);
    await signIn(viewer, suite.server.baseUrl, 'site-viewer@demo.sitewatch.dev');
    await openReports(viewer, suite.server.baseUrl);
    await expect.poll(() => itemNames(viewer)).toEqual(['Weekly progress']);
    expect(await viewer.locator(byTestId('power-bi-add')).count()).toBe(0);
    expect(await viewer.locator(byTestId('power-bi-edit')).count()).toBe(0);
    expect(await viewer.locator(byTestId('power-bi-deactivate')).count()).toBe(0);
    await viewer.click(byTestId('power-bi-open'));
    expect(await viewer.locator(byTestId('power-bi-frame')).getAttribute('src')).toBe(REPORT_URL);
    await expect
      .poll(async () => viewer.frameLocator(byTestId('power-bi-frame')).locator('#stand-in').innerText())
      .toBe('Power BI report stand-in');
    await viewer.screenshot({ path: `${SCREENSHOTS}/power-bi-reports-viewer.png` });
    await viewer.close();
  });

  it('reads right-to-left in Arabic, the rule’s messages included', async () => {
    await openReports(page, suite.server.baseUrl);
    await page.selectOption(byTestId('language-switch'), 'ar');
    await page.waitForFunction(() => document.documentElement.dir === 'rtl');
    expect(await page.locator(byTestId('power-bi-add')).innerText()).toBe('إضافة تقرير');
    const tab = page.locator('.sw-analytics-nav [aria-selected="true"]');
    expect(await tab.innerText()).toBe('التقارير');
    // The list sits at the right, the report view at its left.
    const list = (await page.locator('.sw-pbi-list').boundingBox())!;
    const view = (await page.locator(byTestId('power-bi-view')).boundingBox())!;
    expect(list.x).toBeGreaterThan(view.x);
    await page.click(`${byTestId('power-bi-item')}:has-text("Weekly progress") ${byTestId('power-bi-open')}`);
    await expect
      .poll(async () => page.frameLocator(byTestId('power-bi-frame')).locator('#stand-in').innerText())
      .toBe('Power BI report stand-in');
    await page.screenshot({ path: `${SCREENSHOTS}/power-bi-reports-ar.png` });

    await addReport(page, 'تقرير', 'http://app.powerbi.com/view?r=abc');
    await expect
      .poll(() => page.locator(byTestId('power-bi-form-url-message')).innerText())
      .toBe('يجب أن يبدأ رابط التضمين بـ \u2066https://\u2069');
    await page.screenshot({ path: `${SCREENSHOTS}/power-bi-form-ar.png` });
  });
});
