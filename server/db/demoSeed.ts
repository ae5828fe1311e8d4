import { and, eq, sql } from 'drizzle-orm';
import { ROLE_LABELS, ROLE_SLUGS, ROLES, type Role } from '../../src/domain/roles';
import { DEMO_PASSWORD, hashPassword } from '../auth/passwords';
import { DEMO_BLUEPRINT_SIZE, demoBlueprintName } from './blueprintImage';
import type { Db } from './database';
import { seedDemoElectricalRooms } from './demoElectricalRooms';
import { seedDemoInstallation } from './demoInstallation';
import { seedDemoPermits } from './demoPermits';
import { seedDemoProductivity } from './demoProductivity';
import { type DemoFloor, seedDemoWorkforce } from './demoWorkforce';
import {
  buildings,
  clients,
  floors,
  groupsOfSites,
  networks,
  sites,
  userSites,
  users,
  zones,
} from './schema';

export const DEMO_CLIENT = 'Demo Construction Co';
export const DEMO_SITE = 'Tower A';
export const DEMO_EMAIL_DOMAIN = 'demo.sitewatch.dev';

export function demoEmail(role: Role): string {
  return `${ROLE_SLUGS[role]}@${DEMO_EMAIL_DOMAIN}`;
}

export async function isEmpty(db: Db): Promise<boolean> {
  const [row] = await db.select({ count: sql<number>`count(*)::int` }).from(clients);
  return row.count === 0;
}

/** The demo site "Tower A" of the demo client, if this database has it: the one the built-in simulator animates. */
export async function findDemoSiteId(db: Db): Promise<number | null> {
  const [row] = await db
    .select({ id: sites.id })
    .from(sites)
    .innerJoin(clients, eq(clients.id, sites.clientId))
    .where(and(eq(sites.name, DEMO_SITE), eq(clients.name, DEMO_CLIENT)))
    .limit(1);
  return row?.id ?? null;
}

/** The demo site of DESIGN.md §6. One transaction. */
export async function seedDemo(db: Db, now = new Date()): Promise<void> {
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  await db.transaction(async (tx) => {
    const [client] = await tx.insert(clients).values({ name: DEMO_CLIENT }).returning();
    const [group] = await tx
      .insert(groupsOfSites)
      .values({ clientId: client.id, name: 'Tower A group' })
      .returning();
    const [site] = await tx
      .insert(sites)
      .values({ clientId: client.id, groupOfSitesId: group.id, name: DEMO_SITE, timezone: 'Asia/Dubai' })
      .returning();
    const blocks = await tx
      .insert(buildings)
      .values([
        { siteId: site.id, name: 'North Block' },
        { siteId: site.id, name: 'South Block' },
      ])
      .returning();
    const demoFloors: DemoFloor[] = [];
    for (const [index, block] of blocks.entries())
      demoFloors.push(...(await seedFloors(tx, block.id, index + 1)));
    const meshes = await tx
      .insert(networks)
      .values([
        { name: 'Tower A mesh', siteId: site.id },
        { name: 'Tower A south mesh', siteId: site.id },
        { name: 'Spare gateway kit', siteId: null },
      ])
      .returning();
    let crewManagerUserId = 0;
    for (const role of ROLES) {
      const [user] = await tx
        .insert(users)
        .values({
          name: `Demo ${ROLE_LABELS[role]}`,
          email: demoEmail(role),
          passwordHash,
          role,
          status: 'active',
          clientId: role === 'super-admin' ? null : client.id,
          groupOfSitesId: role === 'super-admin' || role === 'client-admin' ? null : group.id,
        })
        .returning();
      if (role !== 'super-admin' && role !== 'client-admin') {
        await tx.insert(userSites).values({ userId: user.id, siteId: site.id });
      }
      if (role === 'crew-manager') crewManagerUserId = user.id;
    }
    await seedDemoWorkforce(tx, {
      siteId: site.id,
      timezone: site.timezone,
      networkIds: meshes.filter((mesh) => mesh.siteId === site.id).map((mesh) => mesh.id),
      floors: demoFloors,
      crewManagerUserId,
      now,
    });
    await seedDemoElectricalRooms(tx, site.id, now);
    await seedDemoPermits(tx, site.id, now);
    await seedDemoInstallation(tx, site.id, now);
    await seedDemoProductivity(tx, site.id, site.timezone, now);
  });
}

/** Demo footprint near Dubai: about 80 m east–west by 50 m north–south (1600 × 1000 px). */
const DEMO_ORIGIN = { lat: 25.2, long: 55.3 };
const FOOTPRINT_LAT = 50 / 111_320;
const FOOTPRINT_LONG = 80 / (111_320 * Math.cos((DEMO_ORIGIN.lat * Math.PI) / 180));
const DEMO_LEVELS = [
  { name: 'Ground Floor', altitude: 0, category: 'Floor' },
  { name: 'Level 1', altitude: 4, category: 'Floor' },
  { name: 'Level 2', altitude: 8, category: 'Floor' },
];

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

/**
 * Three storeys for a demo building: generated blueprints (drawn on first read, see
 * blueprintStore) whose corners a–d span the footprint, a work and a restricted zone on each,
 * and the building's assembly zone on its ground floor.
 */
async function seedFloors(tx: Tx, buildingId: number, building: number): Promise<DemoFloor[]> {
  const seeded: DemoFloor[] = [];
  const top = DEMO_ORIGIN.lat - (building - 1) * FOOTPRINT_LAT * 1.6;
  const left = DEMO_ORIGIN.long;
  // A point of the image, as fractions of its width and height, on the earth: [long, lat].
  const at = (x: number, y: number): [number, number] => [left + x * FOOTPRINT_LONG, top - y * FOOTPRINT_LAT];
  const box = (x0: number, y0: number, x1: number, y1: number) => [
    at(x0, y0),
    at(x1, y0),
    at(x1, y1),
    at(x0, y1),
  ];
  for (const [level, spec] of DEMO_LEVELS.entries()) {
    const [floor] = await tx
      .insert(floors)
      .values({
        buildingId,
        ...spec,
        blueprintFile: demoBlueprintName(building, level),
        blueprintMime: 'image/png',
        blueprintWidth: DEMO_BLUEPRINT_SIZE.width,
        blueprintHeight: DEMO_BLUEPRINT_SIZE.height,
        aLat: top,
        aLong: left,
        bLat: top,
        bLong: left + FOOTPRINT_LONG,
        cLat: top - FOOTPRINT_LAT,
        cLong: left + FOOTPRINT_LONG,
        dLat: top - FOOTPRINT_LAT,
        dLong: left,
      })
      .returning();
    seeded.push({
      id: floor.id,
      buildingIndex: building - 1,
      corners: {
        a: { lat: floor.aLat, long: floor.aLong },
        b: { lat: floor.bLat, long: floor.bLong },
        c: { lat: floor.cLat, long: floor.cLong },
        d: { lat: floor.dLat, long: floor.dLong },
      },
      image: DEMO_BLUEPRINT_SIZE,
    });
    await tx.insert(zones).values([
      { floorId: floor.id, name: 'Fit-out area', kind: 'work', coordinates: box(0.16, 0.08, 0.5, 0.42) },
      { floorId: floor.id, name: 'East wing', kind: 'work', coordinates: box(0.62, 0.58, 0.84, 0.92) },
      {
        floorId: floor.id,
        name: 'Stair core',
        kind: 'restricted',
        coordinates: box(0.07, 0.08, 0.14, 0.42),
      },
      ...(level === 0
        ? [
            {
              floorId: floor.id,
              name: 'Assembly point',
              kind: 'assembly',
              coordinates: box(0.42, 0.6, 0.58, 0.9),
            },
          ]
        : []),
    ]);
  }
  return seeded;
}
