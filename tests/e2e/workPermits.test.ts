import { mkdirSync } from 'node:fs';
import { and, eq } from 'drizzle-orm';
import mqtt from 'mqtt';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildings,
  crewAssignments,
  crews,
  floors,
  incidents,
  inventoryItems,
  workers,
  workPermits,
} from '../../server/db/schema';
import { topicFor } from '../../src/domain/live';
import { browserSuite } from './helpers/browserSuite';
import { E2E_OUTPUT_DIR } from './helpers/outputDir';
import { signIn } from './helpers/pages';

/**
 * Work permits in Chromium (issue 19): on North Block · Ground Floor a site admin sees the demo's
 * permits with their grid references, draws a new permit's area on the canvas and issues it,
 * closes and deletes it; then a worker of another crew walks over MQTT into the active hot-work
 * permit PTW-104's area and the safety screen lists "Entered hot-work area of permit PTW-104".
 */

const SCREENSHOTS = `${E2E_OUTPUT_DIR}/screenshots`;
const byTestId = (id: string) => `[data-testid="${id}"]`;

describe('work permits in Chromium', () => {
  const suite = browserSuite({ live: true });
  let page: Page;
  let floor: typeof floors.$inferSelect;
  let gateway: mqtt.MqttClient;

  const permitRow = (number: string) =>
    page.locator(`${byTestId('permit-row')}[data-permit-number="${number}"]`);

  beforeAll(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    const { db, siteId } = suite.server;
    const [row] = await db
      .select({ floor: floors })
      .from(floors)
      .innerJoin(buildings, eq(buildings.id, floors.buildingId))
      .where(
        and(eq(buildings.siteId, siteId), eq(buildings.name, 'North Block'), eq(floors.name, 'Ground Floor')),
      );
    floor = row.floor;
    gateway = await mqtt.connectAsync(suite.server.brokerUrl as string, await suite.server.deviceLogin());
    page = await suite.browser.newPage({ viewport: { width: 1600, height: 1100 } });
    await signIn(page, suite.server.baseUrl, 'site-admin@demo.sitewatch.dev');
  }, 240_000);
  afterAll(async () => {
    await gateway?.endAsync();
    await page?.close();
  });

  it('lists the demo permits, draws and issues a new one, closes it and deletes it', async () => {
    await page.goto(
      `${suite.server.baseUrl}/installation?buildingId=${floor.buildingId}&floorId=${floor.id}&tab=permits`,
    );
    await page.waitForSelector(byTestId('permits-table'), { timeout: 30_000 });
    await page.waitForSelector(`${byTestId('permits-canvas')} [data-renderer]`, { timeout: 30_000 });
    // The demo: PTW-104 active hot work in force around grid F-2, the expired and the draft ones not in force.
    await expect(permitRow('PTW-104').getAttribute('data-in-force')).resolves.toBe('true');
    await expect(permitRow('PTW-104').locator(byTestId('permit-grid')).innerText()).resolves.toBe('F-2');
    await expect(permitRow('PTW-101').getAttribute('data-in-force')).resolves.toBe('false');
    await expect(permitRow('PTW-105').getAttribute('data-status')).resolves.toBe('draft');
    await page.screenshot({ path: `${SCREENSHOTS}/work-permits-list.png` });

    // Draw a triangle low on the canvas (the ground floor's south-west, away from the demo areas).
    const box = await page
      .locator(`${byTestId('permits-canvas')} canvas`)
      .first()
      .boundingBox();
    if (!box) throw new Error('the permits canvas has no box');
    await page.click(byTestId('permit-draw'));
    await page.waitForSelector(byTestId('permit-draw-hint'));
    const at = (u: number, v: number) => page.mouse.click(box.x + box.width * u, box.y + box.height * v);
    await at(0.35, 0.55);
    await at(0.5, 0.55);
    await at(0.42, 0.7);
    await page.screenshot({ path: `${SCREENSHOTS}/work-permits-drawing.png` });
    await page.click(byTestId('permit-draw-finish'));
    await page.waitForSelector(byTestId('permit-dialog'));

    const [rebar] = await suite.server.db
      .select()
      .from(crews)
      .where(and(eq(crews.siteId, suite.server.siteId), eq(crews.name, 'Rebar')));
    await page.fill(byTestId('permit-number'), 'PTW-104');
    await page.selectOption(byTestId('permit-type'), 'excavation');
    await page.selectOption(byTestId('permit-holder'), `crew:${rebar.id}`);
    await page.selectOption(byTestId('permit-status'), 'active');
    await page.click(byTestId('permit-save'));
    // The site already has PTW-104: the server's words, and the dialog stays open.
    await page.getByText('Permit number already exists!').waitFor({ timeout: 10_000 });
    await page.fill(byTestId('permit-number'), 'PTW-200');
    await page.click(byTestId('permit-save'));
    await permitRow('PTW-200').waitFor({ timeout: 10_000 });
    await expect(permitRow('PTW-200').locator(byTestId('permit-type-cell')).innerText()).resolves.toBe(
      'Excavation',
    );
    await expect(permitRow('PTW-200').innerText()).resolves.toContain('Rebar');
    const [stored] = await suite.server.db
      .select()
      .from(workPermits)
      .where(eq(workPermits.number, 'PTW-200'));
    expect(stored).toMatchObject({
      type: 'excavation',
      status: 'active',
      holderCrewId: rebar.id,
      floorId: floor.id,
    });
    expect(stored.area).toHaveLength(3);
    await page.screenshot({ path: `${SCREENSHOTS}/work-permits-drawn.png` });

    await page.selectOption('[data-testid="language-switch"]', 'ar');
    await expect
      .poll(() => permitRow('PTW-200').locator(byTestId('permit-type-cell')).innerText())
      .toBe('حفر');
    await page.screenshot({ path: `${SCREENSHOTS}/work-permits-ar.png` });
    await page.selectOption('[data-testid="language-switch"]', 'en');

    // Close it (closed is final: no more status buttons), then delete it after the confirmation.
    await permitRow('PTW-200').locator(byTestId('permit-to-closed')).click();
    await expect.poll(() => permitRow('PTW-200').getAttribute('data-status')).toBe('closed');
    expect(await permitRow('PTW-200').locator('[data-testid^="permit-to-"]').count()).toBe(0);
    await permitRow('PTW-200').locator(byTestId('permit-delete')).click();
    await expect(page.locator(byTestId('permit-confirm-delete')).innerText()).resolves.toBe(
      "Are you sure to delete permit PTW-200 information, this action can't be undone?",
    );
    await page.locator('.sw-permit-confirm').getByRole('button', { name: 'Delete', exact: true }).click();
    await permitRow('PTW-200').waitFor({ state: 'detached', timeout: 10_000 });
    expect(await suite.server.db.select().from(workPermits).where(eq(workPermits.number, 'PTW-200'))).toEqual(
      [],
    );
  }, 180_000);

  it('a worker of another crew walking into the active hot-work area shows an incident naming the permit', async () => {
    const { db, siteId } = suite.server;
    const [rebar] = await db
      .select()
      .from(crews)
      .where(and(eq(crews.siteId, siteId), eq(crews.name, 'Rebar')));
    const [worker] = await db.insert(workers).values({ siteId, name: 'E2E Painter' }).returning();
    await db
      .insert(crewAssignments)
      .values({ crewId: rebar.id, workerId: worker.id, assignedAt: '2020-01-01' });
    const [helmet] = await db
      .insert(inventoryItems)
      .values({
        siteId,
        wntInventoryId: 'E2E-PTW-1',
        type: 'helmet',
        workerId: worker.id,
        assignedAt: new Date(),
      })
      .returning();
    const pointAt = (u: number, v: number) => ({
      long: floor.aLong + u * (floor.bLong - floor.aLong),
      lat: floor.aLat + v * (floor.dLat - floor.aLat),
    });
    const position = (u: number, v: number, secondsAgo: number) => ({
      tag: helmet.wntInventoryId,
      ts: new Date(Date.now() - secondsAgo * 1000).toISOString(),
      ...pointAt(u, v),
      floorId: floor.id,
      online: true,
      active: true,
    });
    await page.goto(`${suite.server.baseUrl}/safety`);
    await page.waitForSelector('[data-testid="incidents-empty"], [data-testid="incidents-table"]');
    // Outside PTW-104's area (0.56–0.76 × 0.1–0.4 of the floor), then inside it.
    await gateway.publishAsync(
      topicFor(siteId, 'positions', suite.server.topicRoot),
      JSON.stringify([position(0.5, 0.6, 20), position(0.66, 0.25, 10)]),
      { qos: 1 },
    );
    const row = page.locator('[data-testid="incident-row"]', { hasText: 'E2E Painter' });
    await row.waitFor({ timeout: 20_000 });
    await expect(row.locator('[data-testid="incident-permit"]').innerText()).resolves.toBe(
      'Entered hot-work area of permit PTW-104',
    );
    await expect(row.innerText()).resolves.toContain('Permit area entered');
    await page.screenshot({ path: `${SCREENSHOTS}/work-permits-incident.png` });
    const stored = await db
      .select()
      .from(incidents)
      .where(and(eq(incidents.inventoryItemId, helmet.id), eq(incidents.type, 'permitAreaEntry')));
    expect(stored).toHaveLength(1);
  });
});
