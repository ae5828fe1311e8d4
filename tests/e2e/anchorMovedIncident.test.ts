import { and, eq } from 'drizzle-orm';
import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { incidents, inventoryItems } from '../../server/db/schema';
import { topicFor } from '../../src/domain/live';
import { browserSuite } from './helpers/browserSuite';
import { E2E_OUTPUT_DIR } from './helpers/outputDir';
import { signIn } from './helpers/pages';

/** Metres per degree of latitude on spec §9's earth. */
const METRES_PER_DEGREE = (6_371_000 * Math.PI) / 180;

describe('safety: an anchor moved out of place', () => {
  const suite = browserSuite({ live: true });
  let gateway: mqtt.MqttClient;

  beforeAll(async () => {
    gateway = await mqtt.connectAsync(suite.server.brokerUrl as string, await suite.server.deviceLogin());
  });
  afterAll(async () => {
    await gateway?.endAsync();
  });

  it('lists the incident with the anchor where a worker would be, live, and shows it closed when the anchor is back', async () => {
    const [anchor] = await suite.server.db
      .select()
      .from(inventoryItems)
      .where(
        and(eq(inventoryItems.siteId, suite.server.siteId), eq(inventoryItems.wntInventoryId, 'ANC-0001')),
      );
    const report = (secondsAgo: number, northMetres: number) => ({
      networkId: anchor.networkId ?? 1,
      nodeId: 'ANC-0001',
      type: 'anchor',
      bufferUsage: 4,
      linkQuality: 80,
      batteryVoltage: 3.7,
      displacementError: 0,
      ts: new Date(Date.now() - secondsAgo * 1000).toISOString(),
      lat: (anchor.lat as number) + northMetres / METRES_PER_DEGREE,
      long: anchor.long as number,
    });
    const publish = (payload: unknown) =>
      gateway.publishAsync(
        topicFor(suite.server.siteId, 'nodes', suite.server.topicRoot),
        JSON.stringify(payload),
        { qos: 1 },
      );

    const page = await suite.browser.newPage({ viewport: { width: 1500, height: 950 } });
    await signIn(page, suite.server.baseUrl, 'site-admin@demo.sitewatch.dev');
    await page.goto(`${suite.server.baseUrl}/safety`);
    await page.waitForSelector('[data-testid="incidents-empty"], [data-testid="incidents-table"]');

    // 0.8 m off its place for 70 s: over the 0.3 m threshold for more than a minute.
    await publish([report(90, 0.8), report(20, 0.8)]);
    const row = page.locator('[data-testid="incident-row"]', { hasText: 'ANC-0001' });
    await row.waitFor({ timeout: 15_000 });
    await expect(row.innerText()).resolves.toContain('Anchor moved');
    await expect(row.locator('[data-testid="incident-node"]').innerText()).resolves.toBe('Anchor ANC-0001');
    await expect(row.locator('[data-testid="incident-status"]').innerText()).resolves.toBe('Open');
    // Maintenance, not an emergency: no countdown to an automatic escalation.
    expect(await row.locator('[data-testid="incident-next-step"]').count()).toBe(0);
    await page.screenshot({ path: `${E2E_OUTPUT_DIR}/screenshots/safety-anchor-moved.png` });

    await page.selectOption('[data-testid="language-switch"]', 'ar');
    await expect
      .poll(() => row.locator('[data-testid="incident-node"]').innerText())
      .toBe('المرساة ANC-0001');
    await expect(row.innerText()).resolves.toContain('إزاحة مرساة');
    await page.screenshot({ path: `${E2E_OUTPUT_DIR}/screenshots/safety-anchor-moved-ar.png` });
    await page.selectOption('[data-testid="language-switch"]', 'en');

    // Back in place: closed by the report itself, without a reload.
    await publish(report(5, 0.02));
    await row
      .locator('[data-testid="incident-status"]', { hasText: 'Resolved' })
      .waitFor({ timeout: 15_000 });
    const rows = await suite.server.db
      .select()
      .from(incidents)
      .where(and(eq(incidents.inventoryItemId, anchor.id), eq(incidents.type, 'anchorMoved')));
    expect(rows.map((r) => [r.status, r.resolvedBy])).toEqual([['resolved', null]]);
    await page.close();
  });
});
