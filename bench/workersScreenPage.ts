import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { build } from 'vite';
import { buildApp } from '../server/app';
import { loadConfig } from '../server/config';
import { WORKER_COLUMNS } from '../src/views/workers/workerColumns';
import {
  type ScrollPlan,
  type ScrollResult,
  WORKER_TABLE_SCROLLER,
} from '../tests/e2e/harness/workerTableFixture';
import { signIn } from '../tests/e2e/helpers/pages';
import { openScratchDatabase } from './scratchDatabase';
import { seedWorkforceAtScale, TOTAL_WORKERS } from './workforceAtScale';

export const SCREEN_CONSOLE_DIR = resolve('test-output/bench-console');
const PROBE_SOURCE = resolve('tests/e2e/harness/tableScrollProbe.ts');
const BODY = '.sw-workers-table .bp6-table-quadrant-main .bp6-table-body-virtual-client';

/** The table scroll probe as one classic script, to put into the console's page. */
async function probeScript(): Promise<string> {
  const built = await build({
    configFile: false,
    logLevel: 'warn',
    build: {
      write: false,
      minify: false,
      lib: { entry: PROBE_SOURCE, formats: ['iife'], name: 'tableScrollProbeModule', fileName: 'probe' },
    },
  });
  const outputs = Array.isArray(built) ? built : [built];
  for (const output of outputs) {
    if ('output' in output) return output.output[0].code;
  }
  throw new Error('the probe did not build');
}

export interface WorkersScreen {
  page: Page;
  rows: number;
  /** Scrolls the screen's table by the plan; `requests` counts the list pages asked for meanwhile. */
  measureScroll(plan: ScrollPlan): Promise<{ result: ScrollResult; requests: number }>;
  close(): Promise<void>;
}

/**
 * The console's /workers screen, signed in as the site admin, on a server whose demo site has
 * 10,000 workers (a scratch database: PGlite, or the PostgreSQL server at BENCH_DATABASE_URL).
 */
export async function openWorkersScreen(browser: Browser, reuseConsole: boolean): Promise<WorkersScreen> {
  if (!reuseConsole) {
    await build({
      logLevel: 'warn',
      build: { outDir: SCREEN_CONSOLE_DIR, emptyOutDir: true, sourcemap: false },
    });
  }
  const scratch = await openScratchDatabase(process.env.BENCH_DATABASE_URL);
  await seedWorkforceAtScale(scratch.database);
  const app = await buildApp({
    db: scratch.database.db,
    config: loadConfig({}),
    consoleDir: SCREEN_CONSOLE_DIR,
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const baseUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;

  const page = await browser.newPage({ viewport: { width: 1280, height: 800 }, deviceScaleFactor: 1 });
  let requests = 0;
  page.on('request', (request) => {
    if (new URL(request.url()).pathname.endsWith('/workers')) requests++;
  });
  await signIn(page, baseUrl, 'site-admin@demo.sitewatch.dev');
  await page.goto(`${baseUrl}/workers`);
  await page.waitForSelector(`${BODY} .bp6-table-cell:not(.bp6-loading)`);
  await page.addScriptTag({ content: await probeScript() });
  // A string, not a function: the function's source would carry helpers of this process's compiler.
  const settings = JSON.stringify({
    scroller: WORKER_TABLE_SCROLLER,
    body: BODY,
    rows: TOTAL_WORKERS,
    widths: WORKER_COLUMNS.map((column) => column.width),
  });
  await page.evaluate(`(() => {
    const o = ${settings};
    window.workersScreenProbe = window.tableScrollProbeModule.createTableScrollProbe({
      scroller: () => document.querySelector(o.scroller),
      body: () => document.querySelector(o.body),
      rows: () => o.rows,
      rowHeight: 32,
      columnWidths: o.widths,
    });
  })()`);
  return {
    page,
    rows: TOTAL_WORKERS,
    async measureScroll(plan) {
      const before = requests;
      const result = await page.evaluate(
        (p) =>
          (
            window as unknown as {
              workersScreenProbe: { measureScroll(plan: ScrollPlan): Promise<ScrollResult> };
            }
          ).workersScreenProbe.measureScroll(p),
        plan,
      );
      return { result, requests: requests - before };
    },
    async close() {
      await page.close();
      await app.close();
      await scratch.dispose();
    },
  };
}
