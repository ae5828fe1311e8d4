import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_ROUTES } from './helpers/authorizationMatrix/apiRouteTable';
import { runFeedMatrix } from './helpers/authorizationMatrix/feedMatrix';
import {
  type Listener,
  type MatrixWorld,
  runRouteMatrix,
  tableDiff,
  undeclaredForeignBodies,
} from './helpers/authorizationMatrix/matrixRunner';
import { runPersonalDataMatrix } from './helpers/authorizationMatrix/personalDataMatrix';
import { matrixPrincipals, PRINCIPAL_NAMES } from './helpers/authorizationMatrix/principals';
import { runPublicCases } from './helpers/authorizationMatrix/publicChecks';
import { registeredRoutes } from './helpers/authorizationMatrix/registeredRoutes';
import type { RouteKey } from './helpers/authorizationMatrix/rules';
import { SAFETY_ROUTES } from './helpers/authorizationMatrix/safetyRouteTable';
import {
  otherCrewObjects,
  seedSiteObjects,
  seedSiteOutsideGroup,
} from './helpers/authorizationMatrix/siteObjects';
import { runSocketMatrix } from './helpers/authorizationMatrix/socketMatrix';
import {
  definedSocketEvents,
  documentedSocketEvents,
  SOCKET_EVENTS,
} from './helpers/authorizationMatrix/socketTable';
import { seedOtherTenant } from './helpers/otherTenant';
import { type SafetyServer, startSafetyServer } from './helpers/safetyServer';
import { demoIds } from './helpers/sessionFor';
import { startTestApp, type TestApp } from './helpers/testApp';

/**
 * The authorization matrix: every registered route of both listeners and every socket event,
 * called as each of 11 principals on an object of its own site, of another site of its client
 * and of another client, against DESIGN §3–§4 and src/domain/access.ts. The route tables live
 * in helpers/authorizationMatrix; a route or event they do not list fails the suite.
 */
const RESERVED_SOCKET_EVENTS = ['connect', 'connect_error', 'disconnect', 'disconnecting', 'error'];

describe('authorization matrix', () => {
  let t: TestApp;
  let safety: SafetyServer;
  let world: MatrixWorld;
  let api: Listener;
  let safetyListener: Listener;

  beforeAll(async () => {
    t = await startTestApp();
    const demo = await demoIds(t.db);
    const other = await seedOtherTenant(t.db);
    const annexSiteId = await seedSiteOutsideGroup(t.db, demo.clientId);
    const own = await seedSiteObjects(t.db, 'own', demo.siteId, demo.userIds['crew-manager']);
    const objects = {
      own,
      'other-crew': await otherCrewObjects(t.db, own),
      'other-site': await seedSiteObjects(t.db, 'other-site', annexSiteId),
      'other-client': await seedSiteObjects(t.db, 'other-client', other.siteId),
    };
    world = { db: t.db, objects, principals: await matrixPrincipals(t, other, demo.userIds) };
    safety = await startSafetyServer(t);
    const routes = await registeredRoutes(t.config);
    api = {
      name: 'main listener',
      routes: routes.api,
      table: API_ROUTES,
      inject: (options) => t.app.inject(options),
    };
    safetyListener = {
      name: 'safety listener',
      routes: routes.safety,
      table: SAFETY_ROUTES,
      inject: (options) => safety.app.inject(options),
    };
  });

  afterAll(async () => {
    await safety?.close();
    await t?.close();
  });

  it('has a row for every route both listeners register, and none for a route that is gone', () => {
    expect(api.routes.length).toBeGreaterThan(80);
    expect(safetyListener.routes.length).toBeGreaterThan(8);
    expect(tableDiff(api)).toEqual({ missing: [], stale: [] });
    expect(tableDiff(safetyListener)).toEqual({ missing: [], stale: [] });
    // A body that names objects gets its own column once the table says how they are checked.
    expect([api, safetyListener].flatMap((listener) => undeclaredForeignBodies(world, listener))).toEqual([]);
  });

  it('has 11 principals, and on each site objects whose names a reply must not show outside their reach', () => {
    expect(world.principals.map((p) => p.name)).toEqual([...PRINCIPAL_NAMES]);
    for (const scope of ['own', 'other-site', 'other-client'] as const)
      expect(world.objects[scope].names.length).toBeGreaterThan(12);
    expect(world.objects['other-crew'].names).toHaveLength(2);
  });

  it('answers every principal on every guarded route and object as the access table says', async () => {
    const started = Date.now();
    const runs = [await runRouteMatrix(world, api), await runRouteMatrix(world, safetyListener)];
    const mismatches = runs.flatMap((run) => run.mismatches);
    expect(mismatches).toEqual([]);
    // The matrix is not one-sided: every outcome occurs, and many times.
    for (const outcome of ['unauthenticated', 'forbidden', 'hidden', 'allowed'] as const)
      expect(runs[0].outcomes[outcome]).toBeGreaterThan(100);
    console.info(
      `authorization matrix: ${runs.reduce((n, run) => n + run.calls, 0)} calls in ${Date.now() - started} ms`,
      runs.map((run) => run.outcomes),
      runs.flatMap((run) =>
        [...run.allowedButNotOk].map(([key, statuses]) => `${key}: ${[...statuses].join(', ')}`),
      ),
    );
    // A liveness limit, not a speed measure: 47 s on the two-core machine with other tests running.
  }, 300_000);

  it('keeps the public routes public, each with its own expectations', async () => {
    const publicKeys = [api, safetyListener].flatMap((listener) =>
      listener.routes.filter((r) => listener.table[r.key]?.kind === 'public').map((r) => r.key as RouteKey),
    );
    const mismatches = await runPublicCases(
      {
        api: (options) => t.app.inject(options),
        safety: (options) => safety.app.inject(options),
        objects: world.objects,
        principals: world.principals,
      },
      publicKeys,
    );
    expect(mismatches).toEqual([]);
  });

  it('has a row for every socket event the code defines, documents or handles', async () => {
    const own = world.objects.own;
    const admin = world.principals.find((p) => p.name === 'super-admin');
    const client = safety.connect({ token: admin?.token ?? undefined, siteId: own.siteId });
    await client.firstSnapshot();
    const handled =
      safety.live.io
        .of('/')
        .sockets.get(client.socket.id ?? '')
        ?.eventNames() ?? [];
    client.close();
    // socket.io's own events are not the channel's.
    const handledHere = handled.map(String).filter((event) => !RESERVED_SOCKET_EVENTS.includes(event));
    const known = new Set([...definedSocketEvents(), ...documentedSocketEvents(), ...handledHere]);
    expect([...known].filter((event) => !(event in SOCKET_EVENTS)).sort()).toEqual([]);
    expect(Object.keys(SOCKET_EVENTS).filter((event) => !known.has(event))).toEqual([]);
    expect(handledHere.length).toBeGreaterThan(0);
  });

  it('admits sockets and evacuation requests as the access table says', async () => {
    expect(await runSocketMatrix(world, safety)).toEqual([]);
  }, 60_000);

  it('admits the feeds of one socket as the access table says', async () => {
    expect(await runFeedMatrix(world, safety)).toEqual([]);
  }, 60_000);

  it('names the workers on the map only to whom the personal data rule lets see them', async () => {
    expect(await runPersonalDataMatrix(world, (options) => t.app.inject(options), safety)).toEqual([]);
  });
});
