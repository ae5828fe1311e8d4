// Evacuation latency: with N workers included in a running evacuation (and most of them moving
// at 1 Hz through the broker), the time from an `acknowledge` press or an assembly-zone entry
// published at the broker to the status change reaching a socket.io client, beside the plain
// locationUpdate path (position published → locationUpdate received) measured in the same run.
// Usage: npx tsx bench/evacuation.bench.ts [--workers 5000] [--samples 200] [--pg postgres://…/admin-db]
//          [--mqtt mqtt://127.0.0.1:1883]
import { eq } from 'drizzle-orm';
import { connectAsync } from 'mqtt';
import { evacuationWorkers } from '../server/db/schema';
import { startLoadGenerator } from '../server/simulator/loadGenerator';
import { type EvacuatingBatch, SAFETY_EVENTS, type StartEvacuationReply } from '../src/domain/evacuation';
import { LIVE_EVENTS, type LocationUpdate, topicFor } from '../src/domain/live';
import { openDemoSite, option, startBenchServer } from './benchServer';
import { machine } from './measure';
import { placeOnlineHelmets, siteAssemblyZones } from './onlineHelmets';

const workerCount = Number(option('workers') ?? 5000);
const sampleCount = Number(option('samples') ?? 200);
const adminUrl = option('pg');
const externalBroker = option('mqtt');

const { database, db, siteId, floorRows, dispose } = await openDemoSite(adminUrl);
const assembly = await siteAssemblyZones(db, siteId);
const centroid = (ring: [number, number][]) => ({
  long: ring.reduce((s, [long]) => s + long, 0) / ring.length,
  lat: ring.reduce((s, [, lat]) => s + lat, 0) / ring.length,
});

const placed = await placeOnlineHelmets(db, siteId, floorRows, workerCount);

// The measured workers publish only when measured; everyone else walks at 1 Hz.
const measured = placed.slice(0, sampleCount * 2);
const background = placed.slice(sampleCount * 2);

const server = await startBenchServer({
  db,
  siteId,
  externalBroker,
  email: 'site-admin@demo.sitewatch.dev',
  publishTo: (live) => live.publisher,
});
const { topicRoot, liveData, socket } = server;

type Waiter = { match: (value: unknown) => boolean; resolve: () => void };
const waiters = new Set<Waiter>();
function settle(value: unknown) {
  for (const waiter of waiters)
    if (waiter.match(value)) {
      waiters.delete(waiter);
      waiter.resolve();
    }
}
let batches = 0;
socket.on(SAFETY_EVENTS.evacuating, (batch: EvacuatingBatch) => {
  batches++;
  for (const worker of batch.workers) settle(worker);
});
socket.on(LIVE_EVENTS.locationUpdate, (update: LocationUpdate) => {
  for (const worker of update.workers) settle(worker);
});
function heard(match: (value: Record<string, unknown>) => boolean, timeoutMs = 10_000): Promise<void> {
  return new Promise((resolve, reject) => {
    const waiter: Waiter = { match: (v) => match(v as Record<string, unknown>), resolve };
    waiters.add(waiter);
    setTimeout(() => {
      if (waiters.delete(waiter)) reject(new Error('timed out'));
    }, timeoutMs);
  });
}

const reply = await new Promise<StartEvacuationReply>((resolve) =>
  socket.emit(
    SAFETY_EVENTS.startEvacuation,
    {
      siteId,
      floorIds: floorRows.map((f) => f.id),
      zoneIds: [],
      assemblyZoneIds: assembly.map((z) => z.id),
      safeZone: null,
      gateWayId: null,
    },
    resolve,
  ),
);
if (reply.status !== 'success') throw new Error(`start refused: ${reply.message}`);
const included = await db.$count(
  evacuationWorkers,
  eq(evacuationWorkers.sessionId, reply.data?.evacuationSessionId ?? ''),
);

const load = await startLoadGenerator({
  brokerUrl: liveData.brokerUrl,
  login: server.deviceLogin,
  topicRoot,
  siteId,
  helmets: background.map((h) => ({ tag: h.tag, floorId: h.floor.id, corners: h.corners })),
  hz: 1,
});
const publisher = await connectAsync(liveData.brokerUrl, {
  clientId: `${topicRoot}-measure`,
  ...server.deviceLogin,
});
await new Promise((r) => setTimeout(r, 3000));

const publishAt = (kind: 'positions' | 'events', body: unknown) =>
  publisher.publishAsync(topicFor(siteId, kind, topicRoot), JSON.stringify(body), { qos: 1 });
const latency = {
  locationUpdate: [] as number[],
  acknowledge: [] as number[],
  assemblyEntry: [] as number[],
};
let failures = 0;

async function timed(list: number[], send: () => Promise<unknown>, until: Promise<void>) {
  const started = performance.now();
  await send();
  try {
    await until;
    list.push(performance.now() - started);
  } catch {
    failures++;
  }
}

for (let i = 0; i < sampleCount; i++) {
  const walker = measured[i];
  const arriving = measured[sampleCount + i];
  const ts = new Date().toISOString();
  const floorMiddle = {
    lat: (walker.floor.aLat + walker.floor.cLat) / 2 + 1e-6 * (i + 1),
    long: (walker.floor.aLong + walker.floor.cLong) / 2,
  };
  // The plain path: a position outside every assembly zone, heard as a locationUpdate.
  await timed(
    latency.locationUpdate,
    () =>
      publishAt('positions', {
        tag: walker.tag,
        ts,
        ...floorMiddle,
        floorId: walker.floor.id,
        online: true,
        active: true,
      }),
    heard((w) => w.inventory_id === walker.id && w.last_seen === ts),
  );
  // The button: the same worker turns manualAcknowledge.
  await timed(
    latency.acknowledge,
    () => publishAt('events', { tag: walker.tag, ts: new Date().toISOString(), type: 'acknowledge' }),
    heard((w) => w.id === walker.workerId && w.isWorkerAcknowledged === true),
  );
  // Reaching the assembly zone: another worker turns safe.
  const zone = assembly[i % assembly.length];
  await timed(
    latency.assemblyEntry,
    () =>
      publishAt('positions', {
        tag: arriving.tag,
        ts: new Date().toISOString(),
        ...centroid(zone.coordinates),
        floorId: zone.floorId,
        online: true,
        active: true,
      }),
    heard((w) => w.id === arriving.workerId && w.status === 'safe'),
  );
}
const offered = load.stats();
await load.close();

const summary = (samples: number[]) => {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) =>
    sorted.length
      ? Number(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))].toFixed(1))
      : null;
  return { samples: sorted.length, p50: at(0.5), p95: at(0.95), p99: at(0.99) };
};
console.log(
  JSON.stringify(
    {
      benchmark: 'evacuation',
      database: database.driver,
      broker: externalBroker ? 'external' : 'embedded (aedes)',
      machine: machine(),
      workersIncluded: included,
      backgroundHelmetsAt1Hz: background.length,
      backgroundPositionsPublished: offered.published,
      evacuatingBatches: batches,
      timeouts: failures,
      brokerToSocketMs: {
        acknowledgeToManualAcknowledge: summary(latency.acknowledge),
        assemblyEntryToSafe: summary(latency.assemblyEntry),
        baseline: {
          what: 'position → locationUpdate (the plain live path)',
          ...summary(latency.locationUpdate),
        },
      },
      targetP99Ms: 250,
    },
    null,
    2,
  ),
);

await publisher.endAsync();
await server.close();
await dispose();
process.exit(0);
