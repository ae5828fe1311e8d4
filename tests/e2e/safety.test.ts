import { and, desc, eq, isNotNull } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import mqtt from 'mqtt';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolvePrincipal } from '../../server/auth/authenticate';
import { emailOutbox, evacuationSessions, incidents, inventoryItems, workers } from '../../server/db/schema';
import { topicFor } from '../../src/domain/live';
import { browserSuite } from './helpers/browserSuite';
import { signIn } from './helpers/pages';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('safety: incidents, past evacuations and the safety demo', () => {
  // Four simulator ticks a second: the drill's 30–60-tick walk takes 7.5–15 s.
  const suite = browserSuite({ live: true, simulator: { tickMs: 250 } });
  let publisher: mqtt.MqttClient;

  beforeAll(async () => {
    publisher = await mqtt.connectAsync(suite.server.brokerUrl as string, await suite.server.deviceLogin());
  });
  afterAll(async () => {
    await publisher?.endAsync();
  });

  async function signedIn(email: string): Promise<Page> {
    const page = await suite.browser.newPage({
      viewport: { width: 1500, height: 950 },
      acceptDownloads: true,
    });
    await signIn(page, suite.server.baseUrl, email);
    return page;
  }

  it('shows an SOS raised over MQTT as it happens, and escalates it to the safety contacts after a confirmation', async () => {
    const page = await signedIn('site-admin@demo.sitewatch.dev');
    await page.goto(`${suite.server.baseUrl}/safety`);
    await page.waitForSelector('[data-testid="incidents-empty"], [data-testid="incidents-table"]');

    const [{ helmet, worker }] = await suite.server.db
      .select({ helmet: inventoryItems, worker: workers })
      .from(inventoryItems)
      .innerJoin(workers, eq(workers.id, inventoryItems.workerId))
      .where(and(eq(inventoryItems.siteId, suite.server.siteId), isNotNull(inventoryItems.workerId)))
      .orderBy(inventoryItems.id)
      .limit(1);
    const ts = new Date().toISOString();
    await publisher.publishAsync(
      topicFor(suite.server.siteId, 'events', suite.server.topicRoot),
      JSON.stringify({ tag: helmet.wntInventoryId, ts, type: 'sos' }),
      { qos: 1 },
    );

    // No reload: the socket's safetyEvents refresh the list.
    const row = page.locator('[data-testid="incident-row"]', { hasText: worker.name });
    await row.waitFor({ timeout: 15_000 });
    await expect(row.innerText()).resolves.toContain('SOS');
    await expect(row.locator('[data-testid="incident-status"]').innerText()).resolves.toBe('Open');
    expect(await page.locator('[data-testid="incidents-count"]').innerText()).toMatch(/Incidents: \d+/);

    const outboxBefore = await suite.server.db.select().from(emailOutbox);
    await row.locator('[data-testid="escalate-incident"]').click();
    await expect(page.locator('[data-testid="escalate-confirm-text"]').innerText()).resolves.toContain(
      worker.name,
    );
    await page.getByRole('button', { name: 'Escalate', exact: true }).last().click();
    await row.locator('[data-testid="incident-status"]', { hasText: 'Escalated' }).waitFor();
    await expect(row.locator('[data-testid="incident-escalated-by"]').innerText()).resolves.toContain(
      'Demo Site Admin',
    );

    const [incident] = await suite.server.db
      .select()
      .from(incidents)
      .where(eq(incidents.inventoryItemId, helmet.id))
      .orderBy(desc(incidents.id))
      .limit(1);
    expect(incident.status).toBe('escalated');
    const outbox = await suite.server.db.select().from(emailOutbox);
    const newMail = outbox.filter((m) => !outboxBefore.some((b) => b.id === m.id));
    expect(newMail.length).toBeGreaterThan(0);
    expect(newMail.map((m) => m.toAddress)).toContain('site-admin@demo.sitewatch.dev');

    // A filter on another type hides it; the status filter on escalated keeps it.
    await page.selectOption('#incidents-type', 'fall');
    await page.waitForSelector('[data-testid="incidents-empty"]');
    await page.selectOption('#incidents-type', '');
    await page.selectOption('#incidents-status', 'escalated');
    await row.waitFor();
    await page.screenshot({ path: 'test-output/screenshots/safety-incidents.png' });
    await page.close();
  });

  it('runs the scripted evacuation from /safteyDemo as the safety-demo user, and the link opens the wall screen', async () => {
    const page = await signedIn('safety-demo@demo.sitewatch.dev');
    // The simulator's helmets are online before the alarm.
    for (let i = 0; i < 40; i++) {
      const online = await suite.server.db
        .select({ id: inventoryItems.id })
        .from(inventoryItems)
        .where(and(eq(inventoryItems.siteId, suite.server.siteId), eq(inventoryItems.isOnline, true)));
      if (online.length >= 10) break;
      await sleep(250);
    }
    await page.goto(`${suite.server.baseUrl}/safteyDemo`);
    await page.locator('[data-testid="run-drill"]').click();
    await page.getByRole('button', { name: 'Run it' }).click();
    await page.locator('[data-testid="watch-drill"]').waitFor({ timeout: 15_000 });
    const [session] = await suite.server.db
      .select()
      .from(evacuationSessions)
      .where(eq(evacuationSessions.siteId, suite.server.siteId));
    expect(session.endedAt).toBeNull();
    // Once running, the button waits for the end.
    await page.locator('[data-testid="safety-demo-running"]').waitFor();
    expect(await page.locator('[data-testid="run-drill"]').isDisabled()).toBe(true);
    await page.screenshot({ path: 'test-output/screenshots/safety-demo.png' });

    await page.locator('[data-testid="watch-drill"]').click();
    await page.waitForURL(/\/safetyevacuation$/);
    await expect(page.locator('[data-testid="screen-title"]').innerText()).resolves.toBe('Evacuation');
    await page.close();
  });

  it('lists the past evacuation with its report, and exports the report as .xlsx', async () => {
    const [session] = await suite.server.db
      .select()
      .from(evacuationSessions)
      .where(eq(evacuationSessions.siteId, suite.server.siteId));
    // The workers reach the assembly zones (30–60 ticks of 250 ms), then the officer ends it.
    await sleep(16_000);
    const adminPage = await signedIn('site-admin@demo.sitewatch.dev');
    const token = await adminPage.evaluate(() => localStorage.getItem('auth'));
    const principal = await resolvePrincipal(suite.server.db, token!);
    await suite.server.evacuation?.end(principal!, {
      siteId: suite.server.siteId,
      evacuationSessionId: session.id,
    });

    await adminPage.goto(`${suite.server.baseUrl}/safety`);
    await adminPage.getByRole('tab', { name: 'Past evacuations' }).click();
    const row = adminPage.locator('[data-testid="evacuation-row"]').first();
    await row.waitFor();
    await row.locator('[data-testid="open-report"]').click();
    await adminPage.locator('[data-testid="report-workers"]').waitFor();
    const included = Number(
      (await adminPage.locator('[data-testid="report-included"]').innerText()).replace(/,/g, ''),
    );
    expect(included).toBeGreaterThan(0);
    expect(await adminPage.locator('[data-testid="report-worker-row"]').count()).toBe(included);
    await adminPage.locator('[data-testid="report-all-accounted"]').waitFor();
    await adminPage.locator('[data-testid="never-accounted-title"]').waitFor();
    await adminPage.screenshot({ path: 'test-output/screenshots/safety-report.png', fullPage: true });

    const [download] = await Promise.all([
      adminPage.waitForEvent('download'),
      adminPage.locator('[data-testid="export-report"]').click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^evacuation-report-\d{4}-\d{2}-\d{2}\.xlsx$/);
    const file = await download.path();
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.readFile(file);
    expect(workbook.worksheets.length).toBeGreaterThan(0);
    await adminPage.close();
  });
});
