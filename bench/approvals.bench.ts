// eTQR bulk approval (issue 21): approving 1,000 activities under review in ONE call of
// POST /api/sites/{id}/activity/approve/bulk, against the baseline of 1,000 calls of the same route
// approving one activity each, both over one keep-alive HTTP connection to the real listener,
// measured in the same run, alternating which goes first. Every call is checked: each activity
// must come back approved_by_cm.
// Usage: npx tsx bench/approvals.bench.ts [--activities 1000] [--rounds 3] [--pg postgres://…/admin-db]
// Without --pg it runs on BENCH_DATABASE_URL, TEST_DATABASE_URL or DATABASE_URL when set, else PGlite.
import { Agent, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { and, eq, sql } from 'drizzle-orm';
import { buildApp } from '../server/app';
import { DEMO_PASSWORD } from '../server/auth/passwords';
import { loadConfig } from '../server/config';
import { demoEmail } from '../server/db/demoSeed';
import { activities, activityCodes, crews } from '../server/db/schema';
import { openDemoSite, option } from './benchServer';
import { machine } from './measure';

const count = Number(option('activities') ?? 1000);
const rounds = Number(option('rounds') ?? 3);
const adminUrl =
  option('pg') ?? process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL;
const log = (text: string) => process.stderr.write(`${text}\n`);

const site = await openDemoSite(adminUrl);
const { db, siteId } = site;
const app = await buildApp({ db, config: { ...loadConfig({}), publicUrl: 'http://sitewatch.bench' } });
await app.listen({ port: 0, host: '127.0.0.1' });
const { port } = app.server.address() as AddressInfo;
const login = await app.inject({
  method: 'POST',
  url: '/api/login',
  payload: { email: demoEmail('group-of-sites-admin'), password: DEMO_PASSWORD },
});
const token = login.json().data.access_token as string;

/** One connection, kept alive between calls: the single calls pay no connection set-up. */
const agent = new Agent({ keepAlive: true, maxSockets: 1 });
let connections = 0;
const originalCreate = agent.createConnection.bind(agent);
agent.createConnection = ((...args: Parameters<typeof originalCreate>) => {
  connections++;
  return originalCreate(...args);
}) as typeof agent.createConnection;

interface ApprovalReply {
  data?: { results?: { ok: boolean }[] };
}

function post(path: string, body: unknown): Promise<{ status: number; json: ApprovalReply }> {
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const call = request(
      {
        host: '127.0.0.1',
        port,
        path,
        method: 'POST',
        agent,
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(payload),
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, json: JSON.parse(Buffer.concat(chunks).toString()) }),
        );
        response.on('error', reject);
      },
    );
    call.on('error', reject);
    call.end(payload);
  });
}

const [crew] = await db.select({ id: crews.id }).from(crews).where(eq(crews.siteId, siteId)).limit(1);
const [code] = await db
  .select({ id: activityCodes.id })
  .from(activityCodes)
  .where(eq(activityCodes.siteId, siteId))
  .limit(1);

/** `count` activities under review, made directly in the database: what each run approves. */
async function activitiesUnderReview(label: string): Promise<{ id: number; version: number }[]> {
  const rows = Array.from({ length: count }, (_, index) => ({
    siteId,
    activityCodeId: code.id,
    crewId: crew.id,
    name: `Bench ${label} ${index + 1}`,
    day: '2026-01-15',
    plannedQuantity: '10',
    plannedHours: '1',
    status: 'in_review',
  }));
  const ids: { id: number; version: number }[] = [];
  for (let at = 0; at < rows.length; at += 500)
    ids.push(
      ...(await db
        .insert(activities)
        .values(rows.slice(at, at + 500))
        .returning({ id: activities.id, version: activities.version })),
    );
  return ids;
}

const approvePath = `/api/sites/${siteId}/activity/approve/bulk`;

async function approvedCount(label: string): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(activities)
    .where(
      and(
        eq(activities.siteId, siteId),
        eq(activities.status, 'approved_by_cm'),
        sql`${activities.name} like ${`Bench ${label} %`}`,
      ),
    );
  return Number(row.n);
}

async function bulkRun(label: string): Promise<number> {
  const items = await activitiesUnderReview(label);
  const started = performance.now();
  const reply = await post(approvePath, { activities: items });
  const ms = performance.now() - started;
  const results = reply.json.data?.results;
  if (reply.status !== 200 || results?.length !== count || results.some((r) => !r.ok))
    throw new Error(`bulk approval refused: ${reply.status} ${JSON.stringify(reply.json).slice(0, 300)}`);
  if ((await approvedCount(label)) !== count) throw new Error('bulk approval did not approve every row');
  return ms;
}

async function singleRun(label: string): Promise<number> {
  const items = await activitiesUnderReview(label);
  const started = performance.now();
  for (const item of items) {
    const reply = await post(approvePath, { activities: [item] });
    if (reply.status !== 200 || reply.json.data?.results?.[0]?.ok !== true)
      throw new Error(`single approval refused: ${reply.status} ${JSON.stringify(reply.json).slice(0, 300)}`);
  }
  const ms = performance.now() - started;
  if ((await approvedCount(label)) !== count) throw new Error('single approvals did not approve every row');
  return ms;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

// Warm-up of both paths (module JIT, the database's caches).
await bulkRun('warm-bulk');
await singleRun('warm-single');

const bulkMs: number[] = [];
const singleMs: number[] = [];
for (let round = 1; round <= rounds; round++) {
  const bulk = async () => bulkMs.push(await bulkRun(`bulk-${round}`));
  const single = async () => singleMs.push(await singleRun(`single-${round}`));
  if (round % 2 === 1) {
    await bulk();
    await single();
  } else {
    await single();
    await bulk();
  }
  log(
    `round ${round}: bulk ${Math.round(bulkMs.at(-1) ?? 0)} ms, single ${Math.round(singleMs.at(-1) ?? 0)} ms`,
  );
}

const bulk = median(bulkMs);
const single = median(singleMs);
console.log(
  JSON.stringify(
    {
      bench: 'approvals',
      machine: machine(),
      database: adminUrl ? 'postgres' : 'pglite',
      activities: count,
      rounds,
      connections,
      bulkMs: Math.round(bulk),
      singleCallsMs: Math.round(single),
      bulkPerActivityMs: Math.round((bulk / count) * 1000) / 1000,
      singlePerActivityMs: Math.round((single / count) * 1000) / 1000,
      ratio: Math.round((single / bulk) * 10) / 10,
      runsMs: { bulk: bulkMs.map(Math.round), single: singleMs.map(Math.round) },
    },
    null,
    2,
  ),
);

agent.destroy();
await app.close();
await site.dispose();
