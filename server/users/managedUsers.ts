import { and, asc, count, desc, eq, ilike, inArray, or, type SQL, type SQLWrapper, sql } from 'drizzle-orm';
import type { Role } from '../../src/domain/roles';
import { DEFAULT_USERS_PER_PAGE, type ListUsersQuery } from '../../src/domain/schemas/users';
import type { ManagedUser, UserStatus } from '../../src/domain/user';
import type { Principal } from '../auth/principal';
import { managedUsersWhere, requireClient, visibleClientsWhere, visibleSitesWhere } from '../auth/tenancy';
import type { Db } from '../db/database';
import { clients, sites, userSites, users } from '../db/schema';

export type UserRow = typeof users.$inferSelect;
type ClientRef = { id: number; name: string };
type UserSites = { sites: ClientRef[]; siteIds: number[] };

/** Users as user management lists them, each with its clients (spec §3 "Users list"). */
export async function toManagedUsers(
  db: Pick<Db, 'select'>,
  principal: Principal,
  rows: readonly UserRow[],
  /** For a row not stored (an invitation's look-alike): the site memberships it would have. */
  unstoredMemberships?: readonly number[],
): Promise<ManagedUser[]> {
  const clientIds = [...new Set(rows.map((row) => row.clientId).filter((id) => id !== null))];
  const own = clientIds.length
    ? await db
        .select({ id: clients.id, name: clients.name })
        .from(clients)
        .where(inArray(clients.id, clientIds))
    : [];
  const byId = new Map(own.map((client) => [client.id, client]));
  // A super-admin belongs to no client and works across all of them.
  const all = rows.some((row) => row.role === 'super-admin') ? await visibleClients(db, principal) : [];
  const reach =
    unstoredMemberships === undefined
      ? await sitesOf(db, principal, rows)
      : new Map(
          await Promise.all(
            rows.map(
              async (row) =>
                [row.id, await sitesOfUnstored(db, principal, row, unstoredMemberships)] as const,
            ),
          ),
        );
  return rows.map((row) => {
    const client = row.clientId === null ? undefined : byId.get(row.clientId);
    const userSites = reach.get(row.id) ?? { sites: [], siteIds: [] };
    return toManagedUser(row, row.role === 'super-admin' ? all : client ? [client] : [], userSites);
  });
}

/**
 * Each user's sites as GET /users/{id}/sites gives them (its reach, as the caller sees it) and
 * its memberships among them, for a whole page in one query rather than one call per row.
 */
async function sitesOf(
  db: Pick<Db, 'select'>,
  principal: Principal,
  rows: readonly UserRow[],
): Promise<Map<number, UserSites>> {
  const bySite = new Map<number, UserSites>(rows.map((row) => [row.id, { sites: [], siteIds: [] }]));
  if (rows.length === 0) return bySite;
  const member = sql<boolean>`exists (select 1 from ${userSites} where ${userSites.userId} = ${users.id} and ${userSites.siteId} = ${sites.id})`;
  const found = await db
    .select({ userId: users.id, id: sites.id, name: sites.name, member })
    .from(users)
    .innerJoin(sites, reachesSite(users.role, users.clientId, users.groupOfSitesId, member))
    .where(
      and(
        inArray(
          users.id,
          rows.map((row) => row.id),
        ),
        visibleSitesWhere(principal),
      ),
    )
    .orderBy(sql`lower(${sites.name})`, asc(sites.id));
  for (const site of found) {
    const entry = bySite.get(site.userId);
    if (!entry) continue;
    entry.sites.push({ id: site.id, name: site.name });
    if (site.member) entry.siteIds.push(site.id);
  }
  return bySite;
}

/** Whether a user of this role, client and group of sites, member of the sites `member` is true for, reaches a site. */
function reachesSite(
  role: SQLWrapper | string,
  clientId: SQLWrapper | number | null,
  groupOfSitesId: SQLWrapper | number | null,
  member: SQL,
) {
  return sql`(${role} = 'super-admin'
    or (${role} = 'client-admin' and ${sites.clientId} = ${clientId})
    or (${role} not in ('super-admin', 'client-admin')
      and (${member} or ${sites.groupOfSitesId} = ${groupOfSitesId})))`;
}

/** The sites an unstored row would reach as the caller sees them, by the same rule as a stored one's. */
async function sitesOfUnstored(
  db: Pick<Db, 'select'>,
  principal: Principal,
  row: UserRow,
  memberships: readonly number[],
): Promise<UserSites> {
  const member = memberships.length
    ? sql<boolean>`${inArray(sites.id, [...memberships])}`
    : sql<boolean>`false`;
  const found = await db
    .select({ id: sites.id, name: sites.name, member })
    .from(sites)
    .where(and(reachesSite(row.role, row.clientId, row.groupOfSitesId, member), visibleSitesWhere(principal)))
    .orderBy(sql`lower(${sites.name})`, asc(sites.id));
  return {
    sites: found.map((site) => ({ id: site.id, name: site.name })),
    siteIds: found.filter((site) => site.member).map((site) => site.id),
  };
}

export function toManagedUser(
  row: UserRow,
  userClients: ClientRef[],
  { sites: reach, siteIds }: UserSites,
): ManagedUser {
  return {
    id: row.id,
    key: row.id,
    name: row.name,
    email: row.email,
    user_role: row.role as Role,
    status: row.status as UserStatus,
    client_id: row.clientId,
    group_of_sites_id: row.groupOfSitesId,
    clients: userClients,
    sites: reach,
    site_ids: siteIds,
    registered: row.passwordHash !== null,
  };
}

export function visibleClients(db: Pick<Db, 'select'>, principal: Principal): Promise<ClientRef[]> {
  return db
    .select({ id: clients.id, name: clients.name })
    .from(clients)
    .where(visibleClientsWhere(principal))
    .orderBy(sql`lower(${clients.name})`, asc(clients.id));
}

const SORT_COLUMNS = {
  name: sql`lower(${users.name})`,
  email: users.email,
  user_role: users.role,
  status: users.status,
} as const;

/** `%`, `_` and `\` match themselves in a search, not as LIKE wildcards. */
function likePattern(search: string): string {
  return `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** One page of the users the caller manages, optionally of one (visible) client. */
export async function listManagedUsers(db: Db, principal: Principal, query: ListUsersQuery) {
  const page = query.page ?? 1;
  const perPage = query.perPage ?? DEFAULT_USERS_PER_PAGE;
  const conditions: (SQL | undefined)[] = [managedUsersWhere(principal)];
  if (query.client_id !== undefined) {
    const client = await requireClient(db, principal, query.client_id);
    conditions.push(eq(users.clientId, client.id));
  }
  const search = query.search?.trim();
  if (search) {
    const pattern = likePattern(search);
    conditions.push(or(ilike(users.name, pattern), ilike(users.email, pattern)));
  }
  const where = and(...conditions);
  const [field, direction] = (query.sort ?? 'name,asc').split(',') as [keyof typeof SORT_COLUMNS, string];
  const order = direction === 'desc' ? desc : asc;

  const [{ total }] = await db.select({ total: count() }).from(users).where(where);
  const rows = await db
    .select()
    .from(users)
    .where(where)
    .orderBy(order(SORT_COLUMNS[field]), asc(users.id))
    .limit(perPage)
    .offset((page - 1) * perPage);
  return { users: await toManagedUsers(db, principal, rows), meta: { page, perPage, total } };
}
