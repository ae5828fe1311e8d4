import { and, desc, eq, isNotNull, sql } from 'drizzle-orm';
import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { incidents, inventoryItems, siteSafetySettings, workers } from '../../server/db/schema';
import { topicFor } from '../../src/domain/live';
import { browserSuite } from './helpers/browserSuite';
import { signIn } from './helpers/pages';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const secondsOf = (text: string) => {
  const match = /(\d+)m (\d+)s/.exec(text);
  return match ? Number(match[1]) * 60 + Number(match[2]) : Number.NaN;
};

describe('safety: staged escalation in the incident list', () => {
  const suite = browserSuite({ live: true });
  let publisher: mqtt.MqttClient;

  beforeAll(async () => {
    publisher = await mqtt.connectAsync(suite.server.brokerUrl as string, await suite.server.deviceLogin());
  });
  afterAll(async () => {
    await publisher?.endAsync();
  });

  it('counts down to the next level, shows the automatic step, and stops it with Acknowledge', async () => {
    const page = await suite.browser.newPage({ viewport: { width: 1600, height: 950 } });
    await signIn(page, suite.server.baseUrl, 'site-admin@demo.sitewatch.dev');
    await page.goto(`${suite.server.baseUrl}/safety`);
    await page.waitForSelector('[data-testid="incidents-empty"], [data-testid="incidents-table"]');

    const [{ helmet, worker }] = await suite.server.db
      .select({ helmet: inventoryItems, worker: workers })
      .from(inventoryItems)
      .innerJoin(workers, eq(workers.id, inventoryItems.workerId))
      .where(and(eq(inventoryItems.siteId, suite.server.siteId), isNotNull(inventoryItems.workerId)))
      .orderBy(inventoryItems.id)
      .limit(1);
    await publisher.publishAsync(
      topicFor(suite.server.siteId, 'events', suite.server.topicRoot),
      JSON.stringify({ tag: helmet.wntInventoryId, ts: new Date().toISOString(), type: 'fall' }),
      { qos: 1 },
    );

    const row = page.locator('[data-testid="incident-row"]', { hasText: worker.name });
    await row.waitFor({ timeout: 15_000 });
    await expect(row.locator('[data-testid="incident-status"]').innerText()).resolves.toBe('Open');
    // The demo site keeps the default levels: level 1 five minutes after the raise, counting down.
    const countdown = row.locator('[data-testid="incident-next-step"]');
    const first = await countdown.innerText();
    expect(first).toMatch(/^Level 1 in (5m 00s|4m \d\ds)$/);
    await sleep(2_100);
    expect(secondsOf(await countdown.innerText())).toBeLessThan(secondsOf(first));

    // Five minutes pass (the scheduler runs on the server's clock: the step is made due now).
    const [incident] = await suite.server.db
      .select()
      .from(incidents)
      .where(eq(incidents.inventoryItemId, helmet.id))
      .orderBy(desc(incidents.id))
      .limit(1);
    await suite.server.db
      .update(incidents)
      .set({ nextEscalationAt: sql`now()` })
      .where(eq(incidents.id, incident.id));
    // No reload: the escalation reaches the list over the socket.
    await row.locator('[data-testid="incident-status"]', { hasText: 'Escalated · level 1' }).waitFor({
      timeout: 15_000,
    });
    await expect(row.locator('[data-testid="incident-escalated-by"]').innerText()).resolves.toMatch(
      /^automatically, /,
    );
    await expect(countdown.innerText()).resolves.toMatch(/^Level 2 in (10m 0\ds|9m \d\ds)$/);
    await page.screenshot({ path: 'test-output/screenshots/incident-escalated.png' });

    await row.locator('[data-testid="acknowledge-incident"]').click();
    await row.locator('[data-testid="incident-status"]', { hasText: 'Acknowledged' }).waitFor();
    await expect(row.locator('[data-testid="incident-acknowledged-by"]').innerText()).resolves.toMatch(
      /^Acknowledged by Demo Site Admin, /,
    );
    await expect(row.locator('[data-testid="incident-level"]').innerText()).resolves.toBe('Reached level 1');
    expect(await countdown.count()).toBe(0);
    expect(await row.locator('[data-testid="escalate-incident"]').count()).toBe(0);
    const [stored] = await suite.server.db.select().from(incidents).where(eq(incidents.id, incident.id));
    expect(stored).toMatchObject({ status: 'acknowledged', level: 1, nextEscalationAt: null });

    // Resolving asks first.
    await row.locator('[data-testid="resolve-incident"]').click();
    await expect(page.locator('[data-testid="resolve-confirm-text"]').innerText()).resolves.toContain(
      worker.name,
    );
    await page.getByRole('button', { name: 'Resolve', exact: true }).last().click();
    await row.locator('[data-testid="incident-status"]', { hasText: 'Resolved' }).waitFor();
    await expect(row.locator('[data-testid="incident-resolved-by"]').innerText()).resolves.toMatch(
      /^Resolved by Demo Site Admin, /,
    );
    await page.screenshot({ path: 'test-output/screenshots/incident-resolved.png' });
    await page.close();
  });

  it("edits the site's levels in the safety settings, refusing a bad delay on the spot", async () => {
    const page = await suite.browser.newPage({ viewport: { width: 1500, height: 950 } });
    await signIn(page, suite.server.baseUrl, 'site-admin@demo.sitewatch.dev');
    await page.goto(`${suite.server.baseUrl}/safety`);
    await page.locator('[data-testid="safety-settings"]').click();
    const form = page.locator('[data-testid="safety-settings-form"]');
    await form.waitFor();
    expect(await form.locator('[data-testid="escalation-level"]').count()).toBe(2);

    await form.locator('[data-testid="add-level"]').click();
    const third = form.locator('[data-testid="escalation-level"]').nth(2);
    await third.locator('[data-testid="level-minutes"]').fill('0');
    await third.locator('[data-testid="level-contacts"]').selectOption('none');
    await third.locator('[data-testid="level-recipients"]').fill('hse@example.com, duty@example.com');
    await form.locator('[data-testid="possibly-inside-hours"]').fill('2');
    await form.locator('[data-testid="save-safety-settings"]').click();
    await expect(third.innerText()).resolves.toContain('Delay must be from 0.5 to 1440 minutes');
    expect(await suite.server.db.select().from(siteSafetySettings)).toEqual([]);
    await page.screenshot({ path: 'test-output/screenshots/safety-settings.png' });

    await third.locator('[data-testid="level-minutes"]').fill('30');
    await form.locator('[data-testid="save-safety-settings"]').click();
    await form.waitFor({ state: 'detached' });
    const [saved] = await suite.server.db.select().from(siteSafetySettings);
    expect(saved.possiblyInsideHours).toBe(2);
    expect(saved.escalationLevels).toEqual([
      { level: 1, afterMinutes: 5, contacts: 'site', recipients: [] },
      { level: 2, afterMinutes: 10, contacts: 'client', recipients: [] },
      { level: 3, afterMinutes: 30, contacts: 'none', recipients: ['hse@example.com', 'duty@example.com'] },
    ]);

    // A site viewer reads the incidents but has no settings button.
    const viewer = await suite.browser.newPage();
    await signIn(viewer, suite.server.baseUrl, 'site-viewer@demo.sitewatch.dev');
    await viewer.goto(`${suite.server.baseUrl}/safety`);
    await viewer.locator('[data-testid="incidents-read-only"]').waitFor();
    expect(await viewer.locator('[data-testid="safety-settings"]').count()).toBe(0);
    await viewer.close();
    await page.close();
  });
});
