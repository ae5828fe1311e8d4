import { and, eq, inArray } from 'drizzle-orm';
import type { Role } from '../../src/domain/roles';
import type { InviteBody } from '../../src/domain/schemas/users';
import { canAssignRole } from '../../src/domain/userManagement';
import type { Principal } from '../auth/principal';
import { requireClient, visibleSitesWhere } from '../auth/tenancy';
import type { Db } from '../db/database';
import { groupsOfSites, sites, userSites } from '../db/schema';
import { forbidden, notFound, unprocessable } from '../http/errors';

/** Where a user sits: its client, its group of sites and the sites it is a member of. */
export interface Placement {
  clientId: number | null;
  groupOfSitesId: number | null;
  siteIds: number[];
}

/** The caller may give `role` (403 "Not Authorized" otherwise). */
export function requireAssignableRole(principal: Principal, role: Role): void {
  if (!canAssignRole(principal.role, role)) throw forbidden();
}

/**
 * Where an invited user goes, within the inviter's reach: a super-admin names the client, anyone
 * else invites into its own client; a site admin invites into its own group of sites. A
 * super-admin belongs to no client, and a client-admin sees its whole client, so neither gets
 * a group or memberships.
 */
export async function placeInvitee(db: Db, principal: Principal, body: InviteBody): Promise<Placement> {
  requireAssignableRole(principal, body.user_role);
  if (body.user_role === 'super-admin') return { clientId: null, groupOfSitesId: null, siteIds: [] };

  const clientId = await inviteeClient(db, principal, body.client_id ?? null);
  if (body.user_role === 'client-admin') return { clientId, groupOfSitesId: null, siteIds: [] };

  const groupOfSitesId = await inviteeGroup(db, principal, clientId, body.group_of_sites_id ?? null);
  const siteIds = await requireMemberSites(db, principal, clientId, body.site_ids ?? []);
  if (principal.role === 'group-of-sites-admin' && groupOfSitesId === null && siteIds.length === 0) {
    // Otherwise the site admin could not see, or manage, the user it just invited.
    throw unprocessable({ site_ids: 'Sites is required' });
  }
  return { clientId, groupOfSitesId, siteIds };
}

async function inviteeClient(db: Db, principal: Principal, requested: number | null): Promise<number> {
  if (principal.role === 'super-admin') {
    if (requested === null) throw unprocessable({ client_id: 'Client is required' });
    return (await requireClient(db, principal, requested)).id;
  }
  if (principal.clientId === null || (requested !== null && requested !== principal.clientId)) {
    throw notFound('Client');
  }
  return principal.clientId;
}

async function inviteeGroup(
  db: Db,
  principal: Principal,
  clientId: number,
  requested: number | null,
): Promise<number | null> {
  if (principal.role === 'group-of-sites-admin') {
    if (requested !== null && requested !== principal.groupOfSitesId) throw notFound('Group of sites');
    return principal.groupOfSitesId;
  }
  if (requested === null) return null;
  const [group] = await db
    .select({ id: groupsOfSites.id })
    .from(groupsOfSites)
    .where(and(eq(groupsOfSites.id, requested), eq(groupsOfSites.clientId, clientId)))
    .limit(1);
  if (!group) throw notFound('Group of sites');
  return group.id;
}

/**
 * The given sites, each visible to the caller (404 "Site not found" otherwise) and of the
 * user's client (422). Repeats are dropped.
 */
export async function requireMemberSites(
  db: Db,
  principal: Principal,
  clientId: number,
  requested: readonly number[],
): Promise<number[]> {
  const ids = [...new Set(requested)];
  if (ids.length === 0) return [];
  const found = await db
    .select({ id: sites.id, clientId: sites.clientId })
    .from(sites)
    .where(and(inArray(sites.id, ids), visibleSitesWhere(principal)));
  if (found.length !== ids.length) throw notFound('Site');
  if (found.some((site) => site.clientId !== clientId)) {
    throw unprocessable({ site_ids: "Sites must belong to the user's client" });
  }
  return ids;
}

/**
 * Replaces the user's memberships among the sites the caller can see; memberships of sites
 * outside the caller's sight are not the caller's to remove. Run inside the caller's transaction.
 */
export async function replaceMemberships(
  tx: Db,
  principal: Principal,
  userId: number,
  siteIds: readonly number[],
): Promise<void> {
  const visible = tx.select({ id: sites.id }).from(sites).where(visibleSitesWhere(principal));
  await tx.delete(userSites).where(and(eq(userSites.userId, userId), inArray(userSites.siteId, visible)));
  if (siteIds.length) {
    await tx
      .insert(userSites)
      .values(siteIds.map((siteId) => ({ userId, siteId })))
      .onConflictDoNothing();
  }
}
