import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { browserSuite } from './helpers/browserSuite';
import { CONSOLE_DIR } from './helpers/outputDir';
import { signIn } from './helpers/pages';

/** The built scripts that hold Pixi (its own messages name it), found in the build the suite serves. */
function pixiChunks(): string[] {
  const assets = join(CONSOLE_DIR, 'assets');
  return readdirSync(assets).filter(
    (file) => file.endsWith('.js') && readFileSync(join(assets, file), 'utf8').includes('PixiJS'),
  );
}

/** Every script URL the page asks for, from the first navigation on. */
function recordScripts(page: Page): string[] {
  const urls: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script') urls.push(request.url());
  });
  return urls;
}

function pixiRequests(urls: readonly string[], chunks: readonly string[]): string[] {
  return urls.filter((url) => chunks.some((chunk) => url.endsWith(`/assets/${chunk}`)));
}

describe('screens load on first use', () => {
  const env = browserSuite();
  let contexts: BrowserContext[] = [];
  let chunks: string[];

  beforeAll(() => {
    chunks = pixiChunks();
  });
  afterEach(async () => {
    const closing = Promise.all(contexts.map((context) => context.close()));
    contexts = [];
    await Promise.race([closing, new Promise((resolve) => setTimeout(resolve, 10_000))]);
  });

  /** A page in a context of its own, so nothing comes from an earlier page's cache. */
  async function newPage(storageState?: Awaited<ReturnType<BrowserContext['storageState']>>): Promise<Page> {
    const context = await env.browser.newContext({ viewport: { width: 1400, height: 900 }, storageState });
    contexts.push(context);
    return context.newPage();
  }

  it('shows /login without downloading Pixi, and downloads it when /maps opens', async () => {
    expect(chunks.length).toBeGreaterThan(0);
    const page = await newPage();
    const scripts = recordScripts(page);

    await page.goto(`${env.server.baseUrl}/login`, { waitUntil: 'networkidle' });
    await page.locator('input[name="email"]').waitFor();
    expect(scripts.length).toBeGreaterThan(0);
    expect(pixiRequests(scripts, chunks)).toEqual([]);

    // Signed in, /maps opened in a fresh browser (the home dashboard of this role has a canvas too).
    await signIn(page, env.server.baseUrl, 'site-admin@demo.sitewatch.dev');
    const maps = await newPage(await page.context().storageState());
    const mapsScripts = recordScripts(maps);
    await maps.goto(`${env.server.baseUrl}/maps`);
    await maps.waitForSelector('[data-testid="maps-screen"]');
    await maps.waitForSelector('[data-testid="floor-canvas"] canvas');
    expect(pixiRequests(mapsScripts, chunks).length).toBeGreaterThan(0);
  });

  it('shows the home screen of a role without the floor canvas without downloading Pixi', async () => {
    const page = await newPage();
    const scripts = recordScripts(page);

    await signIn(page, env.server.baseUrl, 'crew-manager@demo.sitewatch.dev');
    await page.waitForSelector('[data-testid="dashboard-site"]');
    await page.waitForLoadState('networkidle');
    expect(pixiRequests(scripts, chunks)).toEqual([]);
  });

  it('opens a screen whose chunk failed to download while offline once the connection is back', async () => {
    const page = await newPage();
    await signIn(page, env.server.baseUrl, 'crew-manager@demo.sitewatch.dev');
    await page.waitForSelector('[data-testid="dashboard-site"]');
    const title = page.locator('[data-testid="screen-title"]');

    await page.context().setOffline(true);
    // A click on the menu, as wouter sees it: the location changes without a reload.
    await page.evaluate(() => {
      history.pushState(null, '', '/crews');
      dispatchEvent(new PopStateEvent('popstate'));
    });
    await page.getByText('No internet connection, please check your connection and try again').waitFor();
    await page.waitForTimeout(1000);
    expect(await page.locator('[data-testid="side-menu"]').isVisible()).toBe(true);
    expect(await page.getByText('Something went wrong').count()).toBe(0);

    await page.context().setOffline(false);
    await expect.poll(() => title.innerText()).toBe('Crews');
  });
});
