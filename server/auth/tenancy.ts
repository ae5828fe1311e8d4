import { and, eq, exists, inArray, or, type SQL, sql } from 'drizzle-orm';
import { managedRoles } from '../../src/domain/userManagement';
import type { Db } from '../db/database';
import { runPrepared } from '../db/preparedRows';
import { buildings, clients, sites, userSites, users } from '../db/schema';
import { notFound } from '../http/errors';
import type { Principal } from './principal';

/**
 * Tenancy (DESIGN.md §4): a super-admin sees every client, a client-admin its client's sites,
 * everyone else the sites of its group of sites and the sites it was made a member of.
 * Anything outside is answered 404, never 403, so existence does not leak across tenants.
 */
export function visibleSitesWhere(principal: Principal): SQL | undefined {
  if (principal.role === 'super-admin') return undefined;
  if (principal.role === 'client-admin') {
    return principal.clientId === null ? sql`false` : eq(sites.clientId, principal.clientId);
  }
  const member = exists(
    sql`(select 1 from ${userSites} where ${userSites.siteId} = ${sites.id} and ${userSites.userId} = ${principal.id})`,
  );
  return principal.groupOfSitesId === null
    ? member
    : or(member, eq(sites.groupOfSitesId, principal.groupOfSitesId));
}

export async function visibleSiteIds(db: Db, principal: Principal): Promise<number[]> {
  const rows = await db.select({ id: sites.id }).from(sites).where(visibleSitesWhere(principal));
  return rows.map((r) => r.id);
}

export async function requireSite(db: Db, principal: Principal, siteId: number) {
  const [site] = await runPrepared(
    db
      .select()
      .from(sites)
      .where(and(eq(sites.id, siteId), visibleSitesWhere(principal)))
      .limit(1),
  );
  if (!site) throw notFound('Site');
  return site;
}

export async function requireBuilding(db: Db, principal: Principal, buildingId: number) {
  const [row] = await db
    .select({ building: buildings })
    .from(buildings)
    .innerJoin(sites, eq(sites.id, buildings.siteId))
    .where(and(eq(buildings.id, buildingId), visibleSitesWhere(principal)))
    .limit(1);
  if (!row) throw notFound('Building');
  return row.building;
}

/** Clients the caller may see: all, its own, or those owning one of its sites. */
export function visibleClientsWhere(principal: Principal): SQL | undefined {
  if (principal.role === 'super-admin') return undefined;
  if (principal.role === 'client-admin') {
    return principal.clientId === null ? sql`false` : eq(clients.id, principal.clientId);
  }
  return inArray(
    clients.id,
    sql`(select ${sites.clientId} from ${sites} where ${visibleSitesWhere(principal)})`,
  );
}

export async function requireClient(db: Db, principal: Principal, clientId: number) {
  const [client] = await db
    .select()
    .from(clients)
    .where(and(eq(clients.id, clientId), visibleClientsWhere(principal)))
    .limit(1);
  if (!client) throw notFound('Client');
  return client;
}

/**
 * Users the caller may manage: a super-admin all, a client-admin its client's users, a site
 * admin the users who share one of its sites (and never a client-admin or super-admin).
 */
export function managedUsersWhere(principal: Principal): SQL | undefined {
  if (principal.role === 'super-admin') return undefined;
  if (principal.role === 'client-admin') {
    return principal.clientId === null ? sql`false` : eq(users.clientId, principal.clientId);
  }
  if (principal.role === 'group-of-sites-admin') {
    const sharesSite = exists(
      sql`(select 1 from ${userSites} where ${userSites.userId} = ${users.id} and ${userSites.siteId} in (select ${sites.id} from ${sites} where ${visibleSitesWhere(principal)}))`,
    );
    const sameGroup =
      principal.groupOfSitesId === null ? sql`false` : eq(users.groupOfSitesId, principal.groupOfSitesId);
    return and(
      inArray(users.role, [...managedRoles(principal.role)]),
      or(sharesSite, sameGroup, eq(users.id, principal.id)),
    );
  }
  return eq(users.id, principal.id);
}

export async function requireManagedUser(db: Db, principal: Principal, userId: number) {
  const [user] = await db
    .select()
    .from(users)
    .where(and(eq(users.id, userId), managedUsersWhere(principal)))
    .limit(1);
  if (!user) throw notFound('User');
  return user;
}
