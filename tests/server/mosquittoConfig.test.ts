import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { connectAsync, type IClientOptions, type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MosquittoConfigOptions, writeMosquittoConfig } from '../../scripts/mosquitto-config';
import { hashToken } from '../../server/auth/tokens';
import { deviceTokens } from '../../server/db/schema';
import { demoFloor } from './helpers/ingestFixture';
import { handOverToMosquittoUser, type MosquittoProcess, startMosquitto } from './helpers/mosquittoProcess';
import { type OtherTenant, seedOtherTenant } from './helpers/otherTenant';
import { freePort } from './helpers/serverProcess';
import { startTestApp, type TestApp } from './helpers/testApp';

interface IssuedToken {
  id: number;
  token: string;
}

interface Listener {
  client: MqttClient;
  received: { topic: string; payload: string }[];
}

const INGEST = { username: 'sitewatch-ingest', password: randomBytes(18).toString('base64url') };

describe('Mosquitto configured from the device tokens', () => {
  let t: TestApp;
  let other: OtherTenant;
  let siteA: number;
  let siteB: number;
  let dir: string;
  let options: MosquittoConfigOptions;
  let broker: MosquittoProcess | undefined;
  let url: string;
  let tlsUrl: string;
  let certificate: Buffer;
  let bearer: string;
  let tokenA: IssuedToken;
  let tokenB: IssuedToken;
  let tokenToRevoke: IssuedToken;
  let legacyTokenId: number;
  const clients: MqttClient[] = [];
  const root = `sw-mosq-${randomBytes(4).toString('hex')}`;

  const issueToken = async (siteId: number, label: string): Promise<IssuedToken> => {
    const response = await t.call(bearer, {
      method: 'POST',
      url: `/api/sites/${siteId}/device-tokens`,
      payload: { label },
    });
    expect(response.statusCode, response.body).toBe(200);
    const { id, token } = response.json.data as IssuedToken;
    const [row] = await t.db.select().from(deviceTokens).where(eq(deviceTokens.id, id));
    expect(row.brokerPasswordHash, 'the API keeps a broker hash of every new token').toMatch(/^\$7\$101\$/);
    return { id, token };
  };

  const regenerate = async () => {
    const result = await writeMosquittoConfig(t.db, options);
    handOverToMosquittoUser(dir);
    return result;
  };

  const connect = async (brokerUrl: string, extra: IClientOptions = {}) => {
    const client = await connectAsync(brokerUrl, {
      reconnectPeriod: 0,
      connectTimeout: 5000,
      clean: true,
      ...extra,
    });
    clients.push(client);
    return client;
  };
  const asDevice = (issued: IssuedToken, brokerUrl = url, extra: IClientOptions = {}) =>
    connect(brokerUrl, { username: String(issued.id), password: issued.token, ...extra });

  const listen = async (client: MqttClient, topics: string[]): Promise<Listener> => {
    const received: Listener['received'] = [];
    client.on('message', (topic, payload) => received.push({ topic, payload: payload.toString() }));
    await client.subscribeAsync(topics, { qos: 1 });
    return { client, received };
  };
  const ingestListener = async () =>
    listen(await connect(url, INGEST), [`$share/sitewatch/${root}/+/positions`]);

  const until = async (check: () => boolean, what: string, timeoutMs = 5000) => {
    const deadline = Date.now() + timeoutMs;
    while (!check()) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  };

  beforeAll(async () => {
    t = await startTestApp();
    siteA = (await demoFloor(t.db)).siteId;
    other = await seedOtherTenant(t.db);
    siteB = other.siteId;
    bearer = await t.loginAs('super-admin');
    tokenA = await issueToken(siteA, 'Gateway A');
    tokenB = await issueToken(siteB, 'Gateway B');
    tokenToRevoke = await issueToken(siteA, 'Gateway A, lost');
    // A token issued before broker hashes were kept.
    const [legacy] = await t.db
      .insert(deviceTokens)
      .values({ siteId: siteA, tokenHash: hashToken('legacy-token'), label: 'Old gateway' })
      .returning();
    legacyTokenId = legacy.id;

    dir = mkdtempSync(join(tmpdir(), 'sw-mosquitto-conf-'));
    const tlsDir = join(dir, 'tls');
    mkdirSync(tlsDir);
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-days',
        '1',
        '-subj',
        '/CN=localhost',
        '-addext',
        'subjectAltName=IP:127.0.0.1,DNS:localhost',
        '-keyout',
        join(tlsDir, 'key.pem'),
        '-out',
        join(tlsDir, 'cert.pem'),
      ],
      { stdio: 'ignore' },
    );
    certificate = readFileSync(join(tlsDir, 'cert.pem'));

    const [port, tlsPort] = [await freePort(), await freePort()];
    url = `mqtt://127.0.0.1:${port}`;
    tlsUrl = `mqtts://127.0.0.1:${tlsPort}`;
    options = {
      outDir: join(dir, 'out'),
      topicRoot: root,
      ingest: INGEST,
      listener: { host: '127.0.0.1', port },
      tls: {
        port: tlsPort,
        host: '127.0.0.1',
        certFile: join(tlsDir, 'cert.pem'),
        keyFile: join(tlsDir, 'key.pem'),
      },
    };
    await regenerate();
    broker = await startMosquitto(join(dir, 'out', 'mosquitto.conf'));
  });

  afterAll(async () => {
    await Promise.allSettled(clients.map((client) => client.endAsync(true)));
    await broker?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
    await t?.close();
  });

  it('writes one login per live token with a broker hash and names the tokens to re-issue', async () => {
    const result = await regenerate();
    expect(result.needingReissue).toEqual([{ id: legacyTokenId, siteId: siteA, label: 'Old gateway' }]);
    const users = readFileSync(result.passwordPath, 'utf8')
      .trim()
      .split('\n')
      .map((line) => line.split(':')[0]);
    expect(users.sort()).toEqual(
      [INGEST.username, String(tokenA.id), String(tokenB.id), String(tokenToRevoke.id)].sort(),
    );
    expect(readFileSync(result.confPath, 'utf8')).toMatch(/^allow_anonymous false$/m);
  });

  it('refuses anonymous clients and wrong passwords', async () => {
    await expect(connect(url)).rejects.toThrow(/not authori[sz]ed/i);
    await expect(connect(url, { username: String(tokenA.id), password: tokenB.token })).rejects.toThrow(
      /not authori[sz]ed/i,
    );
    await expect(connect(url, { username: String(legacyTokenId), password: 'legacy-token' })).rejects.toThrow(
      /not authori[sz]ed/i,
    );
  });

  it("delivers a device's own positions to the ingest's shared subscription, never another site's", async () => {
    const ingest = await ingestListener();
    const device = await asDevice(tokenA);
    await device.publishAsync(`${root}/${siteB}/positions`, 'forged for B', { qos: 1 });
    await device.publishAsync(`${root}/${siteA}/positions`, 'own positions', { qos: 1 });
    await until(() => ingest.received.length > 0, 'the own positions');
    // Mosquitto delivers one publisher's messages in order: the forged one would have come first.
    expect(ingest.received).toEqual([{ topic: `${root}/${siteA}/positions`, payload: 'own positions' }]);
    await ingest.client.endAsync();
  });

  it("lets no device read another site's topics, through # or by name", async () => {
    const deviceB = await asDevice(tokenB);
    const snoop = await listen(deviceB, ['#', `${root}/${siteA}/positions`, `${root}/${siteA}/commands`]);
    const deviceA = await asDevice(tokenA);
    await deviceA.publishAsync(`${root}/${siteA}/positions`, 'A positions', { qos: 1 });
    const server = await connect(url, INGEST);
    await server.publishAsync(`${root}/${siteA}/commands`, 'for A', { qos: 1 });
    await server.publishAsync(`${root}/${siteB}/commands`, 'for B', { qos: 1 });
    await until(() => snoop.received.some((m) => m.payload === 'for B'), "B's own command");
    expect(snoop.received.map((m) => m.payload)).toEqual(['for B']);
  });

  it('refuses and disconnects a revoked token once the files are regenerated and Mosquitto gets SIGHUP', async () => {
    const connectedBefore = await asDevice(tokenToRevoke);
    const droppedAtReload = new Promise<void>((resolve) => connectedBefore.once('close', () => resolve()));
    const revoked = await t.call(bearer, {
      method: 'POST',
      url: `/api/sites/${siteA}/device-tokens/${tokenToRevoke.id}/revoke`,
    });
    expect(revoked.statusCode).toBe(200);
    await regenerate();
    broker?.reload();
    const refusedNow = async () => {
      try {
        (await asDevice(tokenToRevoke)).end(true);
        return false;
      } catch {
        return true;
      }
    };
    const deadline = Date.now() + 5000;
    while (!(await refusedNow())) {
      if (Date.now() > deadline) throw new Error('the revoked token still logs in');
      await new Promise((r) => setTimeout(r, 100));
    }
    // Mosquitto also drops a connection whose login left the password file.
    await droppedAtReload;
    // The other tokens carry on.
    expect((await asDevice(tokenA)).connected).toBe(true);
  });

  it('takes devices over TLS with the certificate authority and a token', async () => {
    const ingest = await ingestListener();
    const device = await asDevice(tokenB, tlsUrl, { ca: certificate });
    await device.publishAsync(`${root}/${siteB}/positions`, 'over TLS', { qos: 1 });
    await until(() => ingest.received.length > 0, 'the TLS positions');
    expect(ingest.received).toEqual([{ topic: `${root}/${siteB}/positions`, payload: 'over TLS' }]);
    await ingest.client.endAsync();
    await expect(connect(tlsUrl, { ca: certificate })).rejects.toThrow(/not authori[sz]ed/i);
  });
});
