import type { AddressInfo } from 'node:net';
import cube, { type CubeApi } from '@cubejs-client/core';
import { eq } from 'drizzle-orm';
import type { Db } from '../../../server/db/database';
import { DEMO_SITE } from '../../../server/db/demoSeed';
import {
  buildings,
  crewAssignments,
  crews,
  floors,
  presenceMinutes,
  sites,
  subcontractors,
  workerRoles,
  workers,
  zones,
} from '../../../server/db/schema';
import { GATEWAY_PREFIX } from '../../../server/gateway/gatewayRoutes';
import type { OtherTenant } from './otherTenant';

/**
 * Presence rows of the analytics gateway's tests, written straight to presence_minutes (the
 * ingest's rollup writes the same rows): three workers of the demo site (Asia/Dubai) on their
 * own floor "GW Level 1", with roles, a subcontractor and crews that change on 10 March 2025,
 * and one worker of the other tenant on its floor.
 */
export interface GatewayWorld {
  siteId: number;
  floorId: number;
  zoneA: number;
  zoneB: number;
  workers: { w1: number; w2: number; w3: number };
  otherFloorId: number;
}

const FLOOR_CORNERS = {
  aLat: 25.2,
  aLong: 55.27,
  bLat: 25.2,
  bLong: 55.271,
  cLat: 25.199,
  cLong: 55.271,
  dLat: 25.199,
  dLong: 55.27,
};

const RING: [number, number][] = [
  [55.27, 25.2],
  [55.2705, 25.2],
  [55.2705, 25.1995],
];

export async function seedGatewayWorld(db: Db, other: OtherTenant): Promise<GatewayWorld> {
  const [site] = await db.select().from(sites).where(eq(sites.name, DEMO_SITE));
  const [building] = await db.insert(buildings).values({ siteId: site.id, name: 'GW Block' }).returning();
  const [floor] = await db
    .insert(floors)
    .values({ buildingId: building.id, name: 'GW Level 1', altitude: 40, ...FLOOR_CORNERS })
    .returning();
  const [zoneA, zoneB] = await db
    .insert(zones)
    .values([
      { floorId: floor.id, name: 'GW Zone A', kind: 'work', coordinates: RING },
      { floorId: floor.id, name: 'GW Zone B', kind: 'restricted', coordinates: RING },
    ])
    .returning();
  const [electrician, plumber] = await db
    .insert(workerRoles)
    .values([
      { siteId: site.id, name: 'GW Electrician' },
      { siteId: site.id, name: 'GW Plumber' },
    ])
    .returning();
  const [sparks] = await db
    .insert(subcontractors)
    .values({ siteId: site.id, name: 'GW Sparks Ltd' })
    .returning();
  const [crew1, crew2] = await db
    .insert(crews)
    .values([
      { siteId: site.id, name: 'GW Crew 1' },
      { siteId: site.id, name: 'GW Crew 2' },
    ])
    .returning();
  const [w1, w2, w3] = await db
    .insert(workers)
    .values([
      { siteId: site.id, name: 'GW Alice', workerRoleId: electrician.id, subcontractorId: sparks.id },
      { siteId: site.id, name: 'GW Bob', workerRoleId: plumber.id },
      { siteId: site.id, name: 'GW Carol' },
    ])
    .returning();
  await db.insert(crewAssignments).values([
    { crewId: crew1.id, workerId: w1.id, assignedAt: '2025-01-01' },
    // From 10 March (Dubai), Alice works in crew 2.
    { crewId: crew2.id, workerId: w1.id, assignedAt: '2025-03-10' },
    { crewId: crew2.id, workerId: w2.id, assignedAt: '2025-01-01' },
  ]);
  const [otherWorker] = await db
    .insert(workers)
    .values({ siteId: other.siteId, name: 'Depot worker' })
    .returning();

  const row = (workerId: number, zoneId: number | null, bucket: string, seconds: number) => ({
    siteId: site.id,
    workerId,
    floorId: floor.id,
    zoneId,
    bucket: new Date(bucket),
    seconds,
  });
  await db.insert(presenceMinutes).values([
    // Sunday 9 March, 12:00–12:02 in Dubai: Alice in zone A (crew 1 that day).
    row(w1.id, zoneA.id, '2025-03-09T08:00:00Z', 60),
    row(w1.id, zoneA.id, '2025-03-09T08:01:00Z', 60),
    row(w1.id, zoneA.id, '2025-03-09T08:02:00Z', 60),
    // 22:00 UTC on the 9th is 02:00 on the 10th in Dubai: crew 2 already.
    row(w1.id, zoneA.id, '2025-03-09T22:00:00Z', 30),
    // Monday 10 March.
    row(w1.id, zoneA.id, '2025-03-10T08:00:00Z', 60),
    row(w1.id, zoneB.id, '2025-03-10T08:01:00Z', 30),
    row(w2.id, zoneA.id, '2025-03-10T08:00:00Z', 60),
    row(w2.id, null, '2025-03-10T09:00:00Z', 45),
    row(w3.id, zoneB.id, '2025-03-10T10:30:00Z', 20),
    // The other tenant's worker on its own floor, same Monday.
    {
      siteId: other.siteId,
      workerId: otherWorker.id,
      floorId: other.floorId,
      zoneId: null,
      bucket: new Date('2025-03-10T08:00:00Z'),
      seconds: 50,
    },
  ]);
  return {
    siteId: site.id,
    floorId: floor.id,
    zoneA: zoneA.id,
    zoneB: zoneB.id,
    workers: { w1: w1.id, w2: w2.id, w3: w3.id },
    otherFloorId: other.floorId,
  };
}

/** The gateway's base URL on a listening app. */
export function gatewayUrl(address: AddressInfo | string | null): string {
  if (!address || typeof address === 'string') throw new Error('the app is not listening on a port');
  return `http://127.0.0.1:${address.port}${GATEWAY_PREFIX}`;
}

/** The stock Cube client with a user's session token, exactly as Cube's docs set it up. */
export function cubeClient(token: string, apiUrl: string): CubeApi {
  return cube(token, { apiUrl });
}
