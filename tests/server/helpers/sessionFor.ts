import { eq, like } from 'drizzle-orm';
import { hashPassword } from '../../../server/auth/passwords';
import { hashToken, newToken } from '../../../server/auth/tokens';
import type { Db } from '../../../server/db/database';
import { DEMO_CLIENT, DEMO_EMAIL_DOMAIN, DEMO_SITE } from '../../../server/db/demoSeed';
import { clients, sessions, sites, userSites, users } from '../../../server/db/schema';
import type { Role } from '../../../src/domain/roles';

/** An access token for a user, made by writing the session row directly (no login needed). */
export async function sessionFor(db: Db, userId: number): Promise<string> {
  const token = newToken();
  await db
    .insert(sessions)
    .values({ userId, tokenHash: hashToken(token), expiresAt: new Date(Date.now() + 3_600_000) });
  return token;
}

export interface NewUser {
  role: Role;
  clientId: number | null;
  groupOfSitesId?: number | null;
  siteIds?: number[];
  status?: 'active' | 'inactive' | 'invited';
  /** Omitted: the user never registered (no password). */
  password?: string;
  name?: string;
}

let counter = 0;

/** A user written straight to the database, for tests that change one without touching the seed. */
export async function addUser(db: Db, user: NewUser) {
  counter += 1;
  const tag = `${Date.now().toString(36)}${counter}`;
  const [row] = await db
    .insert(users)
    .values({
      name: user.name ?? `Test user ${tag}`,
      email: `user-${tag}@example.test`,
      role: user.role,
      status: user.status ?? (user.password ? 'active' : 'invited'),
      passwordHash: user.password ? await hashPassword(user.password) : null,
      clientId: user.clientId,
      groupOfSitesId: user.groupOfSitesId ?? null,
    })
    .returning();
  if (user.siteIds?.length) {
    await db.insert(userSites).values(user.siteIds.map((siteId) => ({ userId: row.id, siteId })));
  }
  return row;
}

/** Ids of the demo seed: its client, group of sites, site "Tower A" and one user per role. */
export async function demoIds(db: Db) {
  const [client] = await db.select().from(clients).where(eq(clients.name, DEMO_CLIENT));
  const [site] = await db.select().from(sites).where(eq(sites.name, DEMO_SITE));
  const rows = await db
    .select({ id: users.id, role: users.role })
    .from(users)
    .where(like(users.email, `%@${DEMO_EMAIL_DOMAIN}`));
  const userIds = Object.fromEntries(rows.map((r) => [r.role, r.id])) as Record<Role, number>;
  return { clientId: client.id, groupOfSitesId: site.groupOfSitesId!, siteId: site.id, userIds };
}
