import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { and, asc, eq } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildings,
  evacuationSessions,
  evacuationStatusEvents,
  evacuationWorkers,
  floors,
  zones,
} from '../../server/db/schema';
import type { EvacuationStatus } from '../../src/domain/evacuation';
import { browserSuite } from './helpers/browserSuite';
import { helmetsOfWorkers } from './helpers/liveFloor';
import { signIn } from './helpers/pages';

const byTestId = (id: string) => `[data-testid="${id}"]`;

describe('the evacuation report shows the drill figures and compares them with past drills', () => {
  const suite = browserSuite({ live: true });
  let page: Page;
  const sessions = [randomUUID(), randomUUID(), randomUUID()];
  const starts = ['2025-03-01T08:00:00Z', '2025-04-02T08:00:00Z', '2025-05-06T08:00:00Z'].map(
    (s) => new Date(s),
  );
  const at = (session: number, seconds: number) => new Date(starts[session].getTime() + seconds * 1000);

  beforeAll(async () => {
    const { db, siteId } = suite.server;
    const [floor] = await db
      .select({ floor: floors })
      .from(floors)
      .innerJoin(buildings, eq(buildings.id, floors.buildingId))
      .where(
        and(eq(buildings.siteId, siteId), eq(buildings.name, 'North Block'), eq(floors.name, 'Level 1')),
      );
    const [assembly] = await db
      .select()
      .from(zones)
      .where(eq(zones.kind, 'assembly'))
      .orderBy(asc(zones.id))
      .limit(1);
    const scope = {
      siteId,
      floorIds: [floor.floor.id],
      zoneIds: [],
      assemblyZoneIds: [assembly.id],
      evacuationFloorIds: [floor.floor.id],
    };
    await db
      .insert(evacuationSessions)
      .values(sessions.map((id, i) => ({ ...scope, id, startedAt: starts[i], endedAt: at(i, 900) })));
    const helmets = await helmetsOfWorkers(db, 3);
    // Times to safety per drill and worker (null: never): the site gets faster, then one is lost.
    const safeAfter: (number | null)[][] = [
      [200, 260, 320],
      [90, 120, 180],
      [60, 75, null],
    ];
    for (const [i, id] of sessions.entries())
      for (const [w, { helmet, worker }] of helmets.entries()) {
        const safe = safeAfter[i][w];
        const status: EvacuationStatus = safe === null ? 'offline' : 'safe';
        await db.insert(evacuationWorkers).values({
          sessionId: id,
          workerId: worker.id,
          inventoryItemId: helmet.id,
          status,
          includedAt: at(i, 0),
          statusChangedAt: at(i, safe ?? 30),
          safeAt: safe === null ? null : at(i, safe),
          accountedAt: safe === null ? null : at(i, safe),
          originFloorId: floor.floor.id,
          leftFloorAt: safe === null ? null : at(i, safe - 20),
        });
        await db.insert(evacuationStatusEvents).values([
          { sessionId: id, workerId: worker.id, toStatus: 'autoAcknowledge', cause: 'start', at: at(i, 0) },
          {
            sessionId: id,
            workerId: worker.id,
            fromStatus: 'autoAcknowledge',
            toStatus: status,
            cause: safe === null ? 'offline' : 'position',
            at: at(i, safe ?? 30),
          },
        ]);
      }
    page = await suite.browser.newPage({ viewport: { width: 1440, height: 1100 } });
    await signIn(page, suite.server.baseUrl, 'site-admin@demo.sitewatch.dev');
  });
  afterAll(async () => {
    await page?.close();
  });

  it('shows median, p90 and max, the shares of the roll, the floors, and the chart with this drill ringed', async () => {
    await page.goto(`${suite.server.baseUrl}/safety`);
    await page.getByRole('tab', { name: 'Past evacuations' }).click();
    // Newest first: the middle drill is the second row.
    const rows = page.locator(byTestId('evacuation-row'));
    await rows.nth(2).waitFor();
    await rows.nth(1).locator(byTestId('open-report')).click();
    await page.locator(byTestId('drill-figures')).waitFor();

    const figure = (id: string) => page.locator(`${byTestId(id)} strong`).innerText();
    // The middle drill: 90, 120, 180 s.
    expect(await figure('figure-median')).toBe('2m 00s');
    expect(await figure('figure-p90')).toBe('2m 48s');
    expect(await figure('figure-max')).toBe('3m 00s');
    expect(await figure('figure-50')).toBe('2m 00s');
    expect(await figure('figure-90')).toBe('3m 00s');
    expect(await figure('figure-100')).toBe('3m 00s');
    expect(await page.locator(byTestId('figure-median')).innerText()).toContain(
      '3 of 3 on the roll mustered',
    );
    expect(await page.locator(byTestId('floor-cleared')).allInnerTexts()).toEqual([
      'Level 1 · North Block · cleared after 2m 40s',
    ]);

    const canvas = page.locator(byTestId('drill-comparison-canvas'));
    await canvas.waitFor();
    const summary = (await canvas.getAttribute('aria-label')) ?? '';
    const drills = summary.split('; ');
    expect(drills).toHaveLength(3);
    expect(drills[0]).toContain('Median time to muster 4m 20s');
    expect(drills[1]).toContain('(this drill)');
    expect(drills[1]).toContain('Median time to muster 2m 00s');
    // The last drill never had everyone: a gap in that line.
    expect(drills[2]).toContain('Time until everyone was accounted for —');
    const box = await canvas.boundingBox();
    expect(box?.height).toBeGreaterThan(200);
    await page.screenshot({ path: 'test-output/screenshots/drill-report.png', fullPage: true });

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.locator(byTestId('export-report-pdf')).click(),
    ]);
    expect(download.suggestedFilename()).toBe('evacuation-report-2025-04-02.pdf');
    const pdf = readFileSync((await download.path())!);
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');

    // In Arabic the figures and the chart read right to left.
    await page.selectOption(byTestId('language-switch'), 'ar');
    await expect.poll(() => page.evaluate(() => document.documentElement.dir)).toBe('rtl');
    expect(
      await page
        .locator(`${byTestId('drill-figures')} h5`)
        .first()
        .innerText(),
    ).toBe('أرقام التمرين');
    expect(await canvas.getAttribute('aria-label')).toContain('هذا التمرين');
    await page.screenshot({ path: 'test-output/screenshots/drill-report-ar.png', fullPage: true });
    await page.selectOption(byTestId('language-switch'), 'en');
  });
});
