import { and, eq, inArray } from 'drizzle-orm';
import fc from 'fast-check';
import type { FastifyInstance, RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app';
import type { Db } from '../../server/db/database';
import { demoEmail } from '../../server/db/demoSeed';
import {
  activities,
  buildings,
  crews,
  floors,
  inventoryItems,
  networks,
  powerBiReports,
  sites,
  subcontractors,
  users,
  workerRoles,
  workers,
  workshifts,
  zones,
} from '../../server/db/schema';
import { buildSafetyApp, type SafetyLive, startLive } from '../../server/safety/safetyApp';
import { type DemoFloorFixture, demoFloor } from './helpers/ingestFixture';
import { type Generation, type RouteUnderTest, requestsFor } from './helpers/requestArbitraries';
import { startTestApp, type TestApp } from './helpers/testApp';

/**
 * Every route of the API and of the safety listener, called by an admin with inputs generated from
 * the route's own TypeBox schemas (params, querystring, body): plausible values and real row ids,
 * but also control characters and NUL, out-of-range and wrong-typed values, missing and extra
 * fields. Whatever comes in, no reply may be a 500.
 */

/** Requests per route: enough to hit each field's edge cases, few enough for ~60 s on PGlite. */
const RUNS_PER_ROUTE = Number(process.env.FUZZ_RUNS ?? 20);
const SEED = Number(process.env.FUZZ_SEED ?? Date.now() % 2_147_483_647);

type SiteTable =
  | typeof activities
  | typeof workers
  | typeof workerRoles
  | typeof subcontractors
  | typeof crews
  | typeof workshifts
  | typeof networks
  | typeof powerBiReports
  | typeof inventoryItems;

/** Ids of the demo site's rows, keyed as route parameters name them, so calls reach real rows. */
async function demoSiteIds(db: Db, siteId: number): Promise<Generation['ids']> {
  const idsOf = async (rows: Promise<{ id: number }[]>) => (await rows).map((row) => row.id).slice(0, 20);
  const [site] = await db.select().from(sites).where(eq(sites.id, siteId));
  const buildingIds = await idsOf(
    db.select({ id: buildings.id }).from(buildings).where(eq(buildings.siteId, siteId)),
  );
  const floorIds = await idsOf(
    db.select({ id: floors.id }).from(floors).where(inArray(floors.buildingId, buildingIds)),
  );
  const ofSite = async (table: SiteTable) =>
    idsOf(db.select({ id: table.id }).from(table).where(eq(table.siteId, siteId)));
  const byName: Record<string, number[]> = {
    sites: [siteId],
    siteId: [siteId],
    clients: [site.clientId],
    clientId: [site.clientId],
    buildings: buildingIds,
    floors: floorIds,
    floorId: floorIds,
    zoneId: await idsOf(db.select({ id: zones.id }).from(zones).where(inArray(zones.floorId, floorIds))),
    networks: await ofSite(networks),
    inventoryId: await ofSite(inventoryItems),
    helmetId: await idsOf(
      db
        .select({ id: inventoryItems.id })
        .from(inventoryItems)
        .where(and(eq(inventoryItems.siteId, siteId), eq(inventoryItems.type, 'helmet'))),
    ),
    workerId: await ofSite(workers),
    crewId: await ofSite(crews),
    workshiftId: await ofSite(workshifts),
    itemId: [...(await ofSite(workerRoles)), ...(await ofSite(subcontractors))],
    reportId: await ofSite(powerBiReports),
    activityId: await ofSite(activities),
    users: await idsOf(db.select({ id: users.id }).from(users)),
  };
  return { ...byName, all: [...new Set(Object.values(byName).flat())] };
}

describe('schema fuzz: no input makes a 500', () => {
  let t: TestApp;
  let api: FastifyInstance;
  let safety: FastifyInstance;
  let live: SafetyLive;
  let fixture: DemoFloorFixture;
  const routes: RouteUnderTest[] = [];
  const serverErrors: string[] = [];
  let ids: Generation['ids'];
  let adminRow: typeof users.$inferSelect;

  const logger = {
    level: 'error',
    stream: { write: (line: string) => void serverErrors.push(line) },
  };
  const collect = (app: RouteUnderTest['app']) => (route: RouteOptions) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods)
      if (method !== 'HEAD' && method !== 'OPTIONS')
        routes.push({
          app,
          method,
          url: route.url,
          schema: (route.schema ?? {}) as RouteUnderTest['schema'],
        });
  };

  beforeAll(async () => {
    // Fuzzing the sign-in routes fails many logins from one address: the throttle must not lock the admin out.
    t = await startTestApp({ loginMaxFailures: 1_000_000 });
    fixture = await demoFloor(t.db);
    api = await buildApp({ db: t.db, config: t.config, logger, onRoute: collect('api') });
    await api.ready();
    safety = await buildSafetyApp({ db: t.db, config: t.config }, { logger, onRoute: collect('safety') });
    live = await startLive({ app: safety, db: t.db, config: { redisUrl: undefined } });
    await safety.ready();
    // The demo has no Power BI report: one to edit, so the edit route's body checks are reached.
    await t.db.insert(powerBiReports).values({
      siteId: fixture.siteId,
      name: 'Fuzz report',
      embedUrl: 'https://app.powerbi.com/view?r=fuzz',
    });
    ids = await demoSiteIds(t.db, fixture.siteId);
    [adminRow] = await t.db
      .select()
      .from(users)
      .where(eq(users.email, demoEmail('super-admin')));
  }, 120_000);
  afterAll(async () => {
    await live?.close();
    await safety?.close();
    await api?.close();
    await t?.close();
  });

  /** The admin as seeded, whatever a fuzzed call did to it (deactivated, renamed, new password). */
  async function freshAdminToken(): Promise<string> {
    const { id, ...seeded } = adminRow;
    await t.db.update(users).set(seeded).where(eq(users.id, id));
    return t.loginAs('super-admin');
  }

  /** The generated requests of one route, each answered with 500 described for the report. */
  async function serverErrorsOf(route: RouteUnderTest): Promise<string[]> {
    const token = await freshAdminToken();
    const app = route.app === 'api' ? api : safety;
    const failures: string[] = [];
    for (const request of fc.sample(requestsFor(route, ids), { numRuns: RUNS_PER_ROUTE, seed: SEED })) {
      const logged = serverErrors.length;
      const json = request.body !== undefined;
      const response = await app.inject({
        method: route.method as 'GET',
        url: request.query ? `${request.path}?${request.query}` : request.path,
        headers: {
          authorization: `Bearer ${token}`,
          ...(json ? { 'content-type': 'application/json' } : {}),
        },
        ...(json ? { payload: JSON.stringify(request.body) } : {}),
      });
      if (response.statusCode < 500) continue;
      const body = JSON.stringify(request.body)?.slice(0, 300);
      const cause = serverErrors.slice(logged).join(' ').slice(0, 600);
      failures.push(
        `${route.method} ${request.path}?${request.query} body=${body} → ${response.statusCode}: ${cause}`,
      );
    }
    return failures;
  }

  it(
    'answers every generated request of every route with something other than 500',
    async () => {
      // Reads first and deletions last, so the rows the other calls aim at are still there.
      const rank = (method: string) => (method === 'GET' ? 0 : method === 'DELETE' ? 2 : 1);
      const ordered = [...routes].sort((a, b) => rank(a.method) - rank(b.method));
      expect(ordered.length).toBeGreaterThan(80);
      const failures: string[] = [];
      for (const route of ordered) failures.push(...(await serverErrorsOf(route)));
      expect(failures, `seed ${SEED} (FUZZ_SEED=${SEED} replays it)`).toEqual([]);
    },
    9_000 * RUNS_PER_ROUTE,
  );

  describe('a NUL in a search or an id', () => {
    const nul = '%00';
    let token: string;
    beforeAll(async () => {
      token = await freshAdminToken();
    });
    const lists = () => [
      `/api/sites/${fixture.siteId}/workers?search=${nul}`,
      `/api/sites/${fixture.siteId}/zones?search=${nul}`,
      `/api/floors/${fixture.floor.id}/zones?search=${nul}`,
      `/api/sites/${fixture.siteId}/crews?search=${nul}`,
      `/api/sites/${fixture.siteId}/workshifts?search=${nul}`,
      `/api/sites/${fixture.siteId}/subcontractors?search=${nul}`,
      `/api/sites/${fixture.siteId}/worker-roles?search=${nul}`,
      `/api/users?search=${nul}`,
    ];

    it('answers 422 with the field message on the eight searched lists', async () => {
      for (const url of lists()) {
        const response = await api.inject({
          method: 'GET',
          url,
          headers: { authorization: `Bearer ${token}` },
        });
        expect(response.statusCode, url).toBe(422);
        expect(response.json().errors, url).toEqual({ search: 'Search must not contain control characters' });
      }
    });

    it('answers 422 for a floor form (multipart, checked by hand) whose name holds NUL', async () => {
      const boundary = '----sitewatchfuzz';
      const payload = [
        ['name', 'Level\u0000X'],
        ['altitude', '3'],
        ['category', 'Office'],
      ]
        .map(
          ([name, value]) =>
            `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
        )
        .join('')
        .concat(`--${boundary}--\r\n`);
      const response = await api.inject({
        method: 'POST',
        url: `/api/buildings/${fixture.floor.buildingId}/floors`,
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': `multipart/form-data; boundary=${boundary}`,
        },
        payload,
      });
      expect(response.statusCode).toBe(422);
      expect(response.json().errors.name).toBe('Name must not contain control characters');
    });

    it('answers 422 for an evacuation report id holding NUL', async () => {
      for (const url of [
        `/api/safety/evacuations/${nul}/report`,
        `/api/safety/evacuations/a${nul}b/report.xlsx`,
      ]) {
        const response = await safety.inject({
          method: 'GET',
          url,
          headers: { authorization: `Bearer ${token}` },
        });
        expect(response.statusCode, url).toBe(422);
        expect(response.json().errors, url).toEqual({
          sessionId: 'Session id must not contain control characters',
        });
      }
    });
  });
});
