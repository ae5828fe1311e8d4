import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import mqtt from 'mqtt';
import { afterAll, describe, expect, it } from 'vitest';
import { topicFor } from '../../src/domain/live';
import { createGatewayLogin } from './helpers/deviceLogin';
import { connectLive } from './helpers/liveClient';
import { freePort, type ServerProcess, startServerProcess, waitForOutput } from './helpers/serverProcess';

const READY = 'Sitewatch is running at';

async function api(port: number, path: string, token?: string, body?: unknown) {
  const response = await fetch(`http://127.0.0.1:${port}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return response.json();
}

// One process on the embedded database and broker, killed without warning and started again.
describe.skipIf(process.env.SITEWATCH_TEST_DRIVER === 'pg')('live state across a server crash', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'sitewatch-live-restart-'));
  const running: ServerProcess[] = [];
  afterAll(() => {
    for (const server of running) server.child.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });

  async function start() {
    const port = await freePort();
    const safetyPort = await freePort();
    const mqttPort = await freePort();
    const server = startServerProcess({
      DATA_DIR: dataDir,
      PORT: String(port),
      SAFETY_PORT: String(safetyPort),
      MQTT_PORT: String(mqttPort),
    });
    running.push(server);
    await waitForOutput(server, READY);
    return { server, port, safetyPort, brokerUrl: `mqtt://127.0.0.1:${mqttPort}` };
  }

  it('rebuilds what the live channel shows from the database after kill -9', async () => {
    const first = await start();
    const token = (
      await api(first.port, '/api/login', undefined, {
        email: 'site-admin@demo.sitewatch.dev',
        password: 'sitewatch-demo',
      })
    ).data.access_token as string;
    const clients = (await api(first.port, '/api/clients', token)).data;
    const siteId = (await api(first.port, `/api/clients/${clients[0].id}/sites`, token)).data[0].id as number;
    const buildings = (await api(first.port, `/api/sites/${siteId}/buildings`, token)).data;
    const floors = (await api(first.port, `/api/sites/${siteId}/floors?sort=altitude`, token)).data;
    const floor = floors.find((f: { building_id: number }) => f.building_id === buildings[0].id);
    const helmets = (await api(first.port, `/api/sites/${siteId}/inventories?type=helmet`, token)).data;
    const helmet = helmets.find((h: { worker_id: number | null }) => h.worker_id !== null);
    const { a, c } = floor.coordinates;
    const at = { lat: (a.lat + c.lat) / 2, long: (a.long + c.long) / 2 };
    const ts = new Date().toISOString();

    const publisher = await mqtt.connectAsync(
      first.brokerUrl,
      await createGatewayLogin(`http://127.0.0.1:${first.port}`, token, siteId),
    );
    await publisher.publishAsync(
      topicFor(siteId, 'positions'),
      JSON.stringify([
        { tag: helmet.wnt_inventory_id, ts, ...at, floorId: floor.id, online: true, active: true },
      ]),
      { qos: 1 },
    );
    await publisher.endAsync();
    // Acknowledged means committed: the helmet is on the floor now.
    const live = connectLive(`http://127.0.0.1:${first.safetyPort}`, { token, siteId, floorId: floor.id });
    const before = await live.firstSnapshot();
    live.close();
    const seen = before.workers.find((w) => w.inventory_id === helmet.id);
    expect(seen).toMatchObject({ is_online: true, blueprint_id: floor.id, last_seen: ts });

    first.server.child.kill('SIGKILL');
    await first.server.exited;

    const second = await start();
    const again = connectLive(`http://127.0.0.1:${second.safetyPort}`, { token, siteId, floorId: floor.id });
    const after = await again.firstSnapshot();
    again.close();
    expect(after.stream).not.toBe(before.stream);
    expect(after.workers.find((w) => w.inventory_id === helmet.id)).toEqual(seen);
    second.server.child.kill('SIGTERM');
    expect(await second.server.exited).toBe(0);
  }, 120_000);
});
