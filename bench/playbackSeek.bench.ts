// Playback seek (issue 16 benchmark): a 10-hour day of 1,000 workers at 1 Hz (36 M positions) on
// one floor. Time to first frame after a seek to a random time (GET /api/floors/{id}/history from
// that time over HTTP to a listening server, the reply parsed and decoded into typed arrays, as the
// console's playback stream does) beside a plain fetch of one chunk (the same route following a
// chunk's nextCursor) in the same run; bytes per position of the chunk's JSON; and what the reply
// serialization costs through the schema-compiled serializer vs JSON.stringify (the route's choice).
// Goal: seek ≤ 2× a plain chunk.
// Usage: npx tsx bench/playbackSeek.bench.ts [--workers 1000] [--hours 10] [--budget-minutes 5]
//          [--samples 15] [--pg postgres://…/admin-db]
// Without --pg it runs on BENCH_DATABASE_URL or TEST_DATABASE_URL when set, else on PGlite.
// Generation stops at the budget: the day is then shorter, and the output says so.
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import Fastify from 'fastify';
import { buildApp } from '../server/app';
import { loadConfig } from '../server/config';
import { ok } from '../server/http/envelope';
import { HISTORY_CHUNK_POSITIONS } from '../src/domain/analytics';
import { decodeHistoryChunk } from '../src/domain/historyChunk';
import { type HistoryChunk, HistoryChunkSchema } from '../src/domain/schemas/analytics';
import { successOf } from '../src/domain/schemas/sites';
import { seedWalkers, writeWalks } from './analyticsDay';
import { openDemoSite, option } from './benchServer';
import { machine } from './measure';

const workerCount = Number(option('workers') ?? 1000);
const hours = Number(option('hours') ?? 10);
const budgetMs = Number(option('budget-minutes') ?? 5) * 60_000;
const samples = Number(option('samples') ?? 15);
const adminUrl = option('pg') ?? process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;

const log = (text: string) => process.stderr.write(`${text}\n`);
const site = await openDemoSite(adminUrl);
const { db, siteId } = site;
const floor = site.floorRows[0];
// Yesterday 07:00 UTC: inside the retention.
const startMs = Math.floor(Date.now() / 86_400_000) * 86_400_000 - 86_400_000 + 7 * 3_600_000;

const t0 = performance.now();
const helmets = await seedWalkers(db, siteId, workerCount);
const seconds = await writeWalks(db, {
  siteId,
  floor,
  helmets,
  startMs,
  seconds: hours * 3600,
  budgetMs,
  onSlice: (s) => log(`positions: ${s} s (${Math.round((performance.now() - t0) / 1000)} s elapsed)`),
});
const generationMs = performance.now() - t0;
await db.execute('analyze');
const positions = seconds * helmets.length;
log(`${positions} positions in ${Math.round(generationMs / 1000)} s`);

const app = await buildApp({ db, config: loadConfig({}) });
await app.listen({ port: 0, host: '127.0.0.1' });
const origin = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
const login = await fetch(`${origin}/api/login`, {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ email: 'site-admin@demo.sitewatch.dev', password: 'sitewatch-demo' }),
});
const token = ((await login.json()) as { data: { access_token: string } }).data.access_token;
const dayEnd = new Date(startMs + seconds * 1000).toISOString();

/** One chunk over HTTP, parsed and decoded: what the playback stream waits for before a frame. */
async function chunkAt(from: string, cursor?: string) {
  const started = performance.now();
  const url = `${origin}/api/floors/${floor.id}/history?from=${from}&to=${dayEnd}${cursor ? `&cursor=${cursor}` : ''}`;
  const reply = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
  const text = await reply.text();
  if (reply.status !== 200) throw new Error(`history answered ${reply.status}: ${text.slice(0, 200)}`);
  const chunk = (JSON.parse(text) as { data: HistoryChunk }).data;
  const decoded = decodeHistoryChunk(chunk);
  return {
    ms: performance.now() - started,
    bytes: Buffer.byteLength(text),
    count: decoded.times.length,
    chunk,
  };
}

// A seeded sequence of seek times, none in the day's last chunk-worth of seconds.
let seed = 16;
const random = () => {
  seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
  return seed / 2_147_483_648;
};
const lastSeekSecond = Math.max(1, seconds - Math.ceil(HISTORY_CHUNK_POSITIONS / helmets.length) - 1);
const seekTime = () => new Date(startMs + Math.floor(random() * lastSeekSecond) * 1000).toISOString();

await chunkAt(seekTime()); // warm-up
const seeks: number[] = [];
const plain: number[] = [];
const bytesPerPosition: number[] = [];
for (let i = 0; i < samples; i++) {
  // A seek: the first chunk at a random time.
  const seek = await chunkAt(seekTime());
  seeks.push(seek.ms);
  bytesPerPosition.push(seek.bytes / seek.count);
  // A plain fetch: the next chunk of that playback, through its cursor.
  if (!seek.chunk.nextCursor) throw new Error('the seek chunk has no next chunk');
  const next = await chunkAt(seek.chunk.from, seek.chunk.nextCursor);
  plain.push(next.ms);
}
await app.close();

// Serialization of one full chunk's envelope: the schema-compiled serializer vs JSON.stringify.
const sample = await (async () => {
  const first = await (async () => {
    const again = await buildApp({ db, config: loadConfig({}) });
    const reply = await again.inject({
      method: 'GET',
      url: `/api/floors/${floor.id}/history?from=${new Date(startMs).toISOString()}&to=${dayEnd}`,
      headers: { authorization: `Bearer ${token}` },
    });
    await again.close();
    return reply.json().data as HistoryChunk;
  })();
  const serializers = Fastify();
  const schema = { response: { 200: successOf(HistoryChunkSchema) } };
  serializers.get('/compiled', { schema }, async () => ok(first));
  serializers.get('/stringify', { schema }, async (_, reply) =>
    reply.serializer(JSON.stringify).send(ok(first)),
  );
  const timeOf = async (url: string) => {
    await serializers.inject({ method: 'GET', url });
    const runs: number[] = [];
    for (let i = 0; i < 9; i++) {
      const started = performance.now();
      await serializers.inject({ method: 'GET', url });
      runs.push(performance.now() - started);
    }
    return median(runs);
  };
  const compiledMs = await timeOf('/compiled');
  const stringifyMs = await timeOf('/stringify');
  await serializers.close();
  return { positions: first.t.length, compiledMs: round(compiledMs), stringifyMs: round(stringifyMs) };
})();

function median(values: number[]): number {
  return [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
}
function round(value: number): number {
  return Number(value.toFixed(1));
}
const percentile = (values: number[], q: number) =>
  round([...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(q * values.length))]);

console.log(
  JSON.stringify(
    {
      bench: 'playbackSeek',
      database: site.database.driver,
      machine: machine(),
      workers: helmets.length,
      hoursAsked: hours,
      hoursGenerated: round(seconds / 3600),
      positions,
      generationSeconds: Math.round(generationMs / 1000),
      chunkPositions: HISTORY_CHUNK_POSITIONS,
      seekFirstFrameMs: { p50: percentile(seeks, 0.5), p95: percentile(seeks, 0.95), samples },
      plainChunkMs: { p50: percentile(plain, 0.5), p95: percentile(plain, 0.95), samples },
      seekOverPlain: round(median(seeks) / median(plain)),
      bytesPerPosition: round(median(bytesPerPosition)),
      serialization: sample,
      goal: 'seek ≤ 2× a plain chunk',
    },
    null,
    2,
  ),
);
await site.dispose();
