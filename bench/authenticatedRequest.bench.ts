// What authentication and the reply envelope cost on every API call: GET /api/user through
// the whole Fastify path (token hash, session + user lookup, permissions, serialization)
// beside the bare SQL lookup of the same session, both on the same database in the same run.
// Usage: npx tsx bench/authenticatedRequest.bench.ts [iterations]
// With BENCH_DATABASE_URL (an admin URL of a PostgreSQL server) it runs on a throwaway database there.
import { sql } from 'drizzle-orm';
import { buildApp } from '../server/app';
import { hashToken } from '../server/auth/tokens';
import { loadConfig } from '../server/config';
import { seedDemo } from '../server/db/demoSeed';
import { ensureReferenceData } from '../server/db/referenceData';
import { machine, measure } from './measure';
import { openScratchDatabase } from './scratchDatabase';

const iterations = Number(process.argv[2] ?? 2000);
const scratch = await openScratchDatabase(process.env.BENCH_DATABASE_URL);
const database = scratch.database;
await database.migrate();
await ensureReferenceData(database.db);
await seedDemo(database.db);
const app = await buildApp({ db: database.db, config: loadConfig({}) });
await app.ready();

const login = await app.inject({
  method: 'POST',
  url: '/api/login',
  payload: { email: 'site-admin@demo.sitewatch.dev', password: 'sitewatch-demo' },
});
const token: string = login.json().data.access_token;
const tokenHash = hashToken(token);

const baseline = await measure('raw SQL session lookup', iterations, () =>
  database.db.execute(
    sql`select u.id, u.role from sessions s join users u on u.id = s.user_id
        where s.token_hash = ${tokenHash} and s.revoked_at is null and s.expires_at > now()`,
  ),
);
const full = await measure('GET /api/user (full path)', iterations, async () => {
  const reply = await app.inject({
    method: 'GET',
    url: '/api/user',
    headers: { authorization: `Bearer ${token}` },
  });
  if (reply.statusCode !== 200) throw new Error(`unexpected ${reply.statusCode}`);
});

console.log(
  JSON.stringify(
    {
      bench: 'authenticatedRequest',
      database: database.driver,
      machine: machine(),
      baseline,
      full,
      overheadPerCallMs: Number((full.p50Ms - baseline.p50Ms).toFixed(3)),
    },
    null,
    2,
  ),
);
await app.close();
await scratch.dispose();
