import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { connect as tcpConnect } from 'node:net';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { connectAsync, type IClientOptions, type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config';
import { positions } from '../../server/db/schema';
import { type LiveData, startLiveData } from '../../server/liveData';
import { createDeviceSessions } from '../../server/mqtt/deviceSessions';
import { topicFor } from '../../src/domain/live';
import {
  type DemoFloorFixture,
  demoFloor,
  type HelmetFixture,
  POINTS,
  positionAt,
  seedWorkerWithHelmet,
} from './helpers/ingestFixture';
import { type OtherTenant, seedOtherTenant } from './helpers/otherTenant';
import { sleep } from './helpers/simulatorFixture';
import { startTestApp, type TestApp } from './helpers/testApp';
import { uniqueClientId } from './helpers/testIngest';

interface Login {
  id: number;
  username: string;
  password: string;
}

/**
 * The embedded broker as `npm start` runs it (DESIGN §1): devices are strangers until they log in
 * with a device token of their site, may only publish to their site's topics and hear its
 * commands, nobody can stand in for the ingest, and a PUBACK means the position is stored.
 */
describe('the embedded MQTT broker admits and confines devices', () => {
  let t: TestApp;
  let liveData: LiveData;
  let fixture: DemoFloorFixture;
  let other: OtherTenant;
  let admin: string;
  let certDir: string;
  let cert: Buffer;
  const topicRoot = `sw-auth-${randomBytes(4).toString('hex')}`;
  const ingestClientId = `sitewatch-test-ingest-${randomBytes(4).toString('hex')}`;
  const deviceSessions = createDeviceSessions();
  const clients: MqttClient[] = [];

  const url = () => liveData.broker!.url;
  const connect = async (login: Partial<Login> | null, options: IClientOptions = {}) => {
    const client = await connectAsync(url(), {
      clientId: uniqueClientId(),
      reconnectPeriod: 0,
      username: login?.username,
      password: login?.password,
      ...options,
    });
    clients.push(client);
    return client;
  };
  const mintToken = async (siteId: number, label = 'Gateway'): Promise<Login> => {
    const created = await t.call(admin, {
      method: 'POST',
      url: `/api/sites/${siteId}/device-tokens`,
      payload: { label },
    });
    expect(created.statusCode).toBe(200);
    const { id, token } = created.json.data as { id: number; token: string };
    return { id, username: String(id), password: token };
  };
  const storedFor = async (helmet: HelmetFixture) =>
    t.db.select().from(positions).where(eq(positions.inventoryItemId, helmet.inventoryId));
  const positionsTopic = (siteId: number) => topicFor(siteId, 'positions', topicRoot);

  beforeAll(async () => {
    t = await startTestApp({}, { deviceSessions });
    fixture = await demoFloor(t.db);
    other = await seedOtherTenant(t.db);
    admin = await t.loginAs('super-admin');
    certDir = mkdtempSync(join(tmpdir(), 'sitewatch-mqtt-tls-'));
    execFileSync('openssl', [
      ...['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=localhost'],
      ...['-addext', 'subjectAltName=DNS:localhost,IP:127.0.0.1'],
      ...['-keyout', join(certDir, 'key.pem'), '-out', join(certDir, 'cert.pem')],
    ]);
    cert = readFileSync(join(certDir, 'cert.pem'));
    // The server's own configuration, as loadConfig reads it, on free ports.
    const config = {
      ...loadConfig({
        MQTT_TLS_CERT: join(certDir, 'cert.pem'),
        MQTT_TLS_KEY: join(certDir, 'key.pem'),
        MQTT_TLS_PORT: '0',
      }),
      mqttPort: 0,
      mqttPortExplicit: true,
      mqttTopicRoot: topicRoot,
      mqttClientId: ingestClientId,
    };
    liveData = await startLiveData({
      db: t.db,
      config,
      publisher: { publish: async () => {} },
      logger: t.app.log,
      deviceSessions,
    });
  });
  afterAll(async () => {
    for (const client of clients) client.end(true);
    await liveData?.close();
    await t?.close();
    if (certDir) rmSync(certDir, { recursive: true, force: true });
  });

  it('listens on 127.0.0.1 only unless MQTT_HOST says otherwise', async () => {
    expect(liveData.broker?.host).toBe('127.0.0.1');
    expect(loadConfig({ MQTT_HOST: '0.0.0.0' }).mqttHost).toBe('0.0.0.0');
    // From another interface of this machine, nobody answers.
    const outside = Object.values(networkInterfaces())
      .flat()
      .find((address) => address && address.family === 'IPv4' && !address.internal);
    if (outside) {
      const refused = await new Promise<string>((resolve) => {
        const socket = tcpConnect(liveData.broker!.port, outside.address);
        socket.once('connect', () => {
          socket.destroy();
          resolve('connected');
        });
        socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
      });
      expect(refused).toBe('ECONNREFUSED');
    }
  });

  it('refuses a client without credentials, and one with a wrong or unknown token', async () => {
    await expect(connect(null)).rejects.toThrow(/Bad username or password|Not authorized/);
    const login = await mintToken(fixture.siteId);
    await expect(connect({ ...login, password: `${login.password}x` })).rejects.toThrow(
      /Bad username or password|Not authorized/,
    );
    await expect(connect({ username: '999999', password: login.password })).rejects.toThrow(
      /Bad username or password|Not authorized/,
    );
    // The right pair gets in.
    const device = await connect(login);
    expect(device.connected).toBe(true);
  });

  it("stores nothing a device publishes to another site's topics", async () => {
    const helmet = await seedWorkerWithHelmet(t.db, fixture.siteId, 'AUTH-CROSS');
    const message = JSON.stringify(positionAt(fixture, helmet.tag, POINTS.fitOut, 5));
    const stranger = await connect(await mintToken(other.siteId));
    const dropped = new Promise<void>((resolve) => stranger.once('close', () => resolve()));
    stranger.publish(positionsTopic(fixture.siteId), message, { qos: 1 });
    await dropped;
    await sleep(300);
    expect(await storedFor(helmet)).toHaveLength(0);
    // The same message from a gateway of the helmet's own site is stored.
    const own = await connect(await mintToken(fixture.siteId));
    await own.publishAsync(positionsTopic(fixture.siteId), message, { qos: 1 });
    expect(await storedFor(helmet)).toHaveLength(1);
  });

  it("refuses subscriptions to wildcards and to another site's commands, and delivers nothing on them", async () => {
    const spy = await connect(await mintToken(other.siteId));
    const heard: string[] = [];
    spy.on('message', (topic) => heard.push(topic));
    for (const filter of ['#', `${topicRoot}/+/positions`, `${topicRoot}/${fixture.siteId}/commands`]) {
      // MQTT.js turns a refused subscription (return code 128 in the SUBACK) into an error.
      const refusal = await spy.subscribeAsync(filter, { qos: 1 }).then(
        () => null,
        (error: Error & { packet?: { granted?: number[] } }) => error.packet?.granted,
      );
      expect(refusal, filter).toEqual([128]);
    }
    // Its own site's commands it may hear.
    const ownCommands = await spy.subscribeAsync(`${topicRoot}/${other.siteId}/commands`, { qos: 1 });
    expect(ownCommands[0].qos).toBe(1);

    const helmet = await seedWorkerWithHelmet(t.db, fixture.siteId, 'AUTH-SPY');
    const gateway = await connect(await mintToken(fixture.siteId));
    await gateway.publishAsync(
      positionsTopic(fixture.siteId),
      JSON.stringify(positionAt(fixture, helmet.tag, POINTS.fitOut, 5)),
      { qos: 1 },
    );
    await liveData.publishCommand(fixture.siteId, {
      tag: '*',
      ts: new Date().toISOString(),
      type: 'alarmCleared',
    });
    await liveData.publishCommand(other.siteId, {
      tag: '*',
      ts: new Date().toISOString(),
      type: 'alarmCleared',
    });
    await sleep(500);
    expect(heard).toEqual([`${topicRoot}/${other.siteId}/commands`]);
  });

  it("keeps storing every position while someone keeps connecting with the ingest's client id", async () => {
    const helmet = await seedWorkerWithHelmet(t.db, fixture.siteId, 'AUTH-TAKEOVER');
    const attackerLogin = await mintToken(other.siteId);
    const attempts: string[] = [];
    let attacking = true;
    const attacker = (async () => {
      for (let round = 0; attacking; round++) {
        // Every other round with a valid device token, the rest anonymously, as clean sessions.
        const login = round % 2 === 0 ? attackerLogin : null;
        try {
          const client = await connect(login, { clientId: ingestClientId, clean: true });
          attempts.push('admitted');
          client.end(true);
        } catch {
          attempts.push('refused');
        }
        await sleep(300);
      }
    })();
    const gateway = await connect(await mintToken(fixture.siteId));
    const started = Date.now();
    try {
      for (let i = 0; i < 200; i++) {
        const message = positionAt(fixture, helmet.tag, POINTS.fitOut, 400 - i);
        await gateway.publishAsync(positionsTopic(fixture.siteId), JSON.stringify(message), { qos: 1 });
        // Spread over at least a few of the attacker's rounds.
        if (Date.now() - started < 1500) await sleep(5);
      }
    } finally {
      attacking = false;
      await attacker;
    }
    expect(attempts.length).toBeGreaterThanOrEqual(3);
    expect(attempts.every((outcome) => outcome === 'refused')).toBe(true);
    const stored = await storedFor(helmet);
    expect(new Set(stored.map((row) => row.ts.toISOString())).size).toBe(200);
  });

  it("disconnects a revoked token's devices within a second and refuses them afterwards", async () => {
    const login = await mintToken(fixture.siteId, 'Lost gateway');
    const device = await connect(login);
    const dropped = new Promise<number>((resolve) => device.once('close', () => resolve(Date.now())));
    const revokedAt = Date.now();
    const revoked = await t.call(admin, {
      method: 'POST',
      url: `/api/sites/${fixture.siteId}/device-tokens/${login.id}/revoke`,
    });
    expect(revoked.statusCode).toBe(200);
    const closedAt = await Promise.race([dropped, sleep(1000).then(() => null)]);
    expect(closedAt, 'still connected a second after the revocation').not.toBeNull();
    expect((closedAt as number) - revokedAt).toBeLessThan(1000);
    await expect(connect(login)).rejects.toThrow(/Bad username or password|Not authorized/);
  });

  it('accepts devices over TLS with the same authentication', async () => {
    const tlsUrl = liveData.broker?.tlsUrl;
    expect(tlsUrl).toMatch(/^mqtts:\/\/127\.0\.0\.1:\d+$/);
    const tls = { ca: cert, rejectUnauthorized: true };
    await expect(
      connectAsync(tlsUrl!, { ...tls, reconnectPeriod: 0, clientId: uniqueClientId() }),
    ).rejects.toThrow(/Bad username or password|Not authorized/);
    const helmet = await seedWorkerWithHelmet(t.db, fixture.siteId, 'AUTH-TLS');
    const login = await mintToken(fixture.siteId);
    const device = await connectAsync(tlsUrl!, {
      ...tls,
      reconnectPeriod: 0,
      clientId: uniqueClientId(),
      username: login.username,
      password: login.password,
    });
    clients.push(device);
    await device.publishAsync(
      positionsTopic(fixture.siteId),
      JSON.stringify(positionAt(fixture, helmet.tag, POINTS.fitOut, 5)),
      { qos: 1 },
    );
    expect(await storedFor(helmet)).toHaveLength(1);
  });

  it('sends the PUBACK of a QoS 1 position only once its row is committed', async () => {
    const helmet = await seedWorkerWithHelmet(t.db, fixture.siteId, 'AUTH-PUBACK');
    const gateway = await connect(await mintToken(fixture.siteId));
    let acknowledgedAt: number | null = null;
    let rowsWhenAcknowledged = -1;
    let acknowledged: Promise<void> = Promise.resolve();
    // The table is locked by another transaction (on PGlite, its one connection is busy): the write waits.
    await t.db.transaction(async (tx) => {
      await tx.execute(sql`LOCK TABLE positions IN EXCLUSIVE MODE`);
      acknowledged = gateway
        .publishAsync(
          positionsTopic(fixture.siteId),
          JSON.stringify(positionAt(fixture, helmet.tag, POINTS.fitOut, 5)),
          { qos: 1 },
        )
        .then(async () => {
          acknowledgedAt = Date.now();
          rowsWhenAcknowledged = (await storedFor(helmet)).length;
        });
      await sleep(1000);
      expect(acknowledgedAt, 'acknowledged while the write was held').toBeNull();
    });
    await acknowledged;
    expect(acknowledgedAt).not.toBeNull();
    expect(rowsWhenAcknowledged).toBe(1);
  });
});
