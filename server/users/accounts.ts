import { and, eq, isNull, ne, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Role } from '../../src/domain/roles';
import type { EditUserBody, InviteBody } from '../../src/domain/schemas/users';
import type { ManagedUser } from '../../src/domain/user';
import { hashPassword } from '../auth/passwords';
import type { Principal } from '../auth/principal';
import { requireManagedUser } from '../auth/tenancy';
import { issueUserToken } from '../auth/userTokens';
import type { Config } from '../config';
import type { Db } from '../db/database';
import { uniqueViolation } from '../db/errors';
import { sessions, userSites, users, userTokens } from '../db/schema';
import { conflict, unprocessable } from '../http/errors';
import { requiredName } from '../http/input';
import { queueEmail } from '../mail/outbox';
import { toManagedUsers, type UserRow } from './managedUsers';
import { placeInvitee, replaceMemberships, requireAssignableRole, requireMemberSites } from './placement';
import { answerTakenAddress, type Invitation } from './takenAddress';

export { EMAIL_TAKEN } from './takenAddress';

export const NOT_REGISTERED = 'User has not registered yet';
export const ALREADY_REGISTERED = 'User is already registered';
export const INVITATION_SUBJECT = 'You are invited to Sitewatch';

interface Context {
  db: Db;
  config: Config;
  principal: Principal;
  log?: FastifyBaseLogger;
}

async function managed(ctx: Context, row: UserRow): Promise<ManagedUser> {
  const [user] = await toManagedUsers(ctx.db, ctx.principal, [row]);
  return user;
}

/** A new user with status invited and no password, its memberships and its invitation: one transaction. */
export async function inviteUser(ctx: Context, body: InviteBody): Promise<ManagedUser> {
  const { db, principal } = ctx;
  const name = requiredName(body.name);
  const placement = await placeInvitee(db, principal, body);
  const email = body.email.trim().toLowerCase();
  const invitation: Invitation = { name, email, role: body.user_role, placement };
  const [taken] = await db
    .select({ id: users.id })
    .from(users)
    .where(sql`lower(${users.email}) = ${email}`)
    .limit(1);
  if (taken) return answerTakenAddress(ctx, invitation);
  try {
    const user = await db.transaction(async (tx) => {
      const [row] = await tx
        .insert(users)
        .values({
          name,
          email,
          role: body.user_role,
          status: 'invited',
          clientId: placement.clientId,
          groupOfSitesId: placement.groupOfSitesId,
        })
        .returning();
      if (placement.siteIds.length) {
        await tx.insert(userSites).values(placement.siteIds.map((siteId) => ({ userId: row.id, siteId })));
      }
      await sendInvitation({ ...ctx, db: tx }, row);
      return row;
    });
    return managed(ctx, user);
  } catch (error) {
    // Two invitations racing for one address: the unique index decides.
    if (uniqueViolation(error)) return answerTakenAddress(ctx, invitation);
    throw error;
  }
}

/** Issues a fresh invitation token (the earlier one stops working) and e-mails its link. */
async function sendInvitation(ctx: Context, user: UserRow): Promise<void> {
  const { db, config } = ctx;
  const token = await issueUserToken(db, user.id, 'invitation', config.tokenTtlHours);
  const link = `${config.publicUrl}/register/${token}`;
  await queueEmail(
    db,
    {
      to: user.email,
      subject: INVITATION_SUBJECT,
      body: [
        `Hello ${user.name},`,
        '',
        'You have been invited to Sitewatch. Open this link to set your password and sign in:',
        '',
        link,
        '',
        `The link works once and expires in ${config.tokenTtlHours} hours.`,
      ].join('\n'),
      link,
    },
    ctx.log,
  );
}

/** Name, role and memberships, within the same reach as an invitation. */
export async function editUser(ctx: Context, userId: number, body: EditUserBody): Promise<ManagedUser> {
  const { db, principal } = ctx;
  const user = await requireManagedUser(db, principal, userId);
  const name = body.name === undefined ? user.name : requiredName(body.name);
  const role = body.user_role ?? (user.role as Role);
  if (role !== user.role) {
    if (user.id === principal.id) throw unprocessable({ user_role: 'You cannot change your own role' });
    requireAssignableRole(principal, role);
    if (role === 'super-admin' || user.role === 'super-admin') {
      // A super-admin has no client; moving one in or out of a client is not an edit.
      throw unprocessable({ user_role: 'User role cannot change to or from Super Admin' });
    }
  }
  let siteIds: number[] | undefined;
  if (body.site_ids !== undefined) {
    if (user.clientId === null) throw unprocessable({ site_ids: 'A Super Admin has no sites' });
    siteIds = await requireMemberSites(db, principal, user.clientId, body.site_ids);
  }
  const updated = await db.transaction(async (tx) => {
    const [row] = await tx
      .update(users)
      .set({ name, role, updatedAt: new Date() })
      .where(eq(users.id, user.id))
      .returning();
    if (siteIds) await replaceMemberships(tx, principal, user.id, siteIds);
    return row;
  });
  return managed(ctx, updated);
}

/** Only a user who has set a password (registered) can be active. */
export async function activateUser(ctx: Context, userId: number): Promise<ManagedUser> {
  const { db, principal } = ctx;
  const user = await requireManagedUser(db, principal, userId);
  if (!user.passwordHash) throw conflict(NOT_REGISTERED);
  const [row] = await db
    .update(users)
    .set({ status: 'active', updatedAt: new Date() })
    .where(eq(users.id, user.id))
    .returning();
  return managed(ctx, row);
}

/**
 * Inactive at once: every session of the user is revoked, and its unused invitation and
 * reset links stop working, in the same transaction.
 */
export async function deactivateUser(ctx: Context, userId: number): Promise<ManagedUser> {
  const { db, principal } = ctx;
  if (userId === principal.id) throw unprocessable({ id: 'You cannot deactivate yourself' });
  const user = await requireManagedUser(db, principal, userId);
  const row = await db.transaction(async (tx) => {
    const now = new Date();
    const [updated] = await tx
      .update(users)
      .set({ status: 'inactive', updatedAt: now })
      .where(eq(users.id, user.id))
      .returning();
    await tx
      .update(sessions)
      .set({ revokedAt: now })
      .where(and(eq(sessions.userId, user.id), isNull(sessions.revokedAt)));
    await tx
      .update(userTokens)
      .set({ usedAt: now })
      .where(and(eq(userTokens.userId, user.id), isNull(userTokens.usedAt)));
    return updated;
  });
  return managed(ctx, row);
}

/**
 * A new invitation for a user who never registered (status invited, or deactivated before
 * registering, who becomes invited again); the previous link stops working.
 */
export async function reinviteUser(ctx: Context, userId: number): Promise<ManagedUser> {
  const { db, principal } = ctx;
  const user = await requireManagedUser(db, principal, userId);
  if (user.passwordHash || user.status === 'active') throw conflict(ALREADY_REGISTERED);
  const row = await db.transaction(async (tx) => {
    const [updated] = await tx
      .update(users)
      .set({ status: 'invited', updatedAt: new Date() })
      .where(eq(users.id, user.id))
      .returning();
    await sendInvitation({ ...ctx, db: tx }, updated);
    return updated;
  });
  return managed(ctx, row);
}

/**
 * An administrator sets the password (argon2id). The user's sessions are revoked and its
 * unused reset links stop working; the caller's own session survives when it resets its own.
 */
export async function setUserPassword(ctx: Context, userId: number, password: string): Promise<void> {
  const { db, principal } = ctx;
  const user = await requireManagedUser(db, principal, userId);
  const passwordHash = await hashPassword(password);
  await db.transaction(async (tx) => {
    const now = new Date();
    await tx.update(users).set({ passwordHash, updatedAt: now }).where(eq(users.id, user.id));
    await tx
      .update(sessions)
      .set({ revokedAt: now })
      .where(
        and(eq(sessions.userId, user.id), isNull(sessions.revokedAt), ne(sessions.id, principal.sessionId)),
      );
    await tx
      .update(userTokens)
      .set({ usedAt: now })
      .where(
        and(
          eq(userTokens.userId, user.id),
          eq(userTokens.purpose, 'password-reset'),
          isNull(userTokens.usedAt),
        ),
      );
  });
}

export const replies = {
  invited: 'User is invited successfully',
  updated: 'User is updated successfully',
  activated: 'User is activated successfully',
  deactivated: 'User is deactivated successfully',
  reinvited: 'Invitation is sent successfully',
  passwordSet: 'Password is updated successfully',
} as const;
