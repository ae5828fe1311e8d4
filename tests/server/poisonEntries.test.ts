import { asc, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { connectAsync, type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { positions } from '../../server/db/schema';
import type { MqttIngest } from '../../server/ingest/mqttIngest';
import { buildSafetyApp } from '../../server/safety/safetyApp';
import { topicFor } from '../../src/domain/live';
import {
  type DemoFloorFixture,
  demoFloor,
  type HelmetFixture,
  POINTS,
  positionAt,
  seedWorkerWithHelmet,
} from './helpers/ingestFixture';
import { startTestApp, type TestApp } from './helpers/testApp';
import { startTestBroker, type TestBroker } from './helpers/testBroker';
import { startTestIngest, uniqueClientId } from './helpers/testIngest';

/**
 * One bad entry must never cost the good ones beside it, nor stall the ingest: neither an entry
 * validation refuses (a NUL in the tag, which PostgreSQL cannot store) nor one that only the
 * database refuses. For the latter this test's database gets a CHECK constraint that refuses one
 * latitude (error 23514), standing for whatever validation may miss.
 */
const REFUSED_LATITUDE = 12.345678;

describe('poison entries beside good ones', () => {
  let t: TestApp;
  let broker: TestBroker;
  let ingest: MqttIngest;
  let sender: MqttClient;
  let safetyApp: FastifyInstance;
  let fixture: DemoFloorFixture;
  let gateway: { id: number; token: string };

  beforeAll(async () => {
    t = await startTestApp();
    broker = await startTestBroker(t.db);
    fixture = await demoFloor(t.db);
    await t.db.execute(
      sql.raw(`alter table positions add constraint poison_test_latitude check (lat <> ${REFUSED_LATITUDE})`),
    );
    ingest = await startTestIngest(t, broker);
    safetyApp = await buildSafetyApp({ db: t.db, config: t.config }, { ingestStats: () => ingest.stats() });
    await safetyApp.ready();
    const admin = await t.loginAs('super-admin');
    const created = await t.call(admin, {
      method: 'POST',
      url: `/api/sites/${fixture.siteId}/device-tokens`,
      payload: { label: 'Poison test gateway' },
    });
    expect(created.statusCode).toBe(200);
    gateway = { id: created.json.data.id, token: created.json.data.token };
    // A gateway's credentials: a broker that authenticates devices wants them, one that does not ignores them.
    sender = await connectAsync(broker.url, {
      clientId: uniqueClientId(),
      username: String(gateway.id),
      password: gateway.token,
    });
  });
  afterAll(async () => {
    await sender?.endAsync();
    await ingest?.close();
    await safetyApp?.close();
    await broker?.close();
    await t?.close();
  });

  const storedTimes = async (helmet: HelmetFixture) =>
    (
      await t.db
        .select({ ts: positions.ts })
        .from(positions)
        .where(eq(positions.inventoryItemId, helmet.inventoryId))
        .orderBy(asc(positions.ts))
    ).map((row) => row.ts.toISOString());

  const publish = (payload: unknown) =>
    sender.publishAsync(topicFor(fixture.siteId, 'positions', broker.topicRoot), JSON.stringify(payload), {
      qos: 1,
    });

  const healthCounters = async () => {
    const response = await safetyApp.inject({ method: 'GET', url: '/api/safety/health' });
    expect(response.statusCode).toBe(200);
    return response.json().data.ingest.rejected as Record<string, number>;
  };

  it('over MQTT stores the good entries of a message with a NUL tag, counts the bad one and stays prompt', async () => {
    const first = await seedWorkerWithHelmet(t.db, fixture.siteId, 'POISON-M1');
    const second = await seedWorkerWithHelmet(t.db, fixture.siteId, 'POISON-M2');
    const before = await healthCounters();
    const good = [
      positionAt(fixture, first.tag, POINTS.fitOut, 30),
      positionAt(fixture, second.tag, POINTS.eastWing, 30),
    ];
    await publish([good[0], { ...good[0], tag: 'POISON\u0000M1' }, good[1]]);
    // A clean message right behind it is stored promptly, not after retries of the poisoned one.
    const clean = positionAt(fixture, first.tag, POINTS.nowhere, 10);
    const sentAt = Date.now();
    await publish(clean);
    await vi.waitFor(async () => expect(await storedTimes(first)).toContain(clean.ts), {
      timeout: 5000,
      interval: 20,
    });
    expect(Date.now() - sentAt).toBeLessThan(1000);

    expect(await storedTimes(first)).toEqual([good[0].ts, clean.ts]);
    expect(await storedTimes(second)).toEqual([good[1].ts]);
    const after = await healthCounters();
    expect(after.controlCharacter - (before.controlCharacter ?? 0)).toBe(1);
  });

  it('over MQTT isolates an entry only the database refuses and commits the rest of its message', async () => {
    const helmet = await seedWorkerWithHelmet(t.db, fixture.siteId, 'POISON-M3');
    const before = await healthCounters();
    const older = positionAt(fixture, helmet.tag, POINTS.fitOut, 40);
    const newer = positionAt(fixture, helmet.tag, POINTS.eastWing, 20);
    await publish([older, { ...older, lat: REFUSED_LATITUDE }, newer]);
    await vi.waitFor(async () => expect(await storedTimes(helmet)).toEqual([older.ts, newer.ts]), {
      timeout: 1000,
      interval: 20,
    });
    const after = await healthCounters();
    expect(after.refusedByDatabase - (before.refusedByDatabase ?? 0)).toBe(1);
  });

  const ingestOverHttp = (body: unknown) =>
    t.call(gateway.token, {
      method: 'POST',
      url: `/api/ingest/${fixture.siteId}/positions`,
      payload: body as object,
    });

  it('over HTTP answers 200 with the counts and stores the good entry beside a NUL tag', async () => {
    const helmet = await seedWorkerWithHelmet(t.db, fixture.siteId, 'POISON-H1');
    const good = positionAt(fixture, helmet.tag, POINTS.fitOut, 15);
    const response = await ingestOverHttp([{ ...good, tag: 'POISON\u0000H1' }, good]);
    expect(response.statusCode).toBe(200);
    expect(response.json.data).toEqual({ accepted: 1, rejected: { controlCharacter: 1 } });
    expect(await storedTimes(helmet)).toEqual([good.ts]);
  });

  it('over HTTP counts a timestamp before year 1 as outOfRange instead of sending it to the database', async () => {
    const helmet = await seedWorkerWithHelmet(t.db, fixture.siteId, 'POISON-H3');
    const good = positionAt(fixture, helmet.tag, POINTS.nowhere, 15);
    const response = await ingestOverHttp([{ ...good, ts: '0000-01-01T00:00:00Z' }, good]);
    expect(response.statusCode).toBe(200);
    expect(response.json.data).toEqual({ accepted: 1, rejected: { outOfRange: 1 } });
    expect(await storedTimes(helmet)).toEqual([good.ts]);
  });

  it('over HTTP answers 200 and stores the good entry beside one the database refuses', async () => {
    const helmet = await seedWorkerWithHelmet(t.db, fixture.siteId, 'POISON-H2');
    const good = positionAt(fixture, helmet.tag, POINTS.eastWing, 15);
    const response = await ingestOverHttp([good, { ...good, lat: REFUSED_LATITUDE }]);
    expect(response.statusCode).toBe(200);
    expect(response.json.data).toEqual({ accepted: 1, rejected: { refusedByDatabase: 1 } });
    expect(await storedTimes(helmet)).toEqual([good.ts]);
  });
});
