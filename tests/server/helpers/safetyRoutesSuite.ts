import { eq } from 'drizzle-orm';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { inventoryItems, networks } from '../../../server/db/schema';
import { buildSafetyApp } from '../../../server/safety/safetyApp';
import type { Role } from '../../../src/domain/roles';
import { type DemoFloorFixture, demoFloor, type HelmetFixture, seedWorkerWithHelmet } from './ingestFixture';
import { type OtherTenant, seedOtherTenant } from './otherTenant';
import { type Envelope, startTestApp, type TestApp } from './testApp';

const ROLES_USED = [
  'super-admin',
  'client-admin',
  'group-of-sites-admin',
  'group-of-sites-viewer',
  'crew-manager',
  'safety-demo',
] as const;

export interface SafetyRoutesSuite {
  t: TestApp;
  /** The safety listener, not listening: its REST routes through `inject`. */
  safety: FastifyInstance;
  other: OtherTenant;
  fixture: DemoFloorFixture;
  /** The demo site's networks "Tower A mesh" and "Tower A south mesh". */
  meshId: number;
  southMeshId: number;
  /** Tokens of the demo users (admins, Site Viewer, crew manager, Safety Demo). */
  tokens: Record<Role, string>;
  /** A token of the other tenant's client admin. */
  otherClientAdmin: string;
  close(): Promise<void>;
}

/** A test server and the safety app on its database (no live channel), with the demo floor and another tenant. */
export async function startSafetyRoutesSuite(): Promise<SafetyRoutesSuite> {
  const t = await startTestApp();
  const other = await seedOtherTenant(t.db);
  const fixture = await demoFloor(t.db);
  // The safety listener's REST routes need no live channel.
  const safety = await buildSafetyApp({ db: t.db, config: t.config });
  await safety.ready();
  const [{ id: meshId }] = await t.db.select().from(networks).where(eq(networks.name, 'Tower A mesh'));
  const [{ id: southMeshId }] = await t.db
    .select()
    .from(networks)
    .where(eq(networks.name, 'Tower A south mesh'));
  const tokens = {} as Record<Role, string>;
  for (const role of ROLES_USED) tokens[role] = await t.loginAs(role);
  const otherClientAdmin = await t.login(other.email('client-admin'));
  return {
    t,
    safety,
    other,
    fixture,
    meshId,
    southMeshId,
    tokens,
    otherClientAdmin,
    async close() {
      await safety.close();
      await t.close();
    },
  };
}

/** Requests to the suite's safety app, and helmets placed on its floors. */
export function safetyRoutesRequests(suite: () => SafetyRoutesSuite) {
  async function call(token: string | null, options: InjectOptions) {
    const headers = { ...(options.headers ?? {}), ...(token ? { authorization: `Bearer ${token}` } : {}) };
    const response = await suite().safety.inject({ ...options, headers });
    let json: Envelope;
    try {
      json = response.json();
    } catch {
      json = { status: 'unparsed' };
    }
    return Object.assign(response, { json });
  }

  /** A worker's helmet, seen on a floor through a network. */
  async function helmetOn(
    tag: string,
    floorId: number,
    networkId: number,
    online = true,
  ): Promise<HelmetFixture> {
    const { t, fixture } = suite();
    const helmet = await seedWorkerWithHelmet(t.db, fixture.siteId, tag);
    await t.db
      .update(inventoryItems)
      .set({
        networkId,
        floorId,
        ...fixture.at(0.55, 0.5),
        isOnline: online,
        isActive: online,
        lastSeen: new Date(),
      })
      .where(eq(inventoryItems.id, helmet.inventoryId));
    return helmet;
  }

  return { call, helmetOn };
}
