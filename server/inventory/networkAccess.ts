import { and, eq, sql } from 'drizzle-orm';
import type { Principal } from '../auth/principal';
import { visibleSitesWhere } from '../auth/tenancy';
import type { Db } from '../db/database';
import { networks, sites } from '../db/schema';
import { notFound } from '../http/errors';

/**
 * A network of a site the caller may see (DESIGN.md §4). A network on no site carries no
 * site's devices; only a super-admin, who sees everything, may name one.
 */
export async function requireNetwork(db: Db, principal: Principal, networkId: number) {
  const visible = visibleSitesWhere(principal);
  const [network] = await db
    .select()
    .from(networks)
    .where(
      and(
        eq(networks.id, networkId),
        visible === undefined
          ? undefined
          : sql`${networks.siteId} in (select ${sites.id} from ${sites} where ${visible})`,
      ),
    )
    .limit(1);
  if (!network) throw notFound('Network');
  return network;
}
