import type { AddressInfo } from 'node:net';
import { and, asc, eq, gt } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { emailOutbox, incidentEvents, incidents } from '../../server/db/schema';
import { startEscalationScheduler } from '../../server/safety/escalationScheduler';
import { buildSafetyApp, type SafetyLive, startLive } from '../../server/safety/safetyApp';
import { SAFETY_EVENTS, type SafetyEventsBatch } from '../../src/domain/evacuation';
import type { SafetyIncident } from '../../src/domain/incidents';
import {
  type DemoFloorFixture,
  demoFloor,
  type HelmetFixture,
  POINTS,
  positionAt,
  seedWorkerWithHelmet,
} from './helpers/ingestFixture';
import { connectLive, type LiveClient } from './helpers/liveClient';
import { startTestApp, type TestApp } from './helpers/testApp';
import { startTestBroker, type TestBroker } from './helpers/testBroker';
import { type IngestWithSender, startIngestWithSender } from './helpers/testIngest';

const MINUTE = 60_000;
const DUTY_MANAGER = 'duty-manager@example.com';

describe('staged escalation of incidents raised through the real broker', () => {
  let t: TestApp;
  let broker: TestBroker;
  let ingest: IngestWithSender;
  let fixture: DemoFloorFixture;
  let safety: FastifyInstance;
  let live: SafetyLive;
  let watcher: LiveClient;
  let adminToken: string;
  const heard: SafetyIncident[] = [];
  /** The scheduler's clock runs this far ahead of the wall clock: minutes pass in a test's second. */
  let ahead = 0;
  const now = () => new Date(Date.now() + ahead);

  beforeAll(async () => {
    t = await startTestApp();
    broker = await startTestBroker();
    fixture = await demoFloor(t.db);
    safety = await buildSafetyApp({ db: t.db, config: t.config });
    live = await startLive({
      app: safety,
      db: t.db,
      config: { redisUrl: undefined, publicUrl: t.config.publicUrl },
      escalation: { now, intervalMs: 100 },
    });
    await safety.listen({ port: 0, host: '127.0.0.1' });
    adminToken = await t.loginAs('group-of-sites-admin');
    const url = `http://127.0.0.1:${(safety.server.address() as AddressInfo).port}`;
    watcher = connectLive(url, { token: adminToken, siteId: fixture.siteId });
    watcher.socket.on(SAFETY_EVENTS.safetyEvents, (batch: SafetyEventsBatch) =>
      heard.push(...batch.incidents),
    );
    await vi.waitFor(() => expect(watcher.socket.connected).toBe(true));
    ingest = await startIngestWithSender(t, broker, live.publisher);

    // Level 1 after a minute to the site's safety contacts; level 2 two minutes later to the duty manager only.
    const saved = await safety.inject({
      method: 'PUT',
      url: `/api/safety/sites/${fixture.siteId}/settings`,
      headers: { authorization: `Bearer ${adminToken}` },
      payload: {
        possiblyInsideHours: null,
        escalationLevels: [
          { level: 1, afterMinutes: 1, contacts: 'site', recipients: [] },
          { level: 2, afterMinutes: 2, contacts: 'none', recipients: [DUTY_MANAGER] },
        ],
      },
    });
    expect(saved.statusCode, saved.body).toBe(200);
  });
  afterAll(async () => {
    watcher?.close();
    await ingest?.close();
    await live?.close();
    await safety?.close();
    await broker?.close();
    await t?.close();
  });

  const incidentOf = async (helmet: HelmetFixture) => {
    const [row] = await t.db
      .select()
      .from(incidents)
      .where(eq(incidents.inventoryItemId, helmet.inventoryId));
    return row;
  };
  const mailsAfter = (id: number) =>
    t.db.select().from(emailOutbox).where(gt(emailOutbox.id, id)).orderBy(asc(emailOutbox.id));
  const lastMailId = async () => {
    const mails = await t.db.select({ id: emailOutbox.id }).from(emailOutbox);
    return Math.max(0, ...mails.map((m) => m.id));
  };
  const eventsOf = (incidentId: number) =>
    t.db
      .select({ kind: incidentEvents.kind, level: incidentEvents.level, by: incidentEvents.by })
      .from(incidentEvents)
      .where(eq(incidentEvents.incidentId, incidentId))
      .orderBy(asc(incidentEvents.id));
  /** Moves the scheduler's clock and lets it look (it would on its own within 100 ms). */
  const jumpTo = async (msAhead: number) => {
    ahead = msAhead;
    live.escalations.wake();
    await new Promise((resolve) => setTimeout(resolve, 400));
  };
  const sos = async (helmet: HelmetFixture) => {
    await ingest.send(fixture.siteId, 'positions', positionAt(fixture, helmet.tag, POINTS.fitOut, 20));
    await ingest.send(fixture.siteId, 'events', {
      tag: helmet.tag,
      ts: new Date(Date.now() - 5_000).toISOString(),
      type: 'sos',
    });
    return incidentOf(helmet);
  };

  it('climbs to level 1 and then level 2 when each delay runs out, e-mailing each level once', async () => {
    ahead = 0;
    const helmet = await seedWorkerWithHelmet(t.db, fixture.siteId, 'ESC-SOS');
    const mailMark = await lastMailId();
    const raisedAt = Date.now();
    const raised = await sos(helmet);
    expect(raised).toMatchObject({ status: 'open', level: 0 });
    // Counted from when the server learned of it, not from the helmet's (earlier) timestamp.
    const firstDue = raised.nextEscalationAt!.getTime();
    expect(firstDue).toBeGreaterThanOrEqual(raisedAt + MINUTE - 50);
    expect(firstDue).toBeLessThan(Date.now() + MINUTE + 50);

    // Not yet: the minute has not run out.
    await jumpTo(firstDue - Date.now() - 5_000);
    expect(await incidentOf(helmet)).toMatchObject({ status: 'open', level: 0 });
    expect(await mailsAfter(mailMark)).toEqual([]);

    await jumpTo(firstDue - Date.now() + 1_000);
    await vi.waitFor(async () => expect((await incidentOf(helmet)).level).toBe(1));
    const first = await incidentOf(helmet);
    expect(first.status).toBe('escalated');
    expect(first.escalatedBy).toBeNull();
    const secondDue = first.nextEscalationAt!.getTime();
    expect(secondDue - first.escalatedAt!.getTime()).toBe(2 * MINUTE);
    const levelOneMails = await mailsAfter(mailMark);
    expect(levelOneMails.map((m) => m.toAddress).sort()).toEqual([
      'client-admin@demo.sitewatch.dev',
      'site-admin@demo.sitewatch.dev',
    ]);
    for (const mail of levelOneMails) {
      expect(mail.subject).toBe(`Safety incident escalated (level 1): SOS alarm — ${helmet.workerName}`);
      expect(mail.body).toContain('was not acknowledged within 1 minutes and escalated to level 1');
      expect(mail.body).toContain('Place: Tower A / Level 1 / Fit-out area');
    }
    // The consoles hear it climb.
    await vi.waitFor(() =>
      expect(heard.some((i) => i.id === raised.id && i.level === 1 && i.status === 'escalated')).toBe(true),
    );

    // Another server process looking at the same moment does not repeat the step.
    const otherProcess = startEscalationScheduler({
      db: t.db,
      publicUrl: () => t.config.publicUrl,
      publishIncidents: async () => {},
      log: { info() {}, error() {} },
      now,
      intervalMs: 60_000,
    });
    await jumpTo(secondDue - Date.now() + 1_000);
    await otherProcess.runOnce();
    await otherProcess.stop();
    await vi.waitFor(async () => expect((await incidentOf(helmet)).level).toBe(2));
    const second = await incidentOf(helmet);
    expect(second).toMatchObject({ status: 'escalated', level: 2, nextEscalationAt: null });
    const levelTwoMails = (await mailsAfter(mailMark)).slice(levelOneMails.length);
    expect(levelTwoMails.map((m) => [m.toAddress, m.subject])).toEqual([
      [DUTY_MANAGER, `Safety incident escalated (level 2): SOS alarm — ${helmet.workerName}`],
    ]);

    // The last level reached: nothing more, however long nobody answers.
    await jumpTo(secondDue - Date.now() + 60 * MINUTE);
    expect((await mailsAfter(mailMark)).length).toBe(3);
    expect(await eventsOf(raised.id)).toEqual([
      { kind: 'raised', level: 0, by: null },
      { kind: 'escalated', level: 1, by: null },
      { kind: 'escalated', level: 2, by: null },
    ]);
  });

  it('stops climbing once someone acknowledges it', async () => {
    ahead = 0;
    const helmet = await seedWorkerWithHelmet(t.db, fixture.siteId, 'ESC-ACK');
    const raised = await sos(helmet);
    const firstDue = raised.nextEscalationAt!.getTime();
    await jumpTo(firstDue - Date.now() + 1_000);
    await vi.waitFor(async () => expect((await incidentOf(helmet)).level).toBe(1));
    const mailMark = await lastMailId();

    const acknowledged = await safety.inject({
      method: 'POST',
      url: '/api/safety/incident/acknowledge',
      headers: { authorization: `Bearer ${adminToken}` },
      payload: { incidentId: raised.id },
    });
    expect(acknowledged.statusCode, acknowledged.body).toBe(200);
    expect(acknowledged.json().data).toMatchObject({
      status: 'acknowledged',
      level: 1,
      nextEscalationAt: null,
      acknowledgedBy: { name: 'Demo Site Admin' },
    });

    // Well past level 2's time: still level 1, no e-mail.
    await jumpTo(firstDue - Date.now() + 30 * MINUTE);
    expect(await incidentOf(helmet)).toMatchObject({ status: 'acknowledged', level: 1 });
    expect(await mailsAfter(mailMark)).toEqual([]);
    const events = await eventsOf(raised.id);
    expect(events.map((e) => [e.kind, e.level])).toEqual([
      ['raised', 0],
      ['escalated', 1],
      ['acknowledged', 1],
    ]);
    expect(events[2].by).not.toBeNull();
    await vi.waitFor(() =>
      expect(heard.some((i) => i.id === raised.id && i.status === 'acknowledged')).toBe(true),
    );
  });

  it('picks up a due step after a restart: the schedule lives in the database', async () => {
    ahead = 0;
    const helmet = await seedWorkerWithHelmet(t.db, fixture.siteId, 'ESC-RESTART');
    const raised = await sos(helmet);
    await live.escalations.stop();
    ahead = raised.nextEscalationAt!.getTime() - Date.now() + 1_000;
    // A fresh scheduler, as a restarted server starts it, knows only the database.
    const restarted = startEscalationScheduler({
      db: t.db,
      publicUrl: () => t.config.publicUrl,
      publishIncidents: async () => {},
      log: { info() {}, error() {} },
      now,
      intervalMs: 100,
    });
    try {
      await vi.waitFor(async () => expect((await incidentOf(helmet)).level).toBe(1));
    } finally {
      await restarted.stop();
    }
    const [row] = await t.db
      .select({ level: incidents.level })
      .from(incidents)
      .where(and(eq(incidents.id, raised.id), eq(incidents.status, 'escalated')));
    expect(row.level).toBe(1);
  });
});
