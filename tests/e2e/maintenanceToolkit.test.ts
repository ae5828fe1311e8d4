import { mkdirSync } from 'node:fs';
import { and, eq, inArray } from 'drizzle-orm';
import mqtt from 'mqtt';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inventoryItems } from '../../server/db/schema';
import { topicFor } from '../../src/domain/live';
import { browserSuite } from './helpers/browserSuite';
import { openLivePage } from './helpers/liveFloor';
import { type SeededNodes, seedNodeDiagnostics } from './helpers/nodeDiagnostics';
import { E2E_OUTPUT_DIR } from './helpers/outputDir';

const byTestId = (id: string) => `[data-testid="${id}"]`;
const row = (nodeId: string) => `${byTestId('maintenance-row')}[data-node-id="${nodeId}"]`;

describe('Maintenance Toolkit: the nodes that need attention', () => {
  const suite = browserSuite({ live: true });
  let page: Page;
  let publisher: mqtt.MqttClient;
  let seeded: SeededNodes;

  beforeAll(async () => {
    mkdirSync(E2E_OUTPUT_DIR, { recursive: true });
    ({ page, publisher } = await openLivePage(suite, { width: 1400, height: 1000 }));
    seeded = await seedNodeDiagnostics(suite.server, publisher);
    await page.goto(`${suite.server.baseUrl}/maintenance`);
  }, 120_000);

  afterAll(async () => {
    seeded?.stop();
    await publisher?.endAsync();
  });

  const rowIds = () =>
    page
      .locator(byTestId('maintenance-row'))
      .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-node-id')));
  const count = (kind: string) =>
    page.locator(`${byTestId(`maintenance-count-${kind}`)} .sw-maintenance-count-figure`).innerText();

  it('lists the failing nodes worst first, each problem in words, with counts per kind', async () => {
    // The moved anchor is bad twice over (moved, and a weak link); the three bad by one problem
    // follow in node id order; the battery's warning comes last.
    const badOnce = [seeded.silent, seeded.weakLink, seeded.bufferFilling]
      .map((node) => node.nodeId)
      .sort((a, b) => a.localeCompare(b));
    await expect
      .poll(rowIds, { timeout: 20_000 })
      .toEqual([seeded.moved.nodeId, ...badOnce, seeded.lowBattery.nodeId]);
    expect(await count('total')).toBe('5');
    for (const kind of ['silent', 'lowBattery', 'bufferFilling', 'moved'])
      expect(await count(kind), kind).toBe('1');
    // The moved anchor's 45 is a weak link too.
    expect(await count('weakLink')).toBe('2');

    const words = (nodeId: string) =>
      page.locator(`${row(nodeId)} ${byTestId('maintenance-problem')}`).allInnerTexts();
    expect(await words(seeded.moved.nodeId)).toEqual([
      `Anchor moved by ${seeded.movedMetres.toFixed(2)} m`,
      'Weak link: quality 45 of 100',
    ]);
    expect(await words(seeded.weakLink.nodeId)).toEqual(['Weak link: quality 25 of 100']);
    expect(await words(seeded.bufferFilling.nodeId)).toEqual(['Buffer filling: 90% used']);
    expect((await words(seeded.silent.nodeId))[0]).toMatch(/^Silent for 2\dm \d{2}s$/);
    // 0.06 V a day from 3.40 V reaches the 3.20 V cut-off in about three days and eight hours.
    const due = new Date(Date.now() + (0.2 / 0.06) * 86_400_000);
    const dueText = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', timeZone: 'UTC' });
    const around = [-1, 0, 1].map((d) => dueText.format(due.getTime() + d * 86_400_000));
    const battery = (await words(seeded.lowBattery.nodeId))[0];
    expect(battery).toMatch(/^Low battery: 3\.40 V, reaches 3\.20 V about \d{1,2} [A-Z][a-z]+$/);
    expect(
      around.some((date) => battery.endsWith(date)),
      `${battery} vs ${around}`,
    ).toBe(true);
    await page.screenshot({ path: `${E2E_OUTPUT_DIR}/maintenance.png`, fullPage: true });
  });

  it('links each node to the Map View at its floor', async () => {
    const link = page.locator(`${row(seeded.moved.nodeId)} ${byTestId('maintenance-map-link')}`);
    expect(await link.getAttribute('href')).toBe(
      `/maintenance/map?floorId=${seeded.moved.floorId}&nodeId=${seeded.moved.nodeId}`,
    );
    await link.click();
    await page.waitForURL((url) => url.pathname === '/maintenance/map');
    const url = new URL(page.url());
    expect(url.searchParams.get('floorId')).toBe(String(seeded.moved.floorId));
    expect(url.searchParams.get('nodeId')).toBe(seeded.moved.nodeId);
    await page.goBack();
    await page.waitForSelector(byTestId('maintenance-list'));
  });

  it('reads right to left in Arabic', async () => {
    await page.selectOption(byTestId('language-switch'), 'ar');
    await page.waitForFunction(() => document.documentElement.dir === 'rtl');
    const first = page.locator(`${row(seeded.moved.nodeId)} ${byTestId('maintenance-problem')}`).first();
    await expect
      .poll(() => first.innerText())
      .toBe(`أُزيحت المرساة بمقدار ${seeded.movedMetres.toFixed(2)} م`);
    // The first column (health) stands at the right.
    const health = (await page
      .locator(`${row(seeded.moved.nodeId)} ${byTestId('maintenance-health')}`)
      .boundingBox())!;
    const problems = (await first.boundingBox())!;
    expect(health.x).toBeGreaterThan(problems.x);
    await page.screenshot({ path: `${E2E_OUTPUT_DIR}/maintenance-ar.png`, fullPage: true });
    await page.selectOption(byTestId('language-switch'), 'en');
    await page.waitForFunction(() => document.documentElement.dir === 'ltr');
  });

  it('saves the anchor-moved threshold after checking it, and judges the anchors by it', async () => {
    const input = page.locator(byTestId('maintenance-threshold'));
    const help = page.locator(byTestId('maintenance-threshold-help'));
    await expect.poll(() => input.inputValue()).toBe('0.3');
    await input.fill('abc');
    await page.click(byTestId('maintenance-threshold-save'));
    await expect.poll(() => help.innerText()).toBe('Enter a number of metres, such as 0.3.');
    await input.fill('20');
    await page.click(byTestId('maintenance-threshold-save'));
    await expect.poll(() => help.innerText()).toBe('Enter a distance from 0.05 to 10.00 metres.');

    await input.fill('2');
    await page.click(byTestId('maintenance-threshold-save'));
    await expect
      .poll(() => page.locator(byTestId('maintenance-threshold-saved')).innerText())
      .toBe('Saved: anchors further than 2.00 m from their place are now reported as moved.');
    // 1.2 m is within 2 m: the anchor is no longer moved, only its weak link is left.
    await expect
      .poll(() =>
        page.locator(`${row(seeded.moved.nodeId)} ${byTestId('maintenance-problem')}`).allInnerTexts(),
      )
      .toEqual(['Weak link: quality 45 of 100']);
    expect(await count('moved')).toBe('0');
    // Stored: a reload shows it.
    await page.reload();
    await expect.poll(() => input.inputValue(), { timeout: 15_000 }).toBe('2');
  });

  it('says every node is healthy once they all are, without a reload', async () => {
    seeded.stop();
    const items = await suite.server.db
      .select()
      .from(inventoryItems)
      .where(
        and(eq(inventoryItems.siteId, suite.server.siteId), inArray(inventoryItems.type, ['anchor', 'sink'])),
      );
    const ts = new Date().toISOString();
    const healthy = items.map((item) => ({
      networkId: item.networkId ?? 1,
      nodeId: item.wntInventoryId,
      type: item.type,
      bufferUsage: 10,
      linkQuality: 90,
      batteryVoltage: item.type === 'sink' ? 5 : 3.9,
      displacementError: 0,
      ts,
      lat: item.lat ?? 0,
      long: item.long ?? 0,
    }));
    const gateway = await mqtt.connectAsync(suite.server.brokerUrl!, await suite.server.deviceLogin());
    await gateway.publishAsync(
      topicFor(suite.server.siteId, 'nodes', suite.server.topicRoot),
      JSON.stringify(healthy),
      {
        qos: 1,
      },
    );
    await gateway.endAsync();
    await page.waitForSelector(byTestId('maintenance-all-healthy'), { timeout: 30_000 });
    expect(await page.locator(byTestId('maintenance-all-healthy')).innerText()).toContain(
      'Every node is healthy',
    );
    expect(await count('total')).toBe('0');
  });
});
