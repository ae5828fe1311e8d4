import { sql } from 'drizzle-orm';
import { ROLE_LABELS, ROLE_SLUGS, ROLES, type Role } from '../../src/domain/roles';
import { DEMO_PASSWORD, hashPassword } from '../auth/passwords';
import type { Db } from './database';
import { buildings, clients, groupsOfSites, networks, sites, userSites, users } from './schema';

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

/** The demo site of DESIGN.md §6, as far as the schema reaches so far. One transaction. */
export async function seedDemo(db: Db): Promise<void> {
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
    await tx.insert(buildings).values([
      { siteId: site.id, name: 'North Block' },
      { siteId: site.id, name: 'South Block' },
    ]);
    await tx.insert(networks).values([
      { name: 'Tower A mesh', siteId: site.id },
      { name: 'Spare gateway kit', siteId: null },
    ]);
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
    }
  });
}
