import { mkdirSync } from 'node:fs';
import { and, asc, desc, eq } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  anchorApprovals,
  buildings,
  floors,
  inventoryItems,
  planningAnchors,
  walls,
} from '../../server/db/schema';
import { writeNodeDiagnostics } from '../../server/ingest/nodeWriter';
import { greatCircleDistance } from '../../src/domain/distance';
import type { NodeMessage } from '../../src/domain/live';
import type { InstallationDebug } from '../../src/views/installation/InstallationFloor';
import { browserSuite } from './helpers/browserSuite';
import { E2E_OUTPUT_DIR } from './helpers/outputDir';
import { signIn } from './helpers/pages';
import { recordToasts, toastsSeen } from './helpers/toasts';

/**
 * Installation mode driven as the demo's site engineer plans and approves a floor (North Block ·
 * Level 1): pick the building and floor, draw a wall, place planning anchors with clicks, drag one
 * and undo it, delete one with the Delete key and undo that, simulate the coverage and see it
 * marked out of date when the plan changes, accept a suggested anchor, then approve two installed
 * anchors the network reports: one within tolerance of its planning anchor (taken from the plan),
 * one too far and on a weak link (dragged into place, approved with an override reason), each
 * leaving the unapproved list. What the server stored is read back from the database.
 */

const SCREENSHOTS = `${E2E_OUTPUT_DIR}/screenshots`;
const byTestId = (id: string) => `[data-testid="${id}"]`;
/** One metre of latitude, in degrees (Earth radius 6371 km, spec §9). */
const DEGREES_PER_METRE = 180 / (Math.PI * 6_371_000);
const NEAR = 'ANC-E2E-NEAR';
const FAR = 'ANC-E2E-FAR';

describe('installation mode in Chromium', () => {
  const suite = browserSuite();
  let page: Page;
  let floorId: number;
  let buildingId: number;
  let networkId: number;

  const debug = () =>
    page.evaluate(() => {
      const element = document.querySelector('[data-testid="installation-screen"]') as
        | (HTMLElement & { installationDebug?: () => InstallationDebug })
        | null;
      return element?.installationDebug?.() ?? null;
    });
  const planned = () =>
    suite.server.db
      .select()
      .from(planningAnchors)
      .where(eq(planningAnchors.floorId, floorId))
      .orderBy(asc(planningAnchors.anchorId));
  const canvasBox = async () => {
    const box = await page
      .locator(`${byTestId('installation-canvas')} canvas`)
      .first()
      .boundingBox();
    if (!box) throw new Error('the canvas has no box');
    return box;
  };
  const plannedOnScreen = async (name: string) => {
    const marker = (await debug())?.planned.find((m) => m.kind === 'planned' && m.label === name);
    if (!marker) throw new Error(`${name} is not drawn`);
    return { x: marker.screenX, y: marker.screenY };
  };
  /** Adds a planning anchor by a click at (u, v) of the canvas, keeping the proposed name; returns it. */
  const addAnchorAt = async (u: number, v: number) => {
    const box = await canvasBox();
    await page.click(byTestId('planning-add'));
    await page.mouse.click(box.x + box.width * u, box.y + box.height * v);
    await page.waitForSelector(byTestId('planning-new-name'));
    const name = await page.inputValue(byTestId('planning-new-name'));
    await page.click(byTestId('planning-new-save'));
    await page.locator(`${byTestId('planning-item')}[data-anchor-id="${name}"]`).waitFor();
    return name;
  };
  const unapprovedNames = () =>
    page
      .locator(byTestId('unapproved-item'))
      .evaluateAll((items) => items.map((item) => item.getAttribute('data-node-id')));
  /** The installed anchor reports, as a gateway would, `metres` north of `at` with `quality`. */
  const report = async (
    nodeId: string,
    at: { lat: number; long: number },
    metres: number,
    quality: number,
  ) => {
    const message: NodeMessage = {
      networkId,
      nodeId,
      type: 'anchor',
      bufferUsage: 5,
      linkQuality: quality,
      batteryVoltage: 3.55,
      displacementError: 0,
      ts: new Date(Date.now() - 1_000).toISOString(),
      lat: at.lat + metres * DEGREES_PER_METRE,
      long: at.long,
      neighbors: [],
    };
    const written = await writeNodeDiagnostics(suite.server.db, suite.server.siteId, [message]);
    expect(written.accepted).toBe(1);
  };

  beforeAll(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    const { db, siteId } = suite.server;
    const [floor] = await db
      .select({ id: floors.id, buildingId: floors.buildingId })
      .from(floors)
      .innerJoin(buildings, eq(buildings.id, floors.buildingId))
      .where(
        and(eq(buildings.siteId, siteId), eq(buildings.name, 'North Block'), eq(floors.name, 'Level 1')),
      );
    floorId = floor.id;
    buildingId = floor.buildingId;
    const [anchor] = await db
      .select({ networkId: inventoryItems.networkId })
      .from(inventoryItems)
      .where(and(eq(inventoryItems.siteId, siteId), eq(inventoryItems.type, 'anchor')))
      .limit(1);
    networkId = anchor.networkId!;
    // Two anchors the crew installed on the floor that nobody has approved yet.
    await db.insert(inventoryItems).values(
      [NEAR, FAR].map((wntInventoryId) => ({
        siteId,
        networkId,
        wntInventoryId,
        type: 'anchor',
        floorId,
        isApproved: false,
      })),
    );
    page = await suite.browser.newPage({ viewport: { width: 1500, height: 1000 } });
    await recordToasts(page);
    await signIn(page, suite.server.baseUrl, 'site-engineer@demo.sitewatch.dev');
  }, 240_000);

  it('picks the building and the floor, kept in the address', async () => {
    await page.goto(`${suite.server.baseUrl}/installation`);
    await page.waitForSelector(byTestId('installation-empty'));
    await page.selectOption(byTestId('installation-building'), String(buildingId));
    await page.selectOption(byTestId('installation-floor'), String(floorId));
    await page.waitForSelector(`${byTestId('installation-canvas')} [data-renderer]`, { timeout: 20_000 });
    const renderer = await page
      .locator(`${byTestId('installation-canvas')} [data-testid="floor-canvas"]`)
      .getAttribute('data-renderer');
    console.info(`installation canvas renderer: ${renderer}`);
    expect(page.url()).toContain(`buildingId=${buildingId}`);
    expect(page.url()).toContain(`floorId=${floorId}`);
    // A reload keeps the view.
    await page.reload();
    await page.waitForSelector(`${byTestId('installation-canvas')} [data-renderer]`, { timeout: 20_000 });
    expect(await page.inputValue(byTestId('installation-floor'))).toBe(String(floorId));
  });

  it('draws a wall', async () => {
    await page.waitForSelector(byTestId('walls-panel'));
    const box = await canvasBox();
    await page.selectOption(byTestId('wall-new-material'), 'concrete');
    await page.click(byTestId('wall-draw'));
    await page.waitForSelector(byTestId('wall-drawing'));
    await page.mouse.click(box.x + box.width * 0.5, box.y + box.height * 0.2);
    await page.mouse.click(box.x + box.width * 0.5, box.y + box.height * 0.5);
    await page.mouse.dblclick(box.x + box.width * 0.55, box.y + box.height * 0.55);
    await page.waitForSelector(byTestId('wall-naming'));
    await page.fill(byTestId('wall-name-input'), 'E2E core wall');
    await page.click(byTestId('wall-save'));
    await page.locator(byTestId('wall-item'), { hasText: 'E2E core wall' }).waitFor();
    const [stored] = await suite.server.db
      .select()
      .from(walls)
      .where(and(eq(walls.floorId, floorId), eq(walls.name, 'E2E core wall')));
    expect(stored.material).toBe('concrete');
    // Let the wall go, so the anchors' clicks are the plan's.
    await page.keyboard.press('Escape');
  });

  it('places planning anchors by clicking, drags one and undoes it, deletes one with the Delete key and undoes it', {
    timeout: 120_000,
  }, async () => {
    const before = (await planned()).length;
    const names: string[] = [];
    for (const [u, v] of [
      [0.25, 0.3],
      [0.75, 0.3],
      [0.25, 0.75],
      [0.75, 0.75],
    ] as const) {
      names.push(await addAnchorAt(u, v));
    }
    expect(new Set(names).size).toBe(4);
    for (const name of names) expect(name).toMatch(/^P-\d{2,}$/);
    await expect.poll(async () => (await planned()).length).toBe(before + 4);
    await expect
      .poll(async () => (await debug())?.planned.filter((m) => m.kind === 'planned').length)
      .toBe(before + 4);
    await page.screenshot({ path: `${SCREENSHOTS}/installation-anchors-placed.png` });

    // Drag the last one 60 px left: stored where it was dropped.
    const dragged = names[3];
    const original = (await planned()).find((a) => a.anchorId === dragged)!;
    const from = await plannedOnScreen(dragged);
    await page.mouse.move(from.x, from.y);
    await page.mouse.down();
    await page.mouse.move(from.x - 30, from.y, { steps: 4 });
    await page.mouse.move(from.x - 60, from.y, { steps: 4 });
    await page.mouse.up();
    await expect
      .poll(async () => (await planned()).find((a) => a.anchorId === dragged)!.long, { timeout: 10_000 })
      .toBeLessThan(original.long);
    await expect.poll(() => page.innerText(byTestId('planning-undo'))).toContain(`Undo move of ${dragged}`);
    // Undo puts it back.
    await page.click(byTestId('planning-undo'));
    await expect
      .poll(async () => (await planned()).find((a) => a.anchorId === dragged)!.long, { timeout: 10_000 })
      .toBeCloseTo(original.long, 9);

    // Delete: select it on the canvas, the Delete key asks, the confirmation deletes.
    const at = await plannedOnScreen(dragged);
    await page.mouse.click(at.x, at.y);
    await page.keyboard.press('Delete');
    await page.waitForSelector(byTestId('confirm-delete-text'), { timeout: 5_000 });
    expect(await page.innerText(byTestId('confirm-delete-text'))).toContain(dragged);
    await page.click('.bp6-alert-footer .bp6-intent-danger');
    await expect.poll(async () => (await planned()).some((a) => a.anchorId === dragged)).toBe(false);
    await page.waitForSelector('.bp6-dialog', { state: 'detached' });
    // Ctrl+Z brings it back where it was.
    await page
      .locator(`${byTestId('installation-canvas')} canvas`)
      .first()
      .focus();
    await page.keyboard.press('Control+z');
    await expect
      .poll(async () => (await planned()).find((a) => a.anchorId === dragged)?.long ?? null)
      .toBeCloseTo(original.long, 9);
  });

  it('simulates the coverage, marks it out of date when the plan changes, and accepts a suggested anchor', async () => {
    await page.selectOption(byTestId('coverage-cell-size'), '1');
    await page.click(byTestId('coverage-simulate'));
    await page.waitForSelector(byTestId('coverage-legend'), { timeout: 30_000 });
    const shown = await page.innerText(byTestId('coverage-percent'));
    expect(shown).toMatch(/^\d+(\.\d)? %$/);
    await expect.poll(async () => (await debug())?.coverage?.floorId).toBe(floorId);
    expect(await page.locator(byTestId('coverage-out-of-date')).count()).toBe(0);
    await page.waitForTimeout(300);
    await page.screenshot({ path: `${SCREENSHOTS}/installation-coverage.png` });

    // Suggest two: accept the first (a planning anchor is added), skip the second.
    const count = (await planned()).length;
    await page.fill(`${byTestId('suggest-count')}`, '2');
    await page.click(byTestId('suggest'));
    await page.waitForSelector(byTestId('suggestion-accept'), { timeout: 30_000 });
    await expect
      .poll(async () => (await debug())?.planned.filter((m) => m.kind === 'suggested').length)
      .toBeGreaterThan(0);
    await page.screenshot({ path: `${SCREENSHOTS}/installation-suggestion.png` });
    await page.click(byTestId('suggestion-accept'));
    await expect.poll(async () => (await planned()).length).toBe(count + 1);
    // The plan changed: the coverage shown is out of date until simulated again.
    await page.waitForSelector(byTestId('coverage-out-of-date'));
    if ((await page.locator(byTestId('suggestion-skip')).count()) > 0)
      await page.click(byTestId('suggestion-skip'));
    await page.click(byTestId('coverage-simulate'));
    await expect
      .poll(() => page.locator(byTestId('coverage-out-of-date')).count(), { timeout: 30_000 })
      .toBe(0);
    // The measured links table answers (the demo's nodes report their neighbours).
    await page.waitForSelector(
      `${byTestId('measured-links')} table, ${byTestId('measured-links')} .bp6-non-ideal-state`,
    );
  });

  it('approves an anchor within tolerance from its planning anchor, and it leaves the unapproved list', async () => {
    const plan = (await planned())[0];
    // Installed 0.2 m from the plan, on a good link.
    await report(NEAR, plan, 0.2, 85);
    await page.click(byTestId('installation-tab-approval'));
    await expect.poll(unapprovedNames, { timeout: 20_000 }).toContain(NEAR);
    await page.click(`${byTestId('unapproved-item')}[data-node-id="${NEAR}"] button`);
    await page.waitForSelector(byTestId('approval-selected'));
    expect(await page.isDisabled(byTestId('approval-confirm'))).toBe(true);
    expect(await page.innerText(byTestId('approval-use-plan'))).toContain(plan.anchorId);
    await page.click(byTestId('approval-use-plan'));
    await page.click(byTestId('approval-confirm'));
    await page.waitForSelector(byTestId('approval-dialog'));
    expect(await page.getAttribute(byTestId('evidence-position'), 'data-failed')).toBeNull();
    expect(await page.getAttribute(byTestId('evidence-quality'), 'data-failed')).toBeNull();
    expect(await page.locator(byTestId('approval-reason')).count()).toBe(0);
    await page.screenshot({ path: `${SCREENSHOTS}/installation-approval-confirm.png` });
    await page.click(byTestId('approval-submit'));
    await expect.poll(unapprovedNames, { timeout: 10_000 }).not.toContain(NEAR);
    await page.locator(`${byTestId('approved-item')}[data-node-id="${NEAR}"]`).waitFor({ timeout: 20_000 });
    const [item] = await suite.server.db
      .select()
      .from(inventoryItems)
      .where(eq(inventoryItems.wntInventoryId, NEAR));
    expect(item.isApproved).toBe(true);
    expect(greatCircleDistance({ lat: item.lat!, long: item.long! }, plan)).toBeLessThan(0.01);
    expect(await toastsSeen(page)).toContain(`Anchor ${NEAR} approved`);
  });

  it('asks for an override reason when the evidence fails, and records it', async () => {
    const plan = (await planned())[1];
    // 3 m from the plan on a weak link: both checks fail.
    await report(FAR, plan, 3, 20);
    await expect.poll(unapprovedNames, { timeout: 20_000 }).toContain(FAR);
    await page.click(`${byTestId('unapproved-item')}[data-node-id="${FAR}"] button`);
    await page.waitForSelector(byTestId('approval-selected'));
    // Drag its marker (drawn where it reported) 40 px right, into place.
    const marker = await expect
      .poll(async () => (await debug())?.planned.find((m) => m.kind === 'placement') ?? null)
      .not.toBeNull()
      .then(async () => (await debug())!.planned.find((m) => m.kind === 'placement')!);
    await page.mouse.move(marker.screenX, marker.screenY);
    await page.mouse.down();
    await page.mouse.move(marker.screenX + 20, marker.screenY, { steps: 3 });
    await page.mouse.move(marker.screenX + 40, marker.screenY, { steps: 3 });
    await page.mouse.up();
    await expect.poll(() => page.innerText(byTestId('approval-placement'))).toContain('Placed at');
    await page.click(byTestId('approval-confirm'));
    await page.waitForSelector(byTestId('approval-dialog'));
    expect(await page.getAttribute(byTestId('evidence-position'), 'data-failed')).toBe('true');
    expect(await page.getAttribute(byTestId('evidence-quality'), 'data-failed')).toBe('true');
    expect(await page.isDisabled(byTestId('approval-submit'))).toBe(true);
    await page.fill(
      byTestId('approval-reason'),
      'Surveyed by hand; the link is weak until the next anchor is in',
    );
    await expect.poll(() => page.isDisabled(byTestId('approval-submit'))).toBe(false);
    await page.screenshot({ path: `${SCREENSHOTS}/installation-approval-override.png` });
    await page.click(byTestId('approval-submit'));
    await expect.poll(unapprovedNames, { timeout: 10_000 }).not.toContain(FAR);
    const [item] = await suite.server.db
      .select()
      .from(inventoryItems)
      .where(eq(inventoryItems.wntInventoryId, FAR));
    expect(item.isApproved).toBe(true);
    const [approval] = await suite.server.db
      .select()
      .from(anchorApprovals)
      .where(eq(anchorApprovals.inventoryItemId, item.id))
      .orderBy(desc(anchorApprovals.id))
      .limit(1);
    expect(approval.overrideReason).toBe('Surveyed by hand; the link is weak until the next anchor is in');
    await page.screenshot({ path: `${SCREENSHOTS}/installation-approved.png` });
  });

  it('unapproves an anchor after a confirmation: it returns to the unapproved list', async () => {
    await page.click(`${byTestId('approved-item')}[data-node-id="${NEAR}"] button`);
    await page.waitForSelector(byTestId('unapprove-question'));
    await page.click('.bp6-alert-footer .bp6-intent-warning');
    await expect.poll(unapprovedNames, { timeout: 20_000 }).toContain(NEAR);
    const [item] = await suite.server.db
      .select()
      .from(inventoryItems)
      .where(eq(inventoryItems.wntInventoryId, NEAR));
    expect(item.isApproved).toBe(false);
    expect(item.lat).toBeNull();
  });

  it('reads in Arabic, right to left, the canvas not mirrored', async () => {
    await page.selectOption(byTestId('language-switch'), 'ar');
    await page.waitForFunction(() => document.documentElement.dir === 'rtl');
    await expect.poll(() => page.innerText(byTestId('installation-tab-approval'))).toBe('الاعتماد');
    const canvasLeft = (await canvasBox()).x;
    const sideLeft = (await page.locator('.sw-install-side').boundingBox())!.x;
    // The grid runs right to left: the canvas first (at the right), the panels at its left; the floor itself is drawn as in English.
    expect(sideLeft).toBeLessThan(canvasLeft);
    await page.click(byTestId('installation-tab-plan'));
    await page.waitForSelector(byTestId('planning-anchors'));
    await page.screenshot({ path: `${SCREENSHOTS}/installation-ar.png` });
    await page.selectOption(byTestId('language-switch'), 'en');
    await page.waitForFunction(() => document.documentElement.dir === 'ltr');
  });

  it('resets the view: building and floor cleared', async () => {
    await page.click(byTestId('installation-reset'));
    await page.waitForSelector(byTestId('installation-empty'));
    expect(await page.inputValue(byTestId('installation-building'))).toBe('');
    expect(await page.inputValue(byTestId('installation-floor'))).toBe('');
    expect(page.url()).not.toContain('floorId');
    expect(page.url()).not.toContain('buildingId');
  });
});
