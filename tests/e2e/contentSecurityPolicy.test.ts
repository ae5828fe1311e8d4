import { eq } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { hashToken, newToken } from '../../server/auth/tokens';
import { deviceTokens, floors } from '../../server/db/schema';
import { browserSuite } from './helpers/browserSuite';
import { blueprintPoint, drawnWorkers, helmetsOfWorkers } from './helpers/liveFloor';
import { signIn } from './helpers/pages';

interface Violation {
  directive: string;
  blockedURI: string;
  sample: string;
  source: string;
}

declare global {
  interface Window {
    cspViolations?: Violation[];
  }
}

/** Every `securitypolicyviolation` the page sees, from before its first script runs. */
async function recordViolations(page: Page): Promise<string[]> {
  await page.addInitScript(() => {
    window.cspViolations = [];
    document.addEventListener('securitypolicyviolation', (event) => {
      window.cspViolations?.push({
        directive: event.effectiveDirective,
        blockedURI: event.blockedURI,
        sample: event.sample,
        source: `${event.sourceFile}:${event.lineNumber}`,
      });
    });
  });
  const consoleErrors: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy|Refused to/i.test(message.text())) consoleErrors.push(message.text());
  });
  return consoleErrors;
}

describe('the console under its Content-Security-Policy', () => {
  const suite = browserSuite({ live: true });
  let page: Page;
  /** A device token of the demo site: positions come in over the HTTP ingest, as a gateway sends them. */
  const gatewayToken = newToken();
  let consoleErrors: string[];
  /** Violations of the documents already left; each new document starts its own list. */
  const violations: Violation[] = [];
  const collectViolations = async () => {
    violations.push(...(await page.evaluate(() => window.cspViolations ?? [])));
  };
  const goto = async (path: string) => {
    await collectViolations();
    await page.goto(`${suite.server.baseUrl}${path}`);
  };

  beforeAll(async () => {
    page = await suite.browser.newPage({ viewport: { width: 1400, height: 900 } });
    consoleErrors = await recordViolations(page);
    await suite.server.db
      .insert(deviceTokens)
      .values({ siteId: suite.server.siteId, tokenHash: hashToken(gatewayToken), label: 'CSP gateway' });
    await signIn(page, suite.server.baseUrl, 'site-admin@demo.sitewatch.dev');
  });

  it('serves the policy and draws the live floor, its markers and images with no violation', async () => {
    const document = await page.request.get(`${suite.server.baseUrl}/`);
    const policy = document.headers()['content-security-policy'];
    expect(policy).toBeDefined();
    expect(policy).toContain("script-src 'self'");
    expect(policy).toContain("object-src 'none'");
    expect(policy).toContain("frame-ancestors 'none'");
    expect(policy).not.toMatch(/script-src[^;]*'unsafe-(inline|eval)'/);

    // The live socket runs on the safety listener's port: connect-src lets it through.
    await page.waitForSelector('[data-testid="live-indicator"][data-state="live"]', { timeout: 20_000 });
    const canvas = page.locator('[data-testid="dashboard-canvas"] [data-testid="floor-canvas"]');
    await canvas
      .and(page.locator('[data-renderer]'))
      .waitFor({ timeout: 20_000 })
      .catch(async (error: Error) => {
        // Pixi refuses to start where the policy forbids what it needs: say what was refused.
        const seen = await page.evaluate(() => window.cspViolations ?? []);
        throw new Error(`${error.message}\nCSP violations: ${JSON.stringify(seen)}`);
      });
    const renderer = await canvas.getAttribute('data-renderer');
    console.log(`floor canvas renderer under the CSP: ${renderer}`);
    expect(renderer).toBe('webgl');

    const floorId = Number(await page.locator('[data-testid="dashboard-floor-picker"]').inputValue());
    const [floor] = await suite.server.db.select().from(floors).where(eq(floors.id, floorId));
    const [{ helmet, worker }] = await helmetsOfWorkers(suite.server.db, 1);
    const { lat, long } = blueprintPoint(floor)(0.4, 0.5);
    const ingested = await fetch(`${suite.server.baseUrl}/api/ingest/${helmet.siteId}/positions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${gatewayToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        tag: helmet.wntInventoryId,
        ts: new Date().toISOString(),
        lat,
        long,
        floorId,
        online: true,
        active: true,
      }),
    });
    expect(ingested.status).toBe(200);
    type Drawn = { inventory_id: number; screenX: number; screenY: number };
    await expect
      .poll(
        async () =>
          (await drawnWorkers<Drawn>(page, 'dashboard-canvas')).some((w) => w.inventory_id === helmet.id),
        { timeout: 15_000 },
      )
      .toBe(true);
    const marker = (await drawnWorkers<Drawn>(page, 'dashboard-canvas')).find(
      (w) => w.inventory_id === helmet.id,
    )!;

    // The worker's details show a picture (img-src).
    const box = (await canvas.boundingBox())!;
    await page.mouse.click(box.x + marker.screenX, box.y + marker.screenY);
    await expect
      .poll(() => page.locator('[data-testid="worker-name"]').innerText(), { timeout: 5000 })
      .toBe(worker.name);
    const pictures = page.locator('img');
    await expect.poll(() => pictures.count(), { timeout: 5000 }).toBeGreaterThan(0);
    const loaded = await pictures.evaluateAll((images) =>
      (images as HTMLImageElement[]).map((image) => image.complete && image.naturalWidth > 0),
    );
    expect(loaded.every(Boolean)).toBe(true);
    await page.screenshot({ path: 'test-output/screenshots/csp-live-home.png' });

    // The workers' table (Blueprint's resize sensor writes style attributes) and the safety
    // screen (HTTP calls to the safety listener) load under the same policy.
    await goto('/workers');
    await page.waitForSelector('[data-testid="workers-table"]', { timeout: 20_000 });
    await goto('/safety');
    await page.waitForSelector('[data-testid="incidents-empty"], [data-testid="incidents-table"]', {
      timeout: 20_000,
    });
    await collectViolations();

    expect(violations).toEqual([]);
    expect(consoleErrors).toEqual([]);
  });
});
