import { asc, eq, inArray, sql } from 'drizzle-orm';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoEmail } from '../../server/db/demoSeed';
import {
  buildings,
  crewAssignments,
  crewManagers,
  floors,
  manualAttendance,
  presenceMinutes,
  sites,
  users,
  workers,
} from '../../server/db/schema';
import { addDays } from '../../src/domain/attendance';
import { calendarDateIn } from '../../src/domain/calendarDate';
import { siteInstant } from '../../src/domain/siteClock';
import { browserSuite } from './helpers/browserSuite';
import { E2E_OUTPUT_DIR } from './helpers/outputDir';
import { signIn } from './helpers/pages';

const SCREENSHOTS = `${E2E_OUTPUT_DIR}/screenshots`;
const byTestId = (id: string) => `[data-testid="${id}"]`;

describe('Daily attendance report in Chromium', () => {
  const env = browserSuite();
  let context: BrowserContext;
  let page: Page;
  let day = '';
  let seenName = '';
  let typedName = '';

  beforeAll(async () => {
    const db = env.server.db;
    const siteId = env.server.siteId;
    const [site] = await db.select({ timezone: sites.timezone }).from(sites).where(eq(sites.id, siteId));
    day = addDays(calendarDateIn(site.timezone), -1);
    const at = (hour: number, minute = 0) => siteInstant(day, hour * 3600 + minute * 60, site.timezone);
    const siteWorkers = await db
      .select({ id: workers.id, name: workers.name })
      .from(workers)
      .where(eq(workers.siteId, siteId))
      .orderBy(sql`lower(${workers.name})`, asc(workers.id))
      .limit(13);
    const [floor] = await db
      .select({ id: floors.id })
      .from(floors)
      .innerJoin(buildings, eq(buildings.id, floors.buildingId))
      .where(eq(buildings.siteId, siteId))
      .limit(1);
    // The first workers by name (the report's first page): twelve on site yesterday from 07:00 (one more each 10 minutes) to 16:30.
    const minutes: (typeof presenceMinutes.$inferInsert)[] = [];
    siteWorkers.slice(0, 12).forEach((worker, index) => {
      for (let ms = at(7, index * 10); ms < at(16, 30); ms += 60_000)
        minutes.push({ siteId, workerId: worker.id, floorId: floor.id, bucket: new Date(ms), seconds: 60 });
    });
    await db.insert(presenceMinutes).values(minutes);
    seenName = siteWorkers[0]?.name ?? '';
    const typed = siteWorkers[12];
    typedName = typed?.name ?? '';
    if (typed) {
      await db.insert(manualAttendance).values({
        siteId,
        workerId: typed.id,
        day,
        checkIn: '08:00',
        checkOut: '12:00',
        present: true,
        notes: 'Gate register',
      });
    }

    context = await env.browser.newContext({ viewport: { width: 1500, height: 1000 } });
    page = await context.newPage();
    await signIn(page, env.server.baseUrl, demoEmail('group-of-sites-admin'));
  });
  afterAll(() => context?.close());

  async function showDay(target: Page): Promise<void> {
    await target.goto(`${env.server.baseUrl}/dailyAttendanceReport`);
    await target.waitForSelector(byTestId('attendance-filters'));
    await target.fill(byTestId('attendance-from'), day);
    await target.fill(byTestId('attendance-to'), day);
    await target.waitForSelector(byTestId('attendance-row'));
  }

  const rowOf = (target: Page, name: string) => target.locator(byTestId('attendance-row'), { hasText: name });

  it('shows yesterday’s hours from positions, the manual entry beside them, totals and headcount', async () => {
    await showDay(page);
    const seen = rowOf(page, seenName).first();
    await expect.poll(() => seen.innerText(), { timeout: 10_000 }).toContain('9.50');
    const seenText = await seen.innerText();
    expect(seenText).toContain('07:00');
    expect(seenText).toContain('16:30');
    expect(seenText).toContain(`${day.slice(8, 10)}/${day.slice(5, 7)}/${day.slice(0, 4)}`);

    const typed = rowOf(page, typedName).first();
    expect(await typed.locator(byTestId('attendance-manual')).innerText()).toContain('08:00–12:00');
    expect(await page.locator(byTestId('attendance-total')).count()).toBeGreaterThan(0);
    const summary = await page.locator(byTestId('attendance-headcount-summary')).textContent();
    // Every one of the twelve is counted by the afternoon (a night-shift worker's morning belongs
    // to the night shift of the day before, docs/decisions.md).
    expect(summary).toContain('13:00 12.00');
    expect(summary).toMatch(/08:00 \d/);
    expect(summary).not.toContain('17:00');
    await page.screenshot({ path: `${SCREENSHOTS}/attendance.png`, fullPage: true });
  });

  it('exports what the screen shows as an .xlsx download', async () => {
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.click(byTestId('attendance-export')),
    ]);
    expect(download.suggestedFilename()).toBe(`attendance-${day}-${day}.xlsx`);
  });

  it('reads right to left in Arabic with the same figures', async () => {
    await page.selectOption(byTestId('language-switch'), 'ar');
    await page.waitForFunction(() => document.documentElement.dir === 'rtl');
    await expect.poll(() => rowOf(page, seenName).first().innerText()).toContain('9.50');
    expect(await page.locator(byTestId('attendance-screen')).innerText()).toContain(
      'الإجماليات لكل مقاول من الباطن',
    );
    await page.screenshot({ path: `${SCREENSHOTS}/attendance-ar.png`, fullPage: true });
    await page.selectOption(byTestId('language-switch'), 'en');
  });

  it('shows a crew manager only the workers of its crews', async () => {
    const db = env.server.db;
    const [manager] = await db
      .select()
      .from(users)
      .where(eq(users.email, demoEmail('crew-manager')));
    const managed = await db
      .select({ crewId: crewManagers.crewId })
      .from(crewManagers)
      .where(eq(crewManagers.userId, manager.id));
    const members = managed.length
      ? await db
          .select({ workerId: crewAssignments.workerId })
          .from(crewAssignments)
          .where(
            inArray(
              crewAssignments.crewId,
              managed.map((m) => m.crewId),
            ),
          )
      : [];
    const managerContext = await env.browser.newContext({ viewport: { width: 1500, height: 1000 } });
    try {
      const managerPage = await managerContext.newPage();
      await signIn(managerPage, env.server.baseUrl, demoEmail('crew-manager'));
      await managerPage.goto(`${env.server.baseUrl}/dailyAttendanceReport`);
      await managerPage.fill(byTestId('attendance-from'), day);
      await managerPage.fill(byTestId('attendance-to'), day);
      await managerPage.waitForSelector(`${byTestId('attendance-row')}, ${byTestId('attendance-empty')}`);
      const pager = await managerPage.locator(byTestId('attendance-pager')).innerText();
      const shown = Number(/(\d[\d,]*) rows/.exec(pager)?.[1]?.replace(/,/g, '') ?? Number.NaN);
      const allRows = await page.locator(byTestId('attendance-pager')).innerText();
      const everyone = Number(/(\d[\d,]*) rows/.exec(allRows)?.[1]?.replace(/,/g, '') ?? Number.NaN);
      expect(shown).toBeGreaterThan(0);
      expect(shown).toBeLessThan(everyone);
      expect(shown).toBeLessThanOrEqual(new Set(members.map((m) => m.workerId)).size);
    } finally {
      await managerContext.close();
    }
  });
});
