import { mkdirSync } from 'node:fs';
import type mqtt from 'mqtt';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserSuite } from './helpers/browserSuite';
import { openLivePage } from './helpers/liveFloor';
import { type SeededNodes, seedNodeDiagnostics } from './helpers/nodeDiagnostics';
import { E2E_OUTPUT_DIR } from './helpers/outputDir';

const byTestId = (id: string) => `[data-testid="${id}"]`;
/** The node id button of the table's row `row` (Blueprint marks each cell with its row). */
/** A sortable header (Blueprint draws the headers twice: the top quadrant's copy is the one on top). */
const header = (key: string) =>
  `${byTestId('nodes-table')} .bp6-table-quadrant-top ${byTestId(`nodes-sort-${key}`)}`;
const nodeIdAt = (row: number) =>
  `${byTestId('nodes-table')} .bp6-table-cell-row-${row} ${byTestId('nodes-open')}`;

describe('Nodes Management: the site’s anchors and sinks', () => {
  const suite = browserSuite({ live: true });
  let page: Page;
  let publisher: mqtt.MqttClient;
  let seeded: SeededNodes;

  beforeAll(async () => {
    mkdirSync(E2E_OUTPUT_DIR, { recursive: true });
    ({ page, publisher } = await openLivePage(suite, { width: 1500, height: 1000 }));
    seeded = await seedNodeDiagnostics(suite.server, publisher);
    await page.goto(`${suite.server.baseUrl}/nodes`);
  }, 120_000);

  afterAll(async () => {
    seeded?.stop();
    await publisher?.endAsync();
  });

  const shown = () => page.locator(byTestId('nodes-shown')).innerText();
  const visibleIds = () =>
    page.locator(`${byTestId('nodes-table')} ${byTestId('nodes-open')}`).allInnerTexts();

  it('lists every anchor and sink of the demo site with its health', async () => {
    const total = seeded.all.length;
    await expect.poll(shown, { timeout: 20_000 }).toBe(`${total} of ${total} nodes`);
    expect(total).toBeGreaterThan(10);
    // Grouped by network, the first node of the first network first.
    expect(await page.locator(nodeIdAt(0)).innerText()).toMatch(/^(ANC|SNK)-\d{4}$/);
    // Read together: the table refreshes while the seeded reports are still being stored.
    const counts = () =>
      Promise.all(
        ['bad', 'warning', 'ok'].map((health) => page.locator(byTestId(`nodes-count-${health}`)).innerText()),
      );
    await expect.poll(counts, { timeout: 20_000 }).toEqual(['Bad: 4', 'Warning: 1', `OK: ${total - 5}`]);
    // The device tokens panel is still on the screen, below the nodes.
    await page.waitForSelector(byTestId('device-tokens'));
  });

  it('sorts by a column both ways from its header, by keyboard too', async () => {
    await page.click(header('batteryVoltage'));
    await expect.poll(() => page.locator(nodeIdAt(0)).innerText()).toBe(seeded.lowBattery.nodeId);
    expect(await page.locator(header('batteryVoltage')).getAttribute('data-sort')).toBe('asc');
    // Enter on the focused header flips it: the sinks' 5 V come first.
    await page.focus(header('batteryVoltage'));
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator(nodeIdAt(0)).innerText()).toMatch(/^SNK-/);
    expect(await page.locator(header('batteryVoltage')).getAttribute('data-sort')).toBe('desc');

    await page.click(header('health'));
    await page.click(header('health'));
    // Worst first: the moved anchor has two problems, the others one.
    await expect.poll(() => page.locator(nodeIdAt(0)).innerText()).toBe(seeded.moved.nodeId);
    await page.screenshot({ path: `${E2E_OUTPUT_DIR}/nodes.png` });
  });

  it('filters by type, health state and node id', async () => {
    const total = seeded.all.length;
    const sinks = seeded.all.filter((node) => node.type === 'sink').length;
    await page.selectOption(byTestId('nodes-filter-type'), 'sink');
    await expect.poll(shown).toBe(`${sinks} of ${total} nodes`);
    expect((await visibleIds()).every((id) => id.startsWith('SNK-'))).toBe(true);
    await page.selectOption(byTestId('nodes-filter-type'), '');

    await page.selectOption(byTestId('nodes-filter-health'), 'bad');
    await expect.poll(shown).toBe(`4 of ${total} nodes`);
    expect((await visibleIds()).sort()).toEqual(
      [seeded.moved, seeded.weakLink, seeded.silent, seeded.bufferFilling].map((node) => node.nodeId).sort(),
    );
    await page.selectOption(byTestId('nodes-filter-health'), '');

    await page.fill(byTestId('nodes-search'), seeded.weakLink.nodeId.toLowerCase());
    await expect.poll(visibleIds).toEqual([seeded.weakLink.nodeId]);
  });

  it('highlights the cell whose threshold is crossed, and says when a node last reported', async () => {
    // The weak link's quality cell is red; its battery cell beside it is not.
    const row = `${byTestId('nodes-table')} .bp6-table-cell-row-0`;
    const linkCell = page.locator(`${row}.sw-node-cell--bad`);
    await expect.poll(() => linkCell.count()).toBe(1);
    expect(await linkCell.innerText()).toBe('25');
    const background = (selector: string) =>
      page.locator(selector).evaluate((cell) => getComputedStyle(cell).backgroundColor);
    const plain = await background(`${row}.sw-node-cell--figure:not(.sw-node-cell--bad) >> nth=0`);
    expect(await background(`${row}.sw-node-cell--bad`)).not.toBe(plain);

    await page.fill(byTestId('nodes-search'), seeded.silent.nodeId);
    await expect.poll(visibleIds).toEqual([seeded.silent.nodeId]);
    const updated = page.locator(`${row}.sw-node-cell--bad span[title]`);
    expect(await updated.innerText()).toMatch(/^2\d minutes ago$/);
    // The full date in the tooltip.
    expect(await updated.getAttribute('title')).toMatch(/\d{4}, \d{2}:\d{2}:\d{2}$/);
    // The healthy nodes' reports are seconds old (spec §9: no "a few seconds ago").
    await page.fill(byTestId('nodes-search'), '');
    await page.selectOption(byTestId('nodes-filter-health'), 'ok');
    await expect
      .poll(() => page.locator(`${row} span[title]`).innerText(), { timeout: 20_000 })
      .toMatch(/^(\d+ seconds? ago|now|\d+ minutes? ago)$/);
    await page.selectOption(byTestId('nodes-filter-health'), '');
  });

  it('opens a node’s history chart with its battery forecast, by click or Enter, over a chosen range', async () => {
    await page.fill(byTestId('nodes-search'), seeded.lowBattery.nodeId);
    await expect.poll(visibleIds).toEqual([seeded.lowBattery.nodeId]);
    await page.click(nodeIdAt(0));
    const panel = page.locator(byTestId('node-history'));
    await expect.poll(() => panel.getAttribute('data-node-id')).toBe(seeded.lowBattery.nodeId);
    const canvas = page.locator(byTestId('node-history-canvas'));
    const pointsOf = async () =>
      Number((await canvas.getAttribute('aria-label'))?.match(/: ([\d,]+) points/)?.[1]);
    await expect.poll(pointsOf, { timeout: 20_000 }).toBeGreaterThan(10);
    const day = await pointsOf();
    expect(await canvas.getAttribute('aria-label')).toContain('battery now 3.40 V');
    expect(await page.locator(byTestId('node-history-forecast')).innerText()).toMatch(
      /reaches 3\.20 V about \d{1,2} [A-Z][a-z]+ \(-0\.0\d V a day\)/,
    );
    // The band: under the 3.45 V warning line for the last 20 hours, OK before.
    expect(await page.locator(byTestId('node-history-time-warning')).innerText()).toMatch(
      /^Warning: (19|20)h/,
    );
    expect(await page.locator(byTestId('node-history-time-ok')).innerText()).toMatch(/^OK: [34]h/);

    await page.click(byTestId('node-history-range-72'));
    await expect.poll(pointsOf, { timeout: 20_000 }).toBeGreaterThan(day);
    await page.locator(byTestId('node-history-chart')).scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${E2E_OUTPUT_DIR}/nodes-history.png`, fullPage: true });

    // Enter on another node's id opens that node's history instead.
    await page.fill(byTestId('nodes-search'), seeded.weakLink.nodeId);
    await expect.poll(visibleIds).toEqual([seeded.weakLink.nodeId]);
    await page.focus(nodeIdAt(0));
    await page.keyboard.press('Enter');
    await expect.poll(() => panel.getAttribute('data-node-id')).toBe(seeded.weakLink.nodeId);
    await page.click(byTestId('node-history-close'));
    await page.waitForSelector(byTestId('node-history'), { state: 'detached' });
    await page.fill(byTestId('nodes-search'), '');
  });

  it('reads right to left in Arabic', async () => {
    await page.selectOption(byTestId('language-switch'), 'ar');
    await page.waitForFunction(() => document.documentElement.dir === 'rtl');
    await expect.poll(() => page.locator(header('nodeId')).innerText()).toBe('معرّف العقدة');
    // The network column stands right of the node id column, as Arabic reads.
    const network = (await page.locator(header('networkId')).boundingBox())!;
    const nodeId = (await page.locator(header('nodeId')).boundingBox())!;
    expect(network.x).toBeGreaterThan(nodeId.x);
    expect(await page.locator(byTestId('nodes-count-bad')).innerText()).toBe('سيئة: 4');
    await page.screenshot({ path: `${E2E_OUTPUT_DIR}/nodes-ar.png` });
    await page.selectOption(byTestId('language-switch'), 'en');
    await page.waitForFunction(() => document.documentElement.dir === 'ltr');
  });
});
