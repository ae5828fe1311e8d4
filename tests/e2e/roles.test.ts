import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserSuite } from './helpers/browserSuite';
import { menuLabels, signIn } from './helpers/pages';

const ALL = [
  'Analytics',
  'Workers',
  'Worker Roles',
  'Subcontractors',
  'Maps & Zones',
  'eTQR',
  'Crews',
  'WorkShifts',
  'Nodes Management',
  'Installation Mode',
  'Map View',
  'Maintenance Toolkit',
  'User Management',
  'Bulk Uploads',
  'Safety Demo',
  'Electrical RM Installation',
  'Safety',
  'Evacuation',
  'Daily Attendance Report',
];

/** What each demo role sees in the side menu and one route it may not open (DESIGN.md §4). */
const ROLES = [
  { slug: 'super-admin', landing: '/', menu: ALL, forbidden: null },
  {
    slug: 'client-admin',
    landing: '/',
    menu: ALL.filter((l) => l !== 'Safety Demo'),
    forbidden: '/safteyDemo',
  },
  {
    slug: 'site-admin',
    landing: '/',
    menu: ALL.filter((l) => l !== 'Safety Demo'),
    forbidden: '/safteyDemo',
  },
  {
    slug: 'site-viewer',
    landing: '/',
    menu: [
      'Analytics',
      'Workers',
      'Maps & Zones',
      'eTQR',
      'Crews',
      'WorkShifts',
      'Safety',
      'Evacuation',
      'Daily Attendance Report',
    ],
    forbidden: '/users',
  },
  {
    slug: 'crew-manager',
    landing: '/',
    menu: ['Workers', 'eTQR', 'Crews', 'WorkShifts', 'Daily Attendance Report'],
    forbidden: '/maps',
  },
  {
    slug: 'site-engineer',
    landing: '/installation',
    menu: [
      'eTQR',
      'Nodes Management',
      'Installation Mode',
      'Map View',
      'Maintenance Toolkit',
      'Electrical RM Installation',
    ],
    forbidden: '/workers',
  },
  {
    slug: 'safety-demo',
    landing: '/',
    menu: ['Safety Demo', 'Safety', 'Evacuation'],
    forbidden: '/configuration/bulkUploads',
  },
] as const;

describe('each demo role in Chromium', () => {
  const env = browserSuite();

  for (const role of ROLES) {
    describe(role.slug, () => {
      let context: BrowserContext;
      let page: Page;
      beforeAll(async () => {
        context = await env.browser.newContext({ viewport: { width: 1400, height: 900 } });
        page = await context.newPage();
      });
      afterAll(() => context?.close());

      it('signs in, lands on its home and sees only its menu entries', async () => {
        await signIn(page, env.server.baseUrl, `${role.slug}@demo.sitewatch.dev`);
        await page.waitForURL(`${env.server.baseUrl}${role.landing}`);
        expect(await menuLabels(page)).toEqual([...role.menu]);
        await page.screenshot({ path: `test-output/screenshots/home-${role.slug}.png` });
      });

      it('is sent to /403 on a route its role may not open', async () => {
        if (!role.forbidden) {
          // A super-admin may open everything: the safety demo opens instead of /403.
          await page.goto(`${env.server.baseUrl}/safteyDemo`);
          await page.waitForSelector('h1[data-testid="screen-title"]');
          expect(new URL(page.url()).pathname).toBe('/safteyDemo');
          return;
        }
        await page.goto(`${env.server.baseUrl}${role.forbidden}`);
        await page.waitForURL(`${env.server.baseUrl}/403`);
        await page.waitForSelector('[data-testid="forbidden"]');
      });

      it('stays signed in after a reload', async () => {
        await page.goto(`${env.server.baseUrl}${role.landing}`);
        await page.reload();
        await page.waitForSelector('nav[data-testid="side-menu"]');
        expect(new URL(page.url()).pathname).toBe(role.landing);
      });

      it('switches to Arabic and the layout turns right-to-left', async () => {
        await page.selectOption('[data-testid="language-switch"]', 'ar').catch(async () => {
          await page.click('[data-testid="language-switch"]');
        });
        await page.waitForFunction(() => document.documentElement.dir === 'rtl');
        expect(await page.getAttribute('html', 'lang')).toBe('ar');
        const menu = await page.locator('nav[data-testid="side-menu"]').boundingBox();
        expect(menu).not.toBeNull();
        // The side menu moves to the right edge.
        expect(menu!.x + menu!.width).toBeGreaterThan(1400 - 20);
        await page.screenshot({ path: `test-output/screenshots/home-${role.slug}-ar.png` });
      });

      it('logs out, and the old token no longer works', async () => {
        const token = await page.evaluate(() => localStorage.getItem('auth'));
        await page.goto(`${env.server.baseUrl}/logout`);
        await page.waitForURL(`${env.server.baseUrl}/login`);
        expect(await page.evaluate(() => localStorage.getItem('user'))).toBeNull();
        const bearer = token?.startsWith('"') ? JSON.parse(token) : token;
        const reply = await fetch(`${env.server.baseUrl}/api/user`, {
          headers: { authorization: `Bearer ${bearer}` },
        });
        expect(reply.status).toBe(401);
      });
    });
  }
});
