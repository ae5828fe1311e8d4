import { and, asc, eq } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import type mqtt from 'mqtt';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolvePrincipal } from '../../server/auth/authenticate';
import { buildings, floors, zones } from '../../server/db/schema';
import { topicFor } from '../../src/domain/live';
import { containsPoint } from '../../src/domain/polygon';
import { browserSuite } from './helpers/browserSuite';
import { blueprintPoint, helmetsOfWorkers, openLivePage } from './helpers/liveFloor';

const byTestId = (id: string) => `[data-testid="${id}"]`;

describe('the evacuation report names each floor and zone with its building', () => {
  const suite = browserSuite({ live: true });
  let page: Page;
  let publisher: mqtt.MqttClient;

  beforeAll(async () => {
    ({ page, publisher } = await openLivePage(suite, { width: 1600, height: 1000 }));
  });
  afterAll(async () => {
    await publisher?.endAsync();
  });

  it('tells North Block’s "Level 2" from South Block’s in the list, the report and its workbook', async () => {
    const { db, siteId } = suite.server;
    const level2 = async (building: string) => {
      const [{ floor }] = await db
        .select({ floor: floors })
        .from(floors)
        .innerJoin(buildings, eq(buildings.id, floors.buildingId))
        .where(and(eq(buildings.siteId, siteId), eq(buildings.name, building), eq(floors.name, 'Level 2')));
      return floor;
    };
    const north = await level2('North Block');
    const south = await level2('South Block');
    const [eastWing] = await db
      .select()
      .from(zones)
      .where(and(eq(zones.floorId, north.id), eq(zones.name, 'East wing')));
    const [assembly] = await db
      .select()
      .from(zones)
      .where(eq(zones.kind, 'assembly'))
      .orderBy(asc(zones.id))
      .limit(1);
    const [inWing, onSouth] = await helmetsOfWorkers(db, 2);

    // One worker in North Block's East wing, one on South Block's Level 2, both online.
    const steps = Array.from({ length: 24 }, (_, i) => 0.02 + i * 0.04);
    const inside = steps
      .flatMap((u) => steps.map((v) => blueprintPoint(north)(u, v)))
      .find((p) => containsPoint(eastWing.coordinates, [p.long, p.lat]));
    expect(inside, 'a point in the East wing').toBeDefined();
    const publish = (tag: string, floorId: number, at: { lat: number; long: number }) =>
      publisher.publishAsync(
        topicFor(siteId, 'positions', suite.server.topicRoot),
        JSON.stringify({ tag, ts: new Date().toISOString(), ...at, floorId, online: true, active: true }),
        { qos: 1 },
      );
    await publish(inWing.helmet.wntInventoryId, north.id, inside!);
    await publish(onSouth.helmet.wntInventoryId, south.id, blueprintPoint(south)(0.05, 0.5));
    await page.waitForTimeout(1000);

    const token = await page.evaluate(() => localStorage.getItem('auth'));
    const principal = (await resolvePrincipal(db, token!))!;
    const evacuation = await suite.server.evacuation!.start(principal, {
      siteId,
      floorIds: [north.id, south.id],
      zoneIds: [],
      assemblyZoneIds: [assembly.id],
      safeZone: null,
      gateWayId: null,
    });
    await suite.server.evacuation!.end(principal, {
      siteId,
      evacuationSessionId: evacuation.evacuationSessionId,
    });

    await page.goto(`${suite.server.baseUrl}/safety`);
    await page.getByRole('tab', { name: 'Past evacuations' }).click();
    const row = page.locator(byTestId('evacuation-row')).first();
    await row.waitFor();
    const listed = await row.locator(byTestId('evacuation-floors')).innerText();
    expect(listed).toContain('Level 2 · North Block');
    expect(listed).toContain('Level 2 · South Block');

    await row.locator(byTestId('open-report')).click();
    await page.locator(byTestId('report-workers')).waitFor();
    const evacuated = await page.locator(`${byTestId('report-floors')} li`).allInnerTexts();
    expect(evacuated.sort()).toEqual(['Level 2 · North Block', 'Level 2 · South Block']);
    expect(await page.locator(byTestId('report-assembly-zones')).innerText()).toMatch(
      /^Assembly point \(.+ · (North|South) Block\)$/,
    );
    const placeOf = (name: string) =>
      page
        .locator(byTestId('report-worker-row'), { hasText: name })
        .locator(byTestId('report-worker-place'))
        .innerText();
    expect(await placeOf(inWing.worker.name)).toBe('East wing (Level 2 · North Block)');
    expect(await placeOf(onSouth.worker.name)).toBe('Level 2 · South Block');
    // Nobody reached safety: each is never accounted for, with where to look for them.
    const never = await page.locator(`${byTestId('never-accounted')} li`).allInnerTexts();
    expect(never.find((line) => line.includes(inWing.worker.name))).toContain(
      'East wing (Level 2 · North Block)',
    );
    await page.screenshot({ path: 'test-output/screenshots/evacuation-report-places.png', fullPage: true });

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.locator(byTestId('export-report')).click(),
    ]);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.readFile((await download.path())!);
    const summary = workbook.getWorksheet('Summary')!;
    const field = (name: string) => {
      let value: unknown = null;
      summary.eachRow((r) => {
        if (r.getCell(1).value === name) value = r.getCell(2).value;
      });
      return value;
    };
    expect(field('Floors evacuated')).toBe('Level 2 · North Block; Level 2 · South Block');
    const sheet = workbook.getWorksheet('Workers')!;
    const headers = (sheet.getRow(1).values as unknown[]).slice(1);
    const column = (header: string) => headers.indexOf(header) + 1;
    let wingRow: ExcelJS.Row | null = null;
    sheet.eachRow((r) => {
      if (r.getCell(1).value === inWing.worker.name) wingRow = r;
    });
    expect(wingRow).not.toBeNull();
    const cells = wingRow as unknown as ExcelJS.Row;
    expect(cells.getCell(column('Building when included')).value).toBe('North Block');
    expect(cells.getCell(column('Floor when included')).value).toBe('Level 2');
    expect(cells.getCell(column('Zone when included')).value).toBe('East wing');

    // In Arabic the page reads right to left; the names keep their own order inside.
    await page.selectOption(byTestId('language-switch'), 'ar');
    await expect.poll(() => page.evaluate(() => document.documentElement.dir)).toBe('rtl');
    expect(await placeOf(onSouth.worker.name)).toBe('Level 2 · South Block');
    await page.screenshot({
      path: 'test-output/screenshots/evacuation-report-places-ar.png',
      fullPage: true,
    });
    await page.selectOption(byTestId('language-switch'), 'en');
  });
});
