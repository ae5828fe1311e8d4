import { DEMO_PASSWORD, hashPassword } from '../../../server/auth/passwords';
import type { Db } from '../../../server/db/database';
import {
  buildings,
  clients,
  floors,
  groupsOfSites,
  networks,
  sites,
  userSites,
  users,
} from '../../../server/db/schema';
import { ROLE_SLUGS, type Role } from '../../../src/domain/roles';

export interface OtherTenant {
  clientId: number;
  siteId: number;
  buildingId: number;
  /** A floor of Depot Hall, without a blueprint. */
  floorId: number;
  networkId: number;
  userIds: Record<'client-admin' | 'group-of-sites-admin' | 'group-of-sites-viewer', number>;
  email(role: Role): string;
}

/** A second client ("Other Co") with its own site, building, network and users, for cross-tenant checks. */
export async function seedOtherTenant(db: Db): Promise<OtherTenant> {
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  const email = (role: Role) => `${ROLE_SLUGS[role]}@other.test`;
  return db.transaction(async (tx) => {
    const [client] = await tx.insert(clients).values({ name: 'Other Co' }).returning();
    const [group] = await tx
      .insert(groupsOfSites)
      .values({ clientId: client.id, name: 'Depot group' })
      .returning();
    const [site] = await tx
      .insert(sites)
      .values({ clientId: client.id, groupOfSitesId: group.id, name: 'Depot B', timezone: 'Europe/London' })
      .returning();
    const [building] = await tx.insert(buildings).values({ siteId: site.id, name: 'Depot Hall' }).returning();
    const [network] = await tx.insert(networks).values({ name: 'Depot mesh', siteId: site.id }).returning();
    const [floor] = await tx
      .insert(floors)
      .values({
        buildingId: building.id,
        name: 'Depot floor',
        altitude: 0,
        aLat: 51.5,
        aLong: -0.1,
        bLat: 51.5,
        bLong: -0.09,
        cLat: 51.49,
        cLong: -0.09,
        dLat: 51.49,
        dLong: -0.1,
      })
      .returning();
    const ids = {} as OtherTenant['userIds'];
    for (const role of ['client-admin', 'group-of-sites-admin', 'group-of-sites-viewer'] as const) {
      const [user] = await tx
        .insert(users)
        .values({
          name: `Other ${role}`,
          email: email(role),
          passwordHash,
          role,
          status: 'active',
          clientId: client.id,
          groupOfSitesId: role === 'client-admin' ? null : group.id,
        })
        .returning();
      ids[role] = user.id;
      if (role !== 'client-admin') await tx.insert(userSites).values({ userId: user.id, siteId: site.id });
    }
    return {
      clientId: client.id,
      siteId: site.id,
      buildingId: building.id,
      floorId: floor.id,
      networkId: network.id,
      userIds: ids,
      email,
    };
  });
}
