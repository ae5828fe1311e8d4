import { DEMO_PASSWORD, hashPassword } from '../../../server/auth/passwords';
import type { Db } from '../../../server/db/database';
import {
  buildings,
  clients,
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
      networkId: network.id,
      userIds: ids,
      email,
    };
  });
}
