import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../../server/app';
import type { Config } from '../../../server/config';
import { DEMO_SITE } from '../../../server/db/demoSeed';
import { sites } from '../../../server/db/schema';
import { type OtherTenant, seedOtherTenant } from './otherTenant';
import { startTestApp, type TestApp } from './testApp';

export interface AuthFixture {
  t: TestApp;
  other: OtherTenant;
  demo: { siteId: number; clientId: number; groupId: number };
}

/**
 * One database for a file of the sign-in tests (starting one takes seconds), the other tenant
 * seeded and the demo site's ids at hand. The throttle is all but off here; its own tests and the
 * production ones run further apps on the same database (`appOnDatabase`).
 */
export async function startAuthFixture(): Promise<AuthFixture> {
  const t = await startTestApp({ loginMaxFailures: 1000 });
  const other = await seedOtherTenant(t.db);
  const [site] = await t.db.select().from(sites).where(eq(sites.name, DEMO_SITE));
  return { t, other, demo: { siteId: site.id, clientId: site.clientId, groupId: site.groupOfSitesId! } };
}

/** POST /api/login on `app`, the reply's body parsed beside it. */
export function loginOn(app: FastifyInstance, payload: unknown, remoteAddress?: string) {
  return app
    .inject({ method: 'POST', url: '/api/login', payload: payload as object, remoteAddress })
    .then((response) => Object.assign(response, { json: response.json() }));
}

/** Another app with other settings, on the fixture's database. */
export async function appOnDatabase(t: TestApp, overrides: Partial<Config>): Promise<FastifyInstance> {
  const app = await buildApp({ db: t.db, config: { ...t.config, ...overrides } });
  await app.ready();
  return app;
}
