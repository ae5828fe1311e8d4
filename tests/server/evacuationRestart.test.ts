import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import mqtt from 'mqtt';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import type { EvacuationSnapshot, EvacuationStatus } from '../../src/domain/evacuation';
import { topicFor } from '../../src/domain/live';
import { createGatewayLogin } from './helpers/deviceLogin';
import { connectSafety, type SafetyClient } from './helpers/safetyClient';
import { freePort, type ServerProcess, startServerProcess, waitForOutput } from './helpers/serverProcess';
import { databaseUrlFor } from './helpers/templateDatabase';

const READY = 'Sitewatch is running at';
const onPostgres = process.env.SITEWATCH_TEST_DRIVER === 'pg';
const adminUrl = process.env.TEST_DATABASE_URL;

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

const statusesOf = (snapshot: EvacuationSnapshot) =>
  Object.fromEntries(snapshot.workers.map((w) => [w.id, w.status])) as Record<string, EvacuationStatus>;

// Real server processes killed without warning: on the embedded database (PGlite in DATA_DIR) in
// the server project, on a PostgreSQL database of its own in server-pg.
describe.skipIf(onPostgres && !adminUrl)('an evacuation across a server crash', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'sitewatch-evacuation-restart-'));
  const databaseName = `sitewatch_restart_${randomBytes(6).toString('hex')}`;
  const running: ServerProcess[] = [];
  const clients: SafetyClient[] = [];

  afterAll(async () => {
    for (const client of clients) client.close();
    for (const server of running) server.child.kill('SIGKILL');
    await Promise.all(running.map((server) => server.exited));
    rmSync(dataDir, { recursive: true, force: true });
    if (onPostgres && adminUrl) {
      const admin = new pg.Client({ connectionString: adminUrl });
      await admin.connect();
      await admin.query(`DROP DATABASE IF EXISTS ${databaseName} WITH (FORCE)`);
      await admin.end();
    }
  });

  async function start() {
    const port = await freePort();
    const safetyPort = await freePort();
    const mqttPort = await freePort();
    const server = startServerProcess({
      ...(onPostgres && adminUrl
        ? { DATABASE_URL: databaseUrlFor(adminUrl, databaseName), DATA_DIR: dataDir }
        : { DATA_DIR: dataDir }),
      PORT: String(port),
      SAFETY_PORT: String(safetyPort),
      MQTT_PORT: String(mqttPort),
      // The helmets' silence while the server is down must not be what changes a status here.
      OFFLINE_AFTER: '3600',
    });
    running.push(server);
    await waitForOutput(server, READY);
    return { server, port, safetyPort, brokerUrl: `mqtt://127.0.0.1:${mqttPort}` };
  }

  it('comes back with the same session and every worker in the same status after kill -9', async () => {
    if (onPostgres && adminUrl) {
      const admin = new pg.Client({ connectionString: adminUrl });
      await admin.connect();
      await admin.query(`CREATE DATABASE ${databaseName}`);
      await admin.end();
    }
    const first = await start();
    const token = (
      await api(first.port, '/api/login', undefined, {
        email: 'site-admin@demo.sitewatch.dev',
        password: 'sitewatch-demo',
      })
    ).data.access_token as string;
    const clientList = (await api(first.port, '/api/clients', token)).data;
    const siteId = (await api(first.port, `/api/clients/${clientList[0].id}/sites`, token)).data[0]
      .id as number;
    const buildings = (await api(first.port, `/api/sites/${siteId}/buildings`, token)).data;
    const floors = (await api(first.port, `/api/sites/${siteId}/floors?sort=altitude`, token)).data.filter(
      (f: { building_id: number }) => f.building_id === buildings[0].id,
    );
    const level1 = floors.find((f: { name: string }) => f.name === 'Level 1');
    const ground = floors.find((f: { name: string }) => f.name === 'Ground Floor');
    const assembly = (await api(first.port, `/api/sites/${siteId}/zones`, token)).data.find(
      (z: { kind: string; floor_id: number }) => z.kind === 'assembly' && z.floor_id === ground.id,
    );
    const helmets = (await api(first.port, `/api/sites/${siteId}/inventories?type=helmet`, token)).data
      .filter((h: { worker_id: number | null }) => h.worker_id !== null)
      .slice(0, 5) as { wnt_inventory_id: string; worker_id: number }[];
    const { a, c } = level1.coordinates;
    const inside = { lat: (a.lat + c.lat) / 2, long: (a.long + c.long) / 2 };
    // The demo assembly point spans 42–58 % of the width and 60–90 % of the height.
    const inAssembly = { lat: a.lat + 0.75 * (c.lat - a.lat), long: a.long + 0.5 * (c.long - a.long) };
    const at = (
      helmet: { wnt_inventory_id: string },
      floorId: number,
      point: typeof inside,
      online = true,
    ) => ({
      tag: helmet.wnt_inventory_id,
      ts: new Date().toISOString(),
      ...point,
      floorId,
      online,
      active: true,
    });

    const gateway = await createGatewayLogin(`http://127.0.0.1:${first.port}`, token, siteId);
    const devices = await mqtt.connectAsync(first.brokerUrl, gateway);
    const publish = (kind: 'positions' | 'events', body: unknown) =>
      devices.publishAsync(topicFor(siteId, kind), JSON.stringify(body), { qos: 1 });
    await publish(
      'positions',
      helmets.map((h) => at(h, level1.id, inside)),
    );

    const before = connectSafety(`http://127.0.0.1:${first.safetyPort}`, { token, siteId });
    clients.push(before);
    await before.firstSnapshot();
    // The broker's acknowledgement is not the ingest's: wait until the positions are committed.
    for (let tries = 0; ; tries++) {
      const map = await before.requestSnapshot();
      const onFloor = helmets.filter((h) =>
        map.workers.some((w) => w.wnt_inventory_id === h.wnt_inventory_id && w.blueprint_id === level1.id),
      );
      if (onFloor.length === helmets.length) break;
      if (tries > 100) throw new Error('the positions were never committed');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const started = await before.start({
      siteId,
      floorIds: [level1.id],
      zoneIds: [],
      assemblyZoneIds: [assembly.id],
      safeZone: null,
      gateWayId: null,
    });
    expect(started.status).toBe('success');
    const sessionId = started.data!.evacuationSessionId;
    const opening = await before.until('evacuationInProgress', () => before.inProgress[0]);
    expect(opening.counts.included).toBe(helmets.length);

    const [safe, acknowledging, silent] = helmets;
    await publish('positions', at(safe, ground.id, inAssembly));
    await publish('events', {
      tag: acknowledging.wnt_inventory_id,
      ts: new Date().toISOString(),
      type: 'acknowledge',
    });
    await publish('positions', at(silent, level1.id, inside, false));
    await before.until('the three changes', () => {
      const last = before.batches[before.batches.length - 1];
      return last &&
        last.counts.safe === 1 &&
        last.counts.manualAcknowledge === 1 &&
        last.counts.offline === 1
        ? last
        : undefined;
    });
    // A marshal marks one worker by hand, committed before the crash.
    const handMarked = helmets[3];
    const marking = await api(first.safetyPort, '/api/safety/evacuation/mark', token, {
      siteId,
      evacuationSessionId: sessionId,
      workerId: handMarked.worker_id,
      reason: 'Seen at muster point B',
    });
    expect(marking.status).toBe('success');
    await before.until('the mark', () =>
      before.batches.find((b) =>
        b.workers.some((w) => w.id === handMarked.worker_id && w.status === 'marked'),
      ),
    );
    const reply = await before.requestEvacuation();
    const seen = reply.data!;
    const statusesBefore = statusesOf(seen);
    expect(statusesBefore).toEqual({
      ...Object.fromEntries(helmets.map((h) => [h.worker_id, 'autoAcknowledge'])),
      [safe.worker_id]: 'safe',
      [acknowledging.worker_id]: 'manualAcknowledge',
      [silent.worker_id]: 'offline',
      [handMarked.worker_id]: 'marked',
    });
    await devices.endAsync();

    // A redirect of the assembly zone's people is on its way when the process dies.
    const level2 = floors.find((f: { name: string }) => f.name === 'Level 2');
    const elsewhere = (await api(first.port, `/api/sites/${siteId}/zones`, token)).data.find(
      (z: { floor_id: number }) => z.floor_id === level2.id,
    );
    void api(first.safetyPort, '/api/safety/evacuation/redirect', token, {
      siteId,
      evacuationSessionId: sessionId,
      unsafeZoneId: assembly.id,
      redirectZoneId: elsewhere.id,
    }).catch(() => null);
    await new Promise((resolve) => setTimeout(resolve, 15));
    first.server.child.kill('SIGKILL');
    await first.server.exited;

    const second = await start();
    const after = connectSafety(`http://127.0.0.1:${second.safetyPort}`, { token, siteId });
    clients.push(after);
    const again = await after.until(
      'evacuationInProgress after the restart',
      () => after.inProgress[0],
      15_000,
    );
    expect(again.evacuation.evacuationSessionId).toBe(sessionId);
    expect(again.evacuation.started).toBe(true);
    expect(again.evacuation.evacuationStartAt).toBe(seen.evacuation.evacuationStartAt);
    // The redirect is all there or not there at all: the zone unsafe and its worker sent on, or neither.
    const redirected = again.evacuation.unsafeAssemblyZoneIds.includes(assembly.id);
    const safeWorker = again.workers.find((w) => w.id === safe.worker_id);
    expect(again.evacuation.assemblyZoneIds.includes(assembly.id)).toBe(!redirected);
    expect(safeWorker?.redirectZoneId ?? null).toBe(redirected ? elsewhere.id : null);
    expect(safeWorker?.status).toBe(redirected ? 'autoAcknowledge' : 'safe');
    expect(statusesOf(again)).toEqual({ ...statusesBefore, [safe.worker_id]: safeWorker?.status });
    expect(again.workers.find((w) => w.id === handMarked.worker_id)?.mark).toMatchObject({
      reason: 'Seen at muster point B',
      markedBy: { name: 'Demo Site Admin' },
    });
    if (!redirected) expect(again.counts).toEqual(seen.counts);
    expect(again.counts.marked).toBe(1);
    // Every other worker exactly as stored: the reconcile pass changed nothing.
    const unmoved = (workers: EvacuationSnapshot['workers']) =>
      workers.filter((w) => w.id !== safe.worker_id);
    expect(
      unmoved(again.workers).map(({ id, status, statusChangedAt, safeAt, acknowledgedAt, includedAt }) => ({
        id,
        status,
        statusChangedAt,
        safeAt,
        acknowledgedAt,
        includedAt,
      })),
    ).toEqual(
      unmoved(seen.workers).map(({ id, status, statusChangedAt, safeAt, acknowledgedAt, includedAt }) => ({
        id,
        status,
        statusChangedAt,
        safeAt,
        acknowledgedAt,
        includedAt,
      })),
    );

    // The restarted service carries on with the same session: a press counts, and it ends.
    const moreDevices = await mqtt.connectAsync(second.brokerUrl, gateway);
    const last = helmets[helmets.length - 1];
    await moreDevices.publishAsync(
      topicFor(siteId, 'events'),
      JSON.stringify({ tag: last.wnt_inventory_id, ts: new Date().toISOString(), type: 'acknowledge' }),
      { qos: 1 },
    );
    await moreDevices.endAsync();
    const pressed = await after.until('the press after the restart', () => after.batches[0]);
    expect(pressed).toMatchObject({
      evacuationSessionId: sessionId,
      seq: again.seq + 1,
      stream: again.stream,
    });
    expect(pressed.workers).toMatchObject([{ id: last.worker_id, status: 'manualAcknowledge' }]);
    expect((await after.end({ siteId, evacuationSessionId: sessionId })).status).toBe('success');

    second.server.child.kill('SIGTERM');
    expect(await second.server.exited).toBe(0);
  }, 180_000);
});
