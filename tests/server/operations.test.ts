import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app';
import type { Db } from '../../server/db/database';
import { evacuationSessions } from '../../server/db/schema';
import { createOperationsState, type OperationsState } from '../../server/operations/operationsState';
import { buildSafetyApp } from '../../server/safety/safetyApp';
import {
  type DemoFloorFixture,
  demoFloor,
  POINTS,
  positionAt,
  seedWorkerWithHelmet,
} from './helpers/ingestFixture';
import { startTestApp, type TestApp } from './helpers/testApp';
import { startTestBroker, type TestBroker } from './helpers/testBroker';
import { createTestDatabase } from './helpers/testDatabase';
import { type IngestWithSender, startIngestWithSender, startTestIngest } from './helpers/testIngest';

/** One sample of a Prometheus text exposition, by metric name and exact label set (`{a="b"}` or ''). */
function sample(exposition: string, name: string, labels = ''): number | undefined {
  const line = exposition.split('\n').find((l) => l.startsWith(`${name}${labels} `));
  return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(' ') + 1));
}

const REMOTE = '203.0.113.7';

describe('operations endpoints: /metrics, /livez, /readyz', () => {
  let t: TestApp;
  let broker: TestBroker;
  let ingest: IngestWithSender;
  let fixture: DemoFloorFixture;
  let operations: OperationsState;
  let app: FastifyInstance;
  let safety: FastifyInstance;
  const built: FastifyInstance[] = [];

  /** Both listeners built on one operations state, as server/main.ts builds them. */
  async function listenersOn(
    state: OperationsState,
  ): Promise<{ api: FastifyInstance; safety: FastifyInstance }> {
    const api = await buildApp({ db: state.db, config: t.config, operations: state });
    const safetyApp = await buildSafetyApp({ db: state.db, config: t.config }, { operations: state });
    built.push(api, safetyApp);
    return { api, safety: safetyApp };
  }

  const scrape = async (target = app) => {
    const response = await target.inject({ method: 'GET', url: '/metrics' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('text/plain');
    return response.body;
  };

  beforeAll(async () => {
    t = await startTestApp();
    broker = await startTestBroker(t.db);
    fixture = await demoFloor(t.db);
    ingest = await startIngestWithSender(t, broker);
    operations = createOperationsState(t.db, {
      expectsIngest: true,
      ingest: ingest.ingest,
      databasePool: t.database.poolUse,
      liveSockets: () => ({ safety: 0 }),
    });
    ({ api: app, safety } = await listenersOn(operations));
  });
  afterAll(async () => {
    for (const instance of built) await instance.close();
    await ingest?.close();
    await broker?.close();
    await t?.close();
  });

  it('counts a good and a bad position published through the ingest, with the ingest lag', async () => {
    const helmet = await seedWorkerWithHelmet(t.db, fixture.siteId, 'OPS-METRICS-1');
    const before = await scrape();
    const good = positionAt(fixture, helmet.tag, POINTS.fitOut, 3);
    await ingest.send(fixture.siteId, 'positions', good);
    await ingest.send(fixture.siteId, 'positions', { ...good, tag: 'OPS-NO-SUCH-HELMET' });
    const after = await scrape();

    const moved = (name: string, labels = '') =>
      (sample(after, name, labels) ?? Number.NaN) - (sample(before, name, labels) ?? Number.NaN);
    expect(moved('sitewatch_ingest_messages_total')).toBe(2);
    expect(moved('sitewatch_ingest_entries_total', '{result="accepted",reason=""}')).toBe(1);
    expect(moved('sitewatch_ingest_entries_total', '{result="rejected",reason="unknownTag"}')).toBe(1);
    expect(moved('sitewatch_ingest_entries_total', '{result="rejected",reason="badJson"}')).toBe(0);
    // The good entry was 3 s old when it committed.
    const lag = sample(after, 'sitewatch_ingest_lag_seconds') ?? Number.NaN;
    expect(lag).toBeGreaterThanOrEqual(3);
    expect(lag).toBeLessThan(10);
    expect(sample(after, 'sitewatch_ingest_broker_connected')).toBe(1);
    expect(sample(after, 'nodejs_eventloop_lag_seconds')).toBeGreaterThanOrEqual(0);
    expect(sample(after, 'sitewatch_live_sockets', '{listener="safety"}')).toBe(0);
    expect(sample(after, 'sitewatch_database_pool_connections', '{state="total"}')).toBeGreaterThanOrEqual(1);
    expect(sample(after, 'sitewatch_evacuations_running')).toBe(0);
  });

  it('counts the evacuation sessions running', async () => {
    expect(sample(await scrape(), 'sitewatch_evacuations_running')).toBe(0);
    await t.db.insert(evacuationSessions).values({
      id: randomUUID(),
      siteId: fixture.siteId,
      startedAt: new Date(),
      floorIds: [fixture.floor.id],
      zoneIds: [],
      assemblyZoneIds: [],
      evacuationFloorIds: [fixture.floor.id],
    });
    expect(sample(await scrape(), 'sitewatch_evacuations_running')).toBe(1);
  });

  it('refuses /metrics to a remote caller without the token, and to a forwarded one', async () => {
    const remote = await app.inject({ method: 'GET', url: '/metrics', remoteAddress: REMOTE });
    expect(remote.statusCode).toBe(403);
    expect(remote.body).not.toContain('sitewatch_ingest');
    // A reverse proxy on this machine forwards the world's requests from 127.0.0.1.
    const forwarded = await app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { 'x-forwarded-for': REMOTE },
    });
    expect(forwarded.statusCode).toBe(403);
    const local = await app.inject({ method: 'GET', url: '/metrics', remoteAddress: '::1' });
    expect(local.statusCode).toBe(200);
    // Only the main listener serves the metrics.
    expect((await safety.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(404);
  });

  it('with METRICS_TOKEN, answers /metrics to the bearer of the token only, wherever it comes from', async () => {
    const { api } = await listenersOn({ ...operations, metricsToken: 'scrape-secret-123' });
    const scrapeWith = (authorization?: string) =>
      api.inject({
        method: 'GET',
        url: '/metrics',
        remoteAddress: REMOTE,
        headers: authorization ? { authorization } : {},
      });
    expect((await scrapeWith()).statusCode).toBe(401);
    expect((await scrapeWith('Bearer wrong-token')).statusCode).toBe(401);
    const local = await api.inject({ method: 'GET', url: '/metrics' });
    expect(local.statusCode).toBe(401);
    const allowed = await scrapeWith('Bearer scrape-secret-123');
    expect(allowed.statusCode).toBe(200);
    expect(allowed.body).toContain('sitewatch_ingest_entries_total');
  });

  it('is live and ready on both listeners while the database and the broker answer', async () => {
    for (const listener of [app, safety]) {
      const live = await listener.inject({ method: 'GET', url: '/livez' });
      expect(live.statusCode).toBe(200);
      const ready = await listener.inject({ method: 'GET', url: '/readyz' });
      expect(ready.statusCode).toBe(200);
      expect(ready.json()).toMatchObject({ status: 'success' });
    }
  });

  it('is not ready on either listener once the database is closed, yet still live', async () => {
    const database = await createTestDatabase();
    const listeners = await listenersOn({ ...operations, db: database.db });
    expect((await listeners.api.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
    await database.dispose();
    for (const listener of [listeners.api, listeners.safety]) {
      const ready = await listener.inject({ method: 'GET', url: '/readyz' });
      expect(ready.statusCode).toBe(503);
      expect(ready.json()).toMatchObject({ status: 'error' });
      expect(ready.json().message).toContain('database');
      expect((await listener.inject({ method: 'GET', url: '/livez' })).statusCode).toBe(200);
    }
  });

  it('is not ready, within about a second, while the database does not answer', async () => {
    // A database whose queries never come back (a server that accepts and stalls).
    const hanging = new Proxy(t.db, {
      get: (target, property, receiver) =>
        property === 'execute' ? () => new Promise(() => {}) : Reflect.get(target, property, receiver),
    }) as Db;
    const listeners = await listenersOn({ ...operations, db: hanging });
    const askedAt = Date.now();
    const ready = await listeners.safety.inject({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(503);
    expect(Date.now() - askedAt).toBeLessThan(3000);
  });

  it('is not ready while migrating, nor when the ingest has lost its broker', async () => {
    const migrating = await listenersOn({ ...operations, migrating: true });
    for (const listener of [migrating.api, migrating.safety])
      expect((await listener.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(503);

    const stopped = await startTestIngest(t, broker);
    await stopped.close();
    const brokerLost = await listenersOn({ ...operations, ingest: stopped });
    for (const listener of [brokerLost.api, brokerLost.safety]) {
      const ready = await listener.inject({ method: 'GET', url: '/readyz' });
      expect(ready.statusCode).toBe(503);
      expect(ready.json().message).toContain('broker');
    }
    expect(sample(await scrape(brokerLost.api), 'sitewatch_ingest_broker_connected')).toBe(0);
  });
});
