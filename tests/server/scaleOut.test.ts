import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import mqtt from 'mqtt';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { topicFor } from '../../src/domain/live';
import { connectLive, type LiveClient } from './helpers/liveClient';
import { freePort, type ServerProcess, startServerProcess, waitForOutput } from './helpers/serverProcess';

const READY = 'Sitewatch is running at';
const adminUrl = process.env.TEST_DATABASE_URL;
const mqttUrl = process.env.TEST_MQTT_URL;
const redisUrl = process.env.TEST_REDIS_URL;
const runs = process.env.SITEWATCH_TEST_DRIVER === 'pg' && adminUrl && mqttUrl && redisUrl;

/**
 * DESIGN §1 scale-out: two server processes on one PostgreSQL database, one external broker and
 * one Redis. The broker splits the ingest between them (shared subscription) and the Redis
 * adapter carries what one ingests to the other's socket clients.
 */
describe.skipIf(!runs)('two server processes on PostgreSQL, Mosquitto and Redis', () => {
  const name = `sitewatch_scale_${randomBytes(4).toString('hex')}`;
  const topicRoot = `sw-scale-${randomBytes(4).toString('hex')}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'sitewatch-scale-'));
  const servers: { process: ServerProcess; port: number; safetyPort: number }[] = [];
  let admin: pg.Client;
  let db: pg.Client;
  let client: LiveClient | undefined;

  async function start(index: number) {
    const url = new URL(adminUrl!);
    url.pathname = `/${name}`;
    const port = await freePort();
    const safetyPort = await freePort();
    const process = startServerProcess({
      DATABASE_URL: url.toString(),
      DATA_DIR: dataDir,
      PORT: String(port),
      SAFETY_PORT: String(safetyPort),
      MQTT_URL: mqttUrl!,
      MQTT_TOPIC_ROOT: topicRoot,
      MQTT_CLIENT_ID: `${topicRoot}-${index}`,
      REDIS_URL: redisUrl!,
    });
    servers.push({ process, port, safetyPort });
    await waitForOutput(process, READY);
    return servers[servers.length - 1];
  }

  beforeAll(async () => {
    admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    // The first process migrates and seeds; the second starts on the seeded database.
    await start(1);
    await start(2);
    const url = new URL(adminUrl!);
    url.pathname = `/${name}`;
    db = new pg.Client({ connectionString: url.toString() });
    await db.connect();
  }, 180_000);

  afterAll(async () => {
    client?.close();
    for (const server of servers) server.process.child.kill('SIGTERM');
    await Promise.all(servers.map((s) => s.process.exited));
    await db?.end();
    await admin?.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin?.end();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('splits the ingest between the processes, stores each position once and delivers it to a socket client of the other', async () => {
    const [first, second] = servers;
    const login = await fetch(`http://127.0.0.1:${first.port}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'site-admin@demo.sitewatch.dev', password: 'sitewatch-demo' }),
    });
    const token = (await login.json()).data.access_token as string;
    const {
      rows: [helmet],
    } = await db.query(
      `select i.id, i.site_id, i.wnt_inventory_id, f.id as floor_id, f.a_lat, f.a_long, f.c_lat, f.c_long
         from inventory_items i join sites s on s.id = i.site_id
         join buildings b on b.site_id = s.id join floors f on f.building_id = b.id
        where i.type = 'helmet' and i.worker_id is not null order by i.id, f.id limit 1`,
    );
    client = connectLive(`http://127.0.0.1:${second.safetyPort}`, { token, siteId: helmet.site_id });
    await client.firstSnapshot();

    const publisher = await mqtt.connectAsync(mqttUrl!);
    // Just past, so no timestamp is refused as from the future, and within OFFLINE_AFTER (60 s), so
    // the offline sweep does not turn the helmet offline between two of them when the machine is busy.
    const start = Date.now() - 45_000;
    const count = 40;
    for (let i = 0; i < count; i++) {
      const position = {
        tag: helmet.wnt_inventory_id,
        ts: new Date(start + i * 1000).toISOString(),
        lat: (helmet.a_lat + helmet.c_lat) / 2,
        long: (helmet.a_long + helmet.c_long) / 2,
        floorId: helmet.floor_id,
        online: true,
        active: true,
      };
      await publisher.publishAsync(
        topicFor(helmet.site_id, 'positions', topicRoot),
        JSON.stringify(position),
        {
          qos: 1,
        },
      );
    }
    await publisher.endAsync();

    // Every message reached exactly one process, and each process took some.
    const handled = async () => {
      const stats = await Promise.all(
        servers.map(async (s) => {
          const health = await fetch(`http://127.0.0.1:${s.safetyPort}/api/safety/health`);
          return (await health.json()).data.ingest.messages as number;
        }),
      );
      return stats;
    };
    const deadline = Date.now() + 15_000;
    let perProcess = await handled();
    while (perProcess[0] + perProcess[1] < count && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 200));
      perProcess = await handled();
    }
    expect(perProcess[0] + perProcess[1]).toBe(count);
    expect(perProcess[0]).toBeGreaterThan(0);
    expect(perProcess[1]).toBeGreaterThan(0);

    const { rows } = await db.query('select count(*)::int as n from positions where inventory_item_id = $1', [
      helmet.id,
    ]);
    expect(rows[0].n).toBe(count);

    // The socket client on the second process heard positions, including ones the first ingested.
    const heardDeadline = Date.now() + 10_000;
    const heard = () =>
      client!.updates.flatMap((u) => u.workers).filter((w) => w.inventory_id === helmet.id && w.is_online);
    while (heard().length < count && Date.now() < heardDeadline) await new Promise((r) => setTimeout(r, 100));
    expect(heard().length).toBeGreaterThan(perProcess[1]);
    const newest = new Date(start + (count - 1) * 1000).toISOString();
    expect(heard().map((w) => w.last_seen)).toContain(newest);
  }, 60_000);
});
