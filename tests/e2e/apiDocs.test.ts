import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { browserSuite } from './helpers/browserSuite';
import { E2E_OUTPUT_DIR } from './helpers/outputDir';

declare global {
  interface Window {
    blockedByPolicy?: { directive: string; source: string }[];
  }
}

/**
 * The one thing the console's Content-Security-Policy blocks on the page: the `<style>` inside
 * Swagger UI's own logo, which the Fastify logo replaces anyway (nothing of the page depends on it).
 */
const SWAGGER_LOGO_STYLE = /^style-src-elem .*\/api\/docs\/static\/swagger-ui-bundle\.js:/;

describe('the API reference page (/api/docs)', () => {
  const suite = browserSuite();
  let page: Page;

  beforeAll(async () => {
    page = await suite.browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.addInitScript(() => {
      window.blockedByPolicy = [];
      document.addEventListener('securitypolicyviolation', (event) => {
        window.blockedByPolicy?.push({
          directive: event.effectiveDirective,
          source: `${event.sourceFile}:${event.lineNumber}`,
        });
      });
    });
    await page.goto(`${suite.server.baseUrl}/api/docs`);
    await page.locator('.opblock').first().waitFor();
  });

  it('shows every route of both listeners under the console’s Content-Security-Policy', async () => {
    const document = await (await fetch(`${suite.server.baseUrl}/api/openapi.json`)).json();
    const operations = Object.values(document.paths as Record<string, object>).flatMap((item) =>
      Object.keys(item).filter((key) => key !== 'servers'),
    );
    await expect.poll(() => page.locator('.opblock').count(), { timeout: 20_000 }).toBe(operations.length);
    expect(await page.locator('.opblock-summary-path[data-path^="/api/safety/"]').count()).toBeGreaterThan(8);
    await page.screenshot({ path: `${E2E_OUTPUT_DIR}/api-docs.png` });
    const blocked = await page.evaluate(() => window.blockedByPolicy ?? []);
    expect(
      blocked
        .map(({ directive, source }) => `${directive} ${source}`)
        .filter((violation) => !SWAGGER_LOGO_STYLE.test(violation)),
    ).toEqual([]);
  });
});
