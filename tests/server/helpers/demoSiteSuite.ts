import { eq } from 'drizzle-orm';
import type { Db } from '../../../server/db/database';
import { DEMO_SITE } from '../../../server/db/demoSeed';
import { sites, workers } from '../../../server/db/schema';
import type { Role } from '../../../src/domain/roles';
import { type OtherTenant, seedOtherTenant } from './otherTenant';
import { startTestApp, type TestApp } from './testApp';

export interface DemoSiteSuite {
  t: TestApp;
  /** Another client with its own site, for the tenancy checks. */
  other: OtherTenant;
  /** The demo site's id. */
  siteId: number;
  /** Tokens of the demo users with the requested roles. */
  tokens: Record<Role, string>;
}

/** A test server with the demo site, another tenant, and the demo users of these roles signed in. */
export async function startDemoSiteSuite(roles: readonly Role[]): Promise<DemoSiteSuite> {
  const t = await startTestApp();
  const other = await seedOtherTenant(t.db);
  const [{ id: siteId }] = await t.db.select().from(sites).where(eq(sites.name, DEMO_SITE));
  const tokens = {} as Record<Role, string>;
  for (const role of roles) tokens[role] = await t.loginAs(role);
  return { t, other, siteId, tokens };
}

/** GET, POST and DELETE through the suite's server, as `token()` unless told otherwise. */
export function suiteRequests(app: () => TestApp, token: () => string) {
  return {
    get: (url: string, as = token()) => app().call(as, { method: 'GET', url }),
    post: (url: string, payload: unknown, as = token()) =>
      app().call(as, { method: 'POST', url, payload: payload as object }),
    del: (url: string, as = token()) => app().call(as, { method: 'DELETE', url }),
  };
}

/** A worker on the other tenant's site ("Depot worker"), for the "another client's worker" checks. */
export async function addOtherTenantWorker(db: Db, other: OtherTenant): Promise<number> {
  const [{ id }] = await db
    .insert(workers)
    .values({ siteId: other.siteId, name: 'Depot worker' })
    .returning();
  return id;
}

/** The ids of every worker of a site. */
export async function workerIdsOf(db: Db, siteId: number): Promise<number[]> {
  const rows = await db.select({ id: workers.id }).from(workers).where(eq(workers.siteId, siteId));
  return rows.map((row) => row.id);
}
