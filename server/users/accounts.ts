import { and, eq, isNull, ne, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Role } from '../../src/domain/roles';
import type { EditUserBody, InviteBody } from '../../src/domain/schemas/users';
import type { ManagedUser } from '../../src/domain/user';
import {
  type ManagedTarget,
  roleChangeRefusal,
  USER_MANAGEMENT_MESSAGES as texts,
  type UserAction,
  userActionRefusal,
} from '../../src/domain/userManagement';
import { hashPassword } from '../auth/passwords';
import type { Principal } from '../auth/principal';
import { requireManagedUser } from '../auth/tenancy';
import { issueUserToken } from '../auth/userTokens';
import type { Config } from '../config';
import type { Db } from '../db/database';
import { uniqueViolation } from '../db/errors';
import { sessions, userSites, users, userTokens } from '../db/schema';
import { conflict, forbidden, notFound, unprocessable } from '../http/errors';
import { requiredName } from '../http/input';
import { queueEmail } from '../mail/outbox';
import { toManagedUsers, type UserRow } from './managedUsers';
import { placeInvitee, replaceMemberships, requireMemberSites } from './placement';
import { answerTakenAddress, type Invitation } from './takenAddress';

export { EMAIL_TAKEN } from './takenAddress';

export const INVITATION_SUBJECT = 'You are invited to Sitewatch';

interface Context {
  db: Db;
  config: Config;
  principal: Principal;
  log?: FastifyBaseLogger;
}

function managedTarget(user: UserRow): ManagedTarget {
  return {
    id: user.id,
    user_role: user.role as Role,
    status: user.status as ManagedTarget['status'],
    registered: user.passwordHash !== null,
  };
}

/** The user, if the caller manages it and the action applies to it (userActionRefusal). */
async function requireAction(ctx: Context, action: UserAction, userId: number): Promise<UserRow> {
  const { db, principal } = ctx;
  const user = await requireManagedUser(db, principal, userId);
  const refusal = userActionRefusal(principal, action, managedTarget(user));
  if (refusal === 'role') throw notFound('User');
  if (refusal === 'deactivateSelf') throw unprocessable({ id: texts.deactivateSelf });
  if (refusal) throw conflict(texts[refusal]);
  return user;
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
  const refusal = roleChangeRefusal(principal, { id: user.id, user_role: user.role as Role }, role);
  if (refusal === 'notAssignable') throw forbidden();
  if (refusal) throw unprocessable({ user_role: texts[refusal] });
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
  const { db } = ctx;
  const user = await requireAction(ctx, 'activate', userId);
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
  const { db } = ctx;
  const user = await requireAction(ctx, 'deactivate', userId);
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
  const { db } = ctx;
  const user = await requireAction(ctx, 'reinvite', userId);
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
  const user = await requireAction(ctx, 'setPassword', userId);
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
  invited: texts.invited,
  updated: texts.updated,
  activated: texts.activated,
  deactivated: texts.deactivated,
  reinvited: texts.reinvited,
  passwordSet: texts.passwordSet,
} as const;
