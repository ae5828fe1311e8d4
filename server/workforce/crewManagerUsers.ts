import { and, asc, eq, or, type SQL, sql } from 'drizzle-orm';
import type { CrewManagerUser } from '../../src/domain/schemas/workforce';
import type { Db } from '../db/database';
import { type sites, userSites, users } from '../db/schema';

type SiteRow = typeof sites.$inferSelect;

/**
 * Who may manage a site's crews: users with the crew-manager role, of the site's client, who are
 * members of the site or of its group of sites. The managers picker lists them and naming
 * managers accepts only them.
 */
export function siteCrewManagersWhere(site: SiteRow): SQL | undefined {
  const memberOfSite = sql`exists (select 1 from ${userSites} where ${userSites.userId} = ${users.id} and ${userSites.siteId} = ${site.id})`;
  return and(
    eq(users.role, 'crew-manager'),
    eq(users.clientId, site.clientId),
    site.groupOfSitesId === null
      ? memberOfSite
      : or(memberOfSite, eq(users.groupOfSitesId, site.groupOfSitesId)),
  );
}

/** The site's possible crew managers, by name (case-insensitive), then id. */
export function selectCrewManagerUsers(db: Db, site: SiteRow): Promise<CrewManagerUser[]> {
  return db
    .select({ id: users.id, name: users.name, email: users.email, user_role: users.role })
    .from(users)
    .where(siteCrewManagersWhere(site))
    .orderBy(sql`lower(${users.name})`, asc(users.id));
}
