import type { Browser } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { launchBrowser } from './browser';
import { type E2eServer, type E2eServerOptions, startE2eServer } from './e2eServer';

export interface BrowserSuite {
  server: E2eServer;
  browser: Browser;
}

/**
 * One server on a fresh demo database and one Chromium for the calling test file, closed after it.
 * With `live`, the server also runs the broker, the ingest and the live channel (and, with
 * `simulator`, the demo site's simulator and the safety drill).
 */
export function browserSuite(options: E2eServerOptions = {}): BrowserSuite {
  const suite = {} as BrowserSuite;
  beforeAll(async () => {
    suite.server = await startE2eServer(options);
    suite.browser = await launchBrowser();
  });
  afterAll(async () => {
    await suite.browser?.close();
    await suite.server?.close();
  });
  return suite;
}
