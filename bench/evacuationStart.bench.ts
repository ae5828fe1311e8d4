// Evacuation start at scale: with N workers online on the demo site's floors (all of them
// included), the time from `startEvacuation` to the first full `evacuationInProgress` snapshot on
// the wall screen's socket, beside the live snapshot of the same site (`requestSnapshot`, every
// worker on the map) measured in the same run, rounds alternating. Goal: ≤ 1.5× the live snapshot.
// Usage: npx tsx bench/evacuationStart.bench.ts [--workers 10000] [--rounds 5] [--pg postgres://…/admin-db]
//          [--mqtt mqtt://127.0.0.1:1883]
import { performance } from 'node:perf_hooks';
import {
  type EndEvacuationReply,
  type EvacuationSnapshot,
  SAFETY_EVENTS,
  type StartEvacuationReply,
} from '../src/domain/evacuation';
import { LIVE_EVENTS, type LiveSnapshot } from '../src/domain/live';
import { openDemoSite, option, startBenchServer } from './benchServer';
import { machine } from './measure';
import { placeOnlineHelmets, siteAssemblyZones } from './onlineHelmets';

const workerCount = Number(option('workers') ?? 10_000);
const rounds = Number(option('rounds') ?? 5);
const adminUrl = option('pg');
const externalBroker = option('mqtt');

const { database, db, siteId, floorRows, dispose } = await openDemoSite(adminUrl);
const assembly = await siteAssemblyZones(db, siteId);
const placed = await placeOnlineHelmets(db, siteId, floorRows, workerCount);
const server = await startBenchServer({
  db,
  siteId,
  externalBroker,
  email: 'site-admin@demo.sitewatch.dev',
  publishTo: (live) => live.publisher,
});
const { socket } = server;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function liveSnapshot(): Promise<{ ms: number; workers: number }> {
  const t0 = performance.now();
  const snapshot = (await socket.timeout(60_000).emitWithAck(LIVE_EVENTS.requestSnapshot)) as LiveSnapshot;
  return { ms: performance.now() - t0, workers: snapshot.workers.length };
}

async function evacuationStart(): Promise<{ ms: number; included: number }> {
  const t0 = performance.now();
  const arrived = new Promise<EvacuationSnapshot>((resolve) =>
    socket.once(SAFETY_EVENTS.evacuationInProgress, resolve),
  );
  const reply = (await socket.timeout(60_000).emitWithAck(SAFETY_EVENTS.startEvacuation, {
    siteId,
    floorIds: floorRows.map((f) => f.id),
    zoneIds: [],
    assemblyZoneIds: assembly.map((z) => z.id),
    safeZone: null,
    gateWayId: null,
  })) as StartEvacuationReply;
  if (reply.status !== 'success') throw new Error(`start refused: ${reply.message}`);
  const snapshot = await arrived;
  const ms = performance.now() - t0;
  // Let the alarm commands go out, then end it for the next round.
  await pause(1500);
  const ended = (await socket.timeout(60_000).emitWithAck(SAFETY_EVENTS.endEvacuation, {
    siteId,
    evacuationSessionId: snapshot.evacuation.evacuationSessionId,
  })) as EndEvacuationReply;
  if (ended.status !== 'success') throw new Error(`end refused: ${ended.message}`);
  await pause(1500);
  return { ms, included: snapshot.workers.length };
}

// A warm-up of each, then alternating rounds.
await liveSnapshot();
await evacuationStart();
const live: number[] = [];
const evacuation: number[] = [];
let included = 0;
let onMap = 0;
for (let round = 0; round < rounds; round++) {
  const a = await liveSnapshot();
  live.push(a.ms);
  onMap = a.workers;
  await pause(500);
  const b = await evacuationStart();
  evacuation.push(b.ms);
  included = b.included;
}
const median = (values: number[]) => {
  const sorted = [...values].sort((x, y) => x - y);
  return Number(sorted[Math.floor(sorted.length / 2)].toFixed(1));
};
console.log(
  JSON.stringify(
    {
      benchmark: 'evacuationStart',
      database: database.driver,
      broker: externalBroker ? 'external' : 'embedded (aedes)',
      machine: machine(),
      helmetsPlaced: placed.length,
      workersIncluded: included,
      workersInLiveSnapshot: onMap,
      rounds,
      startToFirstSnapshotMs: {
        median: median(evacuation),
        all: evacuation.map((v) => Number(v.toFixed(1))),
      },
      baseline: {
        what: 'requestSnapshot → the live snapshot of the same site',
        median: median(live),
        all: live.map((v) => Number(v.toFixed(1))),
      },
      ratio: Number((median(evacuation) / median(live)).toFixed(2)),
      goal: '≤ 1.5',
    },
    null,
    2,
  ),
);
await server.close();
await dispose();
process.exit(0);
