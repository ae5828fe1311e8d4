import { mkdirSync } from 'node:fs';
import { and, eq } from 'drizzle-orm';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensurePositionPartitions } from '../../server/analytics/positionPartitions';
import { demoEmail } from '../../server/db/demoSeed';
import { inventoryItems, nodeDiagnostics } from '../../server/db/schema';
import { wallTime } from '../../src/domain/siteClock';
import { browserSuite } from './helpers/browserSuite';
import { E2E_OUTPUT_DIR } from './helpers/outputDir';
import { signIn } from './helpers/pages';
import { recordToasts, toastsSeen } from './helpers/toasts';

const byTestId = (id: string) => `[data-testid="${id}"]`;
const building = (name: string) => `${byTestId('erm-building')}[data-building-name="${name}"]`;
const room = (name: string) => `${byTestId('erm-room')}[data-room-name="${name}"]`;
const device = (roomName: string, name: string) =>
  `${room(roomName)} ${byTestId('erm-device')}[data-device-name="${name}"]`;
const step = (roomName: string, key: string) =>
  `${room(roomName)} ${byTestId('erm-step')}[data-step="${key}"]`;
const NORTH_ROOM = 'North Block electrical room';

/**
 * Electrical RM Installation in Chromium: a site admin assigns the spare network to the demo site,
 * adds a room, puts the network in it, ticks a checklist step by keyboard and sees who and when, reads
 * the demo sinks' power and connection from their reports, deletes the room after confirming, and
 * reads the screen in Arabic; a site engineer sees who did the seeded steps and cannot assign networks.
 */
describe('Electrical RM Installation', () => {
  const suite = browserSuite();
  let context: BrowserContext;
  let page: Page;

  /** A report of a demo sink `ageMs` ago with its supply voltage, written as the node ingest would store it. */
  async function writeSinkReport(tag: string, ageMs: number, volts: number) {
    const { db, siteId } = suite.server;
    const ts = Date.now() - ageMs;
    await ensurePositionPartitions(db, [ts], 'node_diagnostics');
    const [sink] = await db
      .select({ id: inventoryItems.id })
      .from(inventoryItems)
      .where(and(eq(inventoryItems.siteId, siteId), eq(inventoryItems.wntInventoryId, tag)));
    await db.insert(nodeDiagnostics).values({
      siteId,
      inventoryItemId: sink.id,
      nodeId: tag,
      type: 'sink',
      batteryVoltage: volts,
      bufferUsage: 12,
      linkQuality: 80,
      ts: new Date(ts),
    });
  }

  beforeAll(async () => {
    mkdirSync(E2E_OUTPUT_DIR, { recursive: true });
    // SNK-0002 on its backup and late (4 minutes); SNK-0001's report comes with the first test.
    await writeSinkReport('SNK-0002', 4 * 60_000, 4.32);
    context = await suite.browser.newContext({ viewport: { width: 1400, height: 1000 } });
    page = await context.newPage();
    await recordToasts(page);
    await signIn(page, suite.server.baseUrl, demoEmail('group-of-sites-admin'));
    await page.goto(`${suite.server.baseUrl}/electricalRmInstallation`);
    await page.waitForSelector(byTestId('erm-networks'));
  }, 120_000);

  afterAll(async () => {
    await context?.close();
  });

  it("shows each building's room with its sinks' power and connection from their reports", async () => {
    // SNK-0001 on the mains, heard just now: its network is heard within NETWORK_SILENCE (30 s).
    await writeSinkReport('SNK-0001', 1_000, 5.01);
    await page.reload();
    await page.waitForSelector(byTestId('erm-networks'));
    expect(await page.locator(byTestId('screen-title')).innerText()).toBe('Electrical RM Installation');
    expect(await page.locator(`${byTestId('erm-building')} h3`).allInnerTexts()).toEqual([
      'North Block',
      'South Block',
    ]);
    const cell = (name: string, what: string) =>
      page.locator(`${device(NORTH_ROOM, name)} ${byTestId(what)}`);
    await expect.poll(() => cell('SNK-0001', 'erm-device-power').innerText()).toBe('On mains · 5.01 V');
    expect(await cell('SNK-0001', 'erm-device-connection').innerText()).toBe('Connected');
    expect(await cell('SNK-0002', 'erm-device-power').innerText()).toBe('Low supply · 4.32 V');
    expect(await cell('SNK-0002', 'erm-device-connection').innerText()).toBe('Late');
    expect(await cell('SNK-0003', 'erm-device-power').innerText()).toBe('Unknown');
    expect(await cell('SNK-0003', 'erm-device-connection').innerText()).toBe('Silent');
    // The room's network was heard through SNK-0001.
    expect(await cell('Tower A mesh', 'erm-device-connection').innerText()).toBe('Connected');
    // The seeded checklist: five of eight steps done.
    expect(await page.locator(`${room(NORTH_ROOM)} ${byTestId('erm-room-progress')}`).innerText()).toContain(
      '5 of 8 steps done',
    );
    await page.screenshot({ path: `${E2E_OUTPUT_DIR}/electrical-rm.png`, fullPage: true });
  });

  it('assigns the unassigned network to the site after a confirmation', async () => {
    await page.selectOption(byTestId('erm-unassigned-select'), { label: 'Spare gateway kit' });
    await page.click(byTestId('erm-assign'));
    expect(await page.locator(byTestId('erm-assign-confirm')).innerText()).toBe(
      'Assign the network Spare gateway kit to the site Tower A?',
    );
    await page.click('.bp6-alert-footer .bp6-intent-primary');
    await page.waitForSelector(byTestId('erm-no-unassigned'));
    expect(await page.locator(byTestId('erm-site-networks')).innerText()).toContain('Spare gateway kit');
    expect(await toastsSeen(page)).toContain('Spare gateway kit is assigned to Tower A');
  });

  it('adds a room on a floor and installs the new gateway in it', async () => {
    const form = `${building('North Block')} ${byTestId('erm-add-room')}`;
    await page.fill(`${form} ${byTestId('erm-room-name-input')}`, 'LV room 2');
    await page.selectOption(`${form} select`, { label: 'Level 1' });
    await page.click(`${form} ${byTestId('erm-room-add')}`);
    await page.waitForSelector(room('LV room 2'));
    expect(await page.locator(`${room('LV room 2')} ${byTestId('erm-room-floor')}`).innerText()).toBe(
      'Level 1',
    );
    expect(await page.locator(`${room('LV room 2')} ${byTestId('erm-room-progress')}`).innerText()).toContain(
      '0 of 8 steps done',
    );
    await page.selectOption(`${room('LV room 2')} ${byTestId('erm-device-select')}`, {
      label: 'Spare gateway kit',
    });
    await page.click(`${room('LV room 2')} ${byTestId('erm-device-add')}`);
    await page.waitForSelector(device('LV room 2', 'Spare gateway kit'));
    // None of its nodes ever reported.
    expect(
      await page
        .locator(`${device('LV room 2', 'Spare gateway kit')} ${byTestId('erm-device-connection')}`)
        .innerText(),
    ).toBe('Disconnected');
    expect(await page.locator(byTestId('erm-site-networks')).innerText()).toContain('in LV room 2');
  });

  it('ticks a step with the keyboard and shows who completed it and when, on the site clock', async () => {
    const checkbox = page.locator(`${step('LV room 2', 'ups')} input[type="checkbox"]`);
    await checkbox.focus();
    const before = Date.now();
    await page.keyboard.press('Space');
    const done = page.locator(`${step('LV room 2', 'ups')} ${byTestId('erm-step-done')}`);
    await done.waitFor();
    const text = await done.innerText();
    // The minute it was ticked, in Dubai time (the demo site's clock), give or take a minute's turn.
    const minutes = [before, Date.now()].map((ms) => wallTime(ms, 'Asia/Dubai').time.slice(0, 5));
    expect(text).toMatch(/^Done by Demo Site Admin on \d{1,2} [A-Z][a-z]{2} \d{4}, \d{2}:\d{2}$/);
    expect(
      minutes.some((minute) => text.endsWith(minute)),
      `${text} vs ${minutes}`,
    ).toBe(true);
    expect(await checkbox.isChecked()).toBe(true);
    await expect
      .poll(() => page.locator(`${room('LV room 2')} ${byTestId('erm-room-progress')}`).innerText())
      .toContain('1 of 8 steps done');
    await page.screenshot({ path: `${E2E_OUTPUT_DIR}/electrical-rm-room.png`, fullPage: true });
    // Space again takes it back: who and when go.
    await page.keyboard.press('Space');
    await expect.poll(() => done.count()).toBe(0);
  });

  it('deletes a room after the confirmation, which frees its gateway', async () => {
    await page.click(`${room('LV room 2')} ${byTestId('erm-room-delete')}`);
    expect(await page.locator(byTestId('confirm-delete-text')).innerText()).toBe(
      "Are you sure to delete the electrical room LV room 2 information, this action can't be undone?",
    );
    await page.click('.bp6-alert-footer .bp6-intent-danger');
    await expect.poll(() => page.locator(room('LV room 2')).count()).toBe(0);
    expect(await page.locator(byTestId('erm-site-networks')).innerText()).toContain('not in a room');
    expect(await toastsSeen(page)).toContain('Electrical room is deleted successfully');
  });

  it('reads right to left in Arabic', async () => {
    await page.selectOption(byTestId('language-switch'), 'ar');
    await page.waitForFunction(() => document.documentElement.dir === 'rtl');
    await expect
      .poll(() => page.locator(`${step(NORTH_ROOM, 'ups')} label`).innerText())
      .toBe('مزود الطاقة غير المنقطعة (UPS)');
    expect(
      await page
        .locator(`${device(NORTH_ROOM, 'SNK-0001')} ${byTestId('erm-device-connection')}`)
        .innerText(),
    ).toBe('متصل');
    expect(await page.locator(`${step(NORTH_ROOM, 'ups')} ${byTestId('erm-step-done')}`).innerText()).toMatch(
      /^أنجزها Demo Site Engineer في /,
    );
    // The table's first column (the device) stands at the right.
    const name = (await page
      .locator(`${device(NORTH_ROOM, 'SNK-0001')} td`)
      .first()
      .boundingBox())!;
    const power = (await page
      .locator(`${device(NORTH_ROOM, 'SNK-0001')} ${byTestId('erm-device-power')}`)
      .boundingBox())!;
    expect(name.x).toBeGreaterThan(power.x);
    await page.screenshot({ path: `${E2E_OUTPUT_DIR}/electrical-rm-ar.png`, fullPage: true });
    await page.selectOption(byTestId('language-switch'), 'en');
    await page.waitForFunction(() => document.documentElement.dir === 'ltr');
  });

  it('shows a site engineer who did the seeded steps, and leaves assigning networks to site admins', async () => {
    const engineer = await suite.browser.newContext({ viewport: { width: 1400, height: 1000 } });
    const engineerPage = await engineer.newPage();
    try {
      await signIn(engineerPage, suite.server.baseUrl, demoEmail('site-engineer'));
      await engineerPage.goto(`${suite.server.baseUrl}/electricalRmInstallation`);
      await engineerPage.waitForSelector(byTestId('erm-assign-read-only'));
      expect(await engineerPage.locator(byTestId('erm-assign')).count()).toBe(0);
      const seeded = engineerPage.locator(`${step(NORTH_ROOM, 'powerSupply')} ${byTestId('erm-step-done')}`);
      expect(await seeded.innerText()).toMatch(/^Done by Demo Site Engineer on /);
      expect(
        await engineerPage
          .locator(`${step(NORTH_ROOM, 'sinksMounted')} ${byTestId('erm-step-done')}`)
          .count(),
      ).toBe(0);
    } finally {
      await engineer.close();
    }
  });
});
