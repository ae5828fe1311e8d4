import { and, eq, exists, or, sql } from 'drizzle-orm';
import type { EscalationLevel } from '../../src/domain/escalation';
import type { Db } from '../db/database';
import { sites, userSites, users } from '../db/schema';

export interface SafetyContact {
  id: number;
  name: string;
  email: string;
}

/**
 * Who is told when an incident of a site is escalated: the active users who may change safety on
 * that site (DESIGN.md §4) — the client-admins of its client and the site admins of its group of
 * sites or made members of it. Super-admins only when the site has nobody else, so an escalation
 * is never written to no one. (Safety-demo accounts are demo logins, not contacts.)
 */
export async function safetyContacts(db: Db, siteId: number): Promise<SafetyContact[]> {
  const [site] = await db.select().from(sites).where(eq(sites.id, siteId)).limit(1);
  if (!site) return [];
  const columns = { id: users.id, name: users.name, email: users.email };
  const siteAdminOfSite = and(
    eq(users.role, 'group-of-sites-admin'),
    or(
      site.groupOfSitesId === null ? sql`false` : eq(users.groupOfSitesId, site.groupOfSitesId),
      exists(
        sql`(select 1 from ${userSites} where ${userSites.userId} = ${users.id} and ${userSites.siteId} = ${site.id})`,
      ),
    ),
  );
  const contacts = await db
    .select(columns)
    .from(users)
    .where(
      and(
        eq(users.status, 'active'),
        or(and(eq(users.role, 'client-admin'), eq(users.clientId, site.clientId)), siteAdminOfSite),
      ),
    )
    .orderBy(users.id);
  if (contacts.length > 0) return contacts;
  return db
    .select(columns)
    .from(users)
    .where(and(eq(users.status, 'active'), eq(users.role, 'super-admin')))
    .orderBy(users.id);
}

/**
 * The client admins of the site's client (escalation level contacts 'client'): the people above
 * the site. Super-admins only when the client has none, as for the safety contacts.
 */
export async function clientContacts(db: Db, siteId: number): Promise<SafetyContact[]> {
  const [site] = await db.select().from(sites).where(eq(sites.id, siteId)).limit(1);
  if (!site) return [];
  const columns = { id: users.id, name: users.name, email: users.email };
  const admins = await db
    .select(columns)
    .from(users)
    .where(and(eq(users.status, 'active'), eq(users.role, 'client-admin'), eq(users.clientId, site.clientId)))
    .orderBy(users.id);
  if (admins.length > 0) return admins;
  return db
    .select(columns)
    .from(users)
    .where(and(eq(users.status, 'active'), eq(users.role, 'super-admin')))
    .orderBy(users.id);
}

/** The addresses one escalation level e-mails: its contacts and its own recipients, each once. */
export async function levelRecipients(db: Db, siteId: number, level: EscalationLevel): Promise<string[]> {
  const contacts =
    level.contacts === 'site'
      ? await safetyContacts(db, siteId)
      : level.contacts === 'client'
        ? await clientContacts(db, siteId)
        : [];
  const seen = new Set<string>();
  const addresses: string[] = [];
  for (const address of [...contacts.map((c) => c.email), ...level.recipients]) {
    const key = address.toLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    addresses.push(address);
  }
  return addresses;
}
