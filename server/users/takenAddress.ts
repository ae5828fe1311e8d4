import { and, eq, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Role } from '../../src/domain/roles';
import type { ManagedUser } from '../../src/domain/user';
import type { Principal } from '../auth/principal';
import { managedUsersWhere } from '../auth/tenancy';
import type { Config } from '../config';
import type { Db } from '../db/database';
import { clients, users } from '../db/schema';
import { conflict } from '../http/errors';
import { queueEmail } from '../mail/outbox';
import { toManagedUsers, type UserRow } from './managedUsers';
import type { Placement } from './placement';

export const EMAIL_TAKEN = 'Email already exists!';
export const INVITE_ATTEMPT_SUBJECT = 'Someone tried to invite you to Sitewatch';

interface Context {
  db: Db;
  config: Config;
  principal: Principal;
  log?: FastifyBaseLogger;
}

export interface Invitation {
  name: string;
  /** Trimmed and lower-cased. */
  email: string;
  role: Role;
  placement: Placement;
}

/**
 * An invitation for an address that already has an account. When the inviter manages that account
 * it may know: 409. Otherwise the reply is the one any invitation gets, so that no administrator can
 * test whether a person has an account in another client; the account holder is told by e-mail
 * instead, with nothing to click, and the account stays as it was.
 */
export async function answerTakenAddress(ctx: Context, invitation: Invitation): Promise<ManagedUser> {
  const { db, principal } = ctx;
  const byEmail = sql`lower(${users.email}) = ${invitation.email}`;
  const [managed] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(byEmail, managedUsersWhere(principal)))
    .limit(1);
  if (managed) throw conflict(EMAIL_TAKEN);
  const [holder] = await db.select().from(users).where(byEmail).limit(1);
  // Gone since the insert failed (deleted meanwhile): nothing to tell anyone, and still no oracle.
  if (holder) await tellHolder(ctx, holder, invitation.placement.clientId);
  return lookalikeInvitee(ctx, invitation);
}

async function tellHolder(ctx: Context, holder: UserRow, clientId: number | null): Promise<void> {
  const { db, config } = ctx;
  const [client] = clientId
    ? await db.select({ name: clients.name }).from(clients).where(eq(clients.id, clientId)).limit(1)
    : [];
  const where = client ? ` by ${client.name}` : '';
  await queueEmail(
    db,
    {
      to: holder.email,
      subject: INVITE_ATTEMPT_SUBJECT,
      body: [
        `Hello ${holder.name},`,
        '',
        `Someone tried to invite this address to Sitewatch${where}, but it already has an account.`,
        'Nothing about your account has changed and you need not do anything.',
        '',
        `You sign in as before at ${config.publicUrl}/login. If you did not expect this invitation,`,
        'tell the person who sent it that you already have an account, or ignore this message.',
      ].join('\n'),
    },
    ctx.log,
  );
}

/**
 * What a fresh invitation would have answered. Its id is taken from the users' own sequence, as an
 * insert would take it, so the number looks like any other new user's.
 */
async function lookalikeInvitee(ctx: Context, invitation: Invitation): Promise<ManagedUser> {
  const result = await ctx.db.execute(sql`select nextval(pg_get_serial_sequence('users', 'id')) as id`);
  // Both drivers (pg, PGlite) answer raw SQL with `{ rows }`.
  const [{ id }] = (result as unknown as { rows: { id: number | string }[] }).rows;
  const now = new Date();
  const row: UserRow = {
    id: Number(id),
    clientId: invitation.placement.clientId,
    groupOfSitesId: invitation.placement.groupOfSitesId,
    name: invitation.name,
    email: invitation.email,
    passwordHash: null,
    role: invitation.role,
    status: 'invited',
    locale: 'en',
    lastClientId: null,
    lastSiteId: null,
    createdAt: now,
    updatedAt: now,
  };
  const [user] = await toManagedUsers(ctx.db, ctx.principal, [row], invitation.placement.siteIds);
  return user;
}
