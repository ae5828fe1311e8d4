// The worker list at scale (issue 6 benchmark): GET /api/sites/{id}/workers — a page of 50,
// sorted by name, with a search — on a site of 10,000 workers with helmets, crews and shifts,
// under 50 concurrent connections over HTTP to a listening server (the load from a separate Node
// process), beside, in the same run at the same concurrency: the list statement
// counting every match on every request (as before totals were reused), the route's statement with
// its reused totals, and all three statements of a request (session, site, list page) run bare,
// so the route's own cost shows. Target: p99 under 50 ms.
// Usage: npx tsx bench/workerList.bench.ts [requests]
// With BENCH_DATABASE_URL (an admin URL of a PostgreSQL server) it runs on a throwaway database there.
import { spawn } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { buildApp } from '../server/app';
import { resolvePrincipal } from '../server/auth/authenticate';
import type { Principal } from '../server/auth/principal';
import { requireSite } from '../server/auth/tenancy';
import { loadConfig } from '../server/config';
import { WorkerListTotals } from '../server/workers/listTotals';
import { listWorkers, listWorkersSql } from '../server/workers/workerQueries';
import { machine } from './measure';
import { openScratchDatabase } from './scratchDatabase';
import { seedWorkforceAtScale, TOTAL_WORKERS } from './workforceAtScale';

const CONCURRENCY = 50;
const requests = Number(process.argv[2] ?? 2000);
const SEARCHES = ['a', 'al', 'emp-1', 'hlm-00', 'mo', 'san', 'e', 'ri'];

interface Result {
  label: string;
  requests: number;
  concurrency: number;
  requestsPerSecond: number;
  p50Ms: number;
  p95Ms: number;
  p99Ms: number;
  maxMs: number;
}

/** `total` calls of `task`, at most `concurrency` in flight (a promise pool), with per-call latency. */
async function pool(label: string, total: number, task: (i: number) => Promise<unknown>): Promise<Result> {
  for (let i = 0; i < CONCURRENCY; i++) await task(i); // warm-up
  const samples = new Float64Array(total);
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < total) {
        const i = next++;
        const t0 = performance.now();
        await task(i);
        samples[i] = performance.now() - t0;
      }
    }),
  );
  return summary(label, samples, performance.now() - started);
}

/** Requests per second and latency percentiles of one run. */
function summary(label: string, samples: Float64Array, elapsedMs: number): Result {
  const total = samples.length;
  samples.sort();
  const at = (q: number) => Number(samples[Math.min(total - 1, Math.floor(q * total))].toFixed(2));
  return {
    label,
    requests: total,
    concurrency: CONCURRENCY,
    requestsPerSecond: Math.round((total / elapsedMs) * 1000),
    p50Ms: at(0.5),
    p95Ms: at(0.95),
    p99Ms: at(0.99),
    maxMs: Number(samples[total - 1].toFixed(2)),
  };
}

/**
 * The HTTP load from a separate Node process, as another machine's client would be: `total` GETs
 * of `urls` in turn over keep-alive connections, at most `concurrency` in flight, with per-request
 * latency. It uses node:http, whose client costs about a quarter of fetch's per request, so the
 * client takes as little as it can of the two cores it shares with the server and the database.
 */
async function httpLoad(
  label: string,
  urls: string[],
  bearer: string,
  concurrency = CONCURRENCY,
): Promise<Result> {
  const code = `
    const http = require('node:http');
    const { urls, bearer, total, concurrency } = JSON.parse(process.argv[1]);
    const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
    const get = (i) => new Promise((resolve, reject) => {
      const request = http.get(urls[i % urls.length], { agent, headers: { authorization: 'Bearer ' + bearer } }, (reply) => {
        const chunks = [];
        reply.on('data', (chunk) => chunks.push(chunk));
        reply.on('end', () => reply.statusCode === 200
          ? resolve()
          : reject(new Error('unexpected ' + reply.statusCode + ' ' + Buffer.concat(chunks).toString().slice(0, 200))));
      });
      request.on('error', reject);
    });
    (async () => {
      for (let i = 0; i < concurrency; i++) await get(i);
      const samples = new Array(total);
      let next = 0;
      const started = performance.now();
      await Promise.all(Array.from({ length: concurrency }, async () => {
        while (next < total) {
          const i = next++;
          const t0 = performance.now();
          await get(i);
          samples[i] = performance.now() - t0;
        }
      }));
      process.stdout.write(JSON.stringify({ elapsed: performance.now() - started, samples }));
      agent.destroy();
    })().catch((error) => { process.stdout.write(JSON.stringify({ error: String(error) })); });`;
  const child = spawn(
    process.execPath,
    ['-e', code, JSON.stringify({ urls, bearer, total: requests, concurrency })],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  let output = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => {
    output += chunk;
  });
  await new Promise((done) => child.once('close', done));
  const reply = JSON.parse(output) as { elapsed: number; samples: number[]; error?: string };
  if (reply.error) throw new Error(reply.error);
  return { ...summary(label, Float64Array.from(reply.samples), reply.elapsed), concurrency };
}

const scratch = await openScratchDatabase(process.env.BENCH_DATABASE_URL);
const { db } = scratch.database;
const site = await seedWorkforceAtScale(scratch.database);

const app = await buildApp({ db, config: loadConfig({}) });
await app.listen({ port: 0, host: '127.0.0.1' });
const origin = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;

// Node's fetch keeps connections alive; the pool below keeps at most 50 requests in flight.
const login = await fetch(`${origin}/api/login`, {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ email: 'site-admin@demo.sitewatch.dev', password: 'sitewatch-demo' }),
});
const session = (await login.json()) as { data: { access_token: string; user_role: string; id: number } };
const token = session.data.access_token;

const queryOf = (i: number) => ({
  page: 1,
  perPage: 50,
  sort: 'name,asc',
  search: SEARCHES[i % SEARCHES.length],
});
const [{ total }] = (
  (await db.execute(listWorkersSql({ role: 'super-admin' } as Principal, site, queryOf(0)))) as unknown as {
    rows: { total: number }[];
  }
).rows;

const superAdmin = { role: 'super-admin' } as Principal;
// The statement as it was before totals were reused: it counts every match on every request.
const countingSql = await pool('bare SQL, counting every time', requests, (i) =>
  db.execute(listWorkersSql(superAdmin, site, queryOf(i))),
);
// The route's statement, with the totals it keeps (a search's total counted once per revision).
const baselineTotals = new WorkerListTotals();
const bareSql = await pool('bare SQL (the route statement)', requests, (i) =>
  listWorkers(db, superAdmin, site, queryOf(i), baselineTotals),
);
// The request's statements one after another, as the route runs them, without HTTP and Fastify.
const routeTotals = new WorkerListTotals();
const routeStatements = await pool('bare SQL (session, site and list statements)', requests, async (i) => {
  const principal = await resolvePrincipal(db, token);
  if (!principal) throw new Error('the session did not resolve');
  const visible = await requireSite(db, principal, site.id);
  await listWorkers(db, principal, visible, queryOf(i), routeTotals);
});
// The same load on the lightest authenticated route (session check, one user row): what this
// machine, Node and Fastify allow at this concurrency whatever the route does.
const lightestRoute = await httpLoad(
  'GET /api/user over HTTP (the lightest authenticated route)',
  [`${origin}/api/user`],
  token,
);
const listUrls = Array.from({ length: SEARCHES.length }, (_, i) => {
  const q = queryOf(i);
  return `${origin}/api/sites/${site.id}/workers?page=1&perPage=50&sort=${q.sort}&search=${encodeURIComponent(q.search)}`;
});
const http = await httpLoad('GET /api/sites/{id}/workers over HTTP', listUrls, token);
// One request at a time: the route's own latency, without waiting behind 49 others.
const httpOneAtATime = await httpLoad(
  'GET /api/sites/{id}/workers over HTTP, one connection',
  listUrls,
  token,
  1,
);

console.log(
  JSON.stringify(
    {
      bench: 'workerList',
      database: scratch.database.driver,
      machine: machine(),
      workers: TOTAL_WORKERS,
      firstSearchMatches: Number(total),
      countingSql,
      bareSql,
      routeStatements,
      lightestRoute,
      http,
      httpOneAtATime,
      targetP99Ms: 50,
    },
    null,
    2,
  ),
);
await app.close();
await scratch.dispose();
