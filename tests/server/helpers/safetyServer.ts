import type { AddressInfo } from 'node:net';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../../server/db/database';
import { floors, zones } from '../../../server/db/schema';
import { buildSafetyApp, type SafetyLive, startLive } from '../../../server/safety/safetyApp';
import type { StartEvacuationRequest } from '../../../src/domain/evacuation';
import type { DemoFloorFixture } from './ingestFixture';
import type { LiveClientOptions } from './liveClient';
import { connectSafety, type SafetyClient } from './safetyClient';
import type { TestApp } from './testApp';

/** The safety app listening on a free port, with its live channel (evacuations, network watch). */
export interface SafetyServer {
  app: FastifyInstance;
  live: SafetyLive;
  url: string;
  /** Every client connected through `connect`, first first. */
  clients: readonly SafetyClient[];
  /** A safety client of this server, closed with it. */
  connect(options: LiveClientOptions): SafetyClient;
  close(): Promise<void>;
}

export async function startSafetyServer(
  t: TestApp,
  options: { networkSilenceSeconds?: number; networkCheckIntervalMs?: number } = {},
): Promise<SafetyServer> {
  const app = await buildSafetyApp({ db: t.db, config: t.config });
  const live = await startLive({
    app,
    db: t.db,
    config: { redisUrl: undefined, networkSilenceSeconds: options.networkSilenceSeconds },
    networkCheckIntervalMs: options.networkCheckIntervalMs,
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  const clients: SafetyClient[] = [];
  return {
    app,
    live,
    url,
    clients,
    connect(clientOptions) {
      const client = connectSafety(url, clientOptions);
      clients.push(client);
      return client;
    },
    async close() {
      for (const client of clients) client.close();
      await live.close();
      await app.close();
    },
  };
}

/** A point inside the assembly zone of the demo floor's Ground Floor, as fractions of Level 1. */
export const ASSEMBLY_POINT: readonly [number, number] = [0.5, 0.75];

/** The Ground Floor of the demo floor's building and its assembly zone. */
export async function groundFloorAssembly(
  db: Db,
  fixture: DemoFloorFixture,
): Promise<{ groundFloorId: number; assemblyZoneId: number }> {
  const [{ id: groundFloorId }] = await db
    .select({ id: floors.id })
    .from(floors)
    .where(and(eq(floors.buildingId, fixture.floor.buildingId), eq(floors.name, 'Ground Floor')));
  const [{ id: assemblyZoneId }] = await db
    .select({ id: zones.id })
    .from(zones)
    .where(and(eq(zones.floorId, groundFloorId), eq(zones.kind, 'assembly')));
  return { groundFloorId, assemblyZoneId };
}

/** An evacuation of whole floors to the given assembly zones, no safe zone, no gateway. */
export function evacuationOf(
  siteId: number,
  floorIds: number[],
  assemblyZoneIds: number[],
): StartEvacuationRequest {
  return { siteId, floorIds, zoneIds: [], assemblyZoneIds, safeZone: null, gateWayId: null };
}
