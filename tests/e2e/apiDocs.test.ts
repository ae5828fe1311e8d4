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

/**
 * Every operation the page shows as a reader scrolls it from top to bottom. Swagger UI renders a
 * long list of operations virtually: only the rows near the viewport are in the document at once.
 */
async function operationsShownWhileScrolling(page: Page): Promise<Set<string>> {
  const shown = new Set<string>();
  await page.evaluate(() => window.scrollTo(0, 0));
  for (let step = 0; step < 500; step += 1) {
    const visible = await page
      .locator('.opblock-summary')
      .evaluateAll((summaries) =>
        summaries.map(
          (summary) =>
            `${summary.querySelector('.opblock-summary-method')?.textContent} ${summary.querySelector('.opblock-summary-path')?.getAttribute('data-path')}`,
        ),
      );
    for (const operation of visible) shown.add(operation);
    const atBottom = await page.evaluate(() => {
      const before = window.scrollY;
      window.scrollBy(0, window.innerHeight / 2);
      return window.scrollY === before;
    });
    if (atBottom) break;
    await page.waitForTimeout(50);
  }
  return shown;
}

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
    await page.screenshot({ path: `${E2E_OUTPUT_DIR}/api-docs.png` });
    const shown = await operationsShownWhileScrolling(page);
    expect(shown.size).toBe(operations.length);
    expect([...shown].filter((operation) => operation.includes(' /api/safety/')).length).toBeGreaterThan(8);
    const blocked = await page.evaluate(() => window.blockedByPolicy ?? []);
    expect(
      blocked
        .map(({ directive, source }) => `${directive} ${source}`)
        .filter((violation) => !SWAGGER_LOGO_STYLE.test(violation)),
    ).toEqual([]);
  });
});
