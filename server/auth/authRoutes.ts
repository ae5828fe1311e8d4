import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { and, eq, isNull, sql } from 'drizzle-orm';
import { DEFAULT_LOCALE } from '../../src/domain/limits';
import { isRole } from '../../src/domain/roles';
import {
  ApiUserEnvelopeSchema,
  authMessages,
  ForgotPasswordBodySchema,
  LoginBodySchema,
  LoginEnvelopeSchema,
  MessageEnvelopeSchema,
  PreferencesBodySchema,
  RecentlyVisitedBodySchema,
  RegisterBodySchema,
  ResetPasswordBodySchema,
  SiteLoginBodySchema,
  TokenParamsSchema,
} from '../../src/domain/schemas/auth';
import { IdParamsSchema } from '../../src/domain/schemas/sites';
import type { LoginReply } from '../../src/domain/user';
import { DEMO_EMAIL_DOMAIN } from '../db/demoSeed';
import { sessions, sites, users } from '../db/schema';
import { ok } from '../http/envelope';
import { badRequest, tooManyRequests, unauthorized, unprocessable } from '../http/errors';
import { requiredName } from '../http/input';
import { queueEmail } from '../mail/outbox';
import type { Services } from '../services';
import { apiUserById, toApiUser } from './apiUser';
import { LoginThrottle } from './loginThrottle';
import { DEMO_PASSWORD, hashPassword, verifyPassword } from './passwords';
import { principalOf } from './principal';
import { requireClient, requireSite, visibleSitesWhere } from './tenancy';
import { hashToken, newToken } from './tokens';
import { consumeUserToken, issueUserToken } from './userTokens';

type UserRow = typeof users.$inferSelect;
type SiteRow = typeof sites.$inferSelect;

/**
 * Tokens we issue are 43 characters; anything much longer is not one of ours, and is not worth
 * hashing. (Fastify's maxParamLength, 100, already answers 414 beyond that.)
 */
const MAX_TOKEN_LENGTH = 128;

/** Login, registration and password reset: no token needed. */
export const publicAuthRoutes: FastifyPluginAsyncTypebox<Services> = async (app, { db, config }) => {
  const throttle = new LoginThrottle({
    maxFailures: config.loginMaxFailures,
    windowSeconds: config.loginWindowSeconds,
  });
  const resetMailThrottle = new LoginThrottle({
    maxFailures: config.loginMaxFailures,
    windowSeconds: config.loginWindowSeconds,
  });
  // Unknown addresses are checked against this hash so they take as long as known ones.
  let decoyHash: Promise<string> | undefined;

  /**
   * Checks the credentials (and `admit`, the route's extra condition) and returns the user, or
   * answers 401 with one message for every reason, so accounts cannot be enumerated. Each
   * attempt counts as a failure up front, so parallel guesses cannot overrun the limit.
   */
  async function signIn(
    body: { email: string; password: string },
    ip: string,
    admit: (user: UserRow) => Promise<boolean> = async () => true,
  ): Promise<UserRow> {
    const email = requiredName(body.email, 'email', 'Email').toLowerCase();
    if (!throttle.begin(email, ip)) throw tooManyRequests(authMessages.tooManyLogins);
    const [user] = await db.select().from(users).where(sql`lower(${users.email}) = ${email}`).limit(1);
    decoyHash ??= hashPassword(newToken());
    const matches = await verifyPassword(user?.passwordHash ?? (await decoyHash), body.password);
    const demoRefused =
      config.production && email.endsWith(`@${DEMO_EMAIL_DOMAIN}`) && body.password === DEMO_PASSWORD;
    if (!user || !matches || user.status !== 'active' || demoRefused || !(await admit(user))) {
      throw unauthorized(authMessages.invalidCredentials);
    }
    throttle.succeeded(email, ip);
    return user;
  }

  /** A new session (only its token's hash is stored); the locale is forced to en on login (spec §9). */
  async function startSession(
    userId: number,
    visited: { lastClientId: number; lastSiteId: number } | Record<string, never> = {},
  ): Promise<LoginReply> {
    const accessToken = newToken();
    const user = await db.transaction(async (tx) => {
      await tx.insert(sessions).values({
        userId,
        tokenHash: hashToken(accessToken),
        expiresAt: new Date(Date.now() + config.sessionTtlHours * 3600_000),
      });
      const [row] = await tx
        .update(users)
        .set({ locale: DEFAULT_LOCALE, updatedAt: new Date(), ...visited })
        .where(eq(users.id, userId))
        .returning();
      return toApiUser(tx, row);
    });
    return { access_token: accessToken, user };
  }

  app.post(
    '/login',
    { schema: { body: LoginBodySchema, response: { 200: LoginEnvelopeSchema } } },
    async (request) => {
      const user = await signIn(request.body, request.ip);
      return ok(await startSession(user.id));
    },
  );

  app.post(
    '/sites/:id/login',
    {
      schema: { params: IdParamsSchema, body: SiteLoginBodySchema, response: { 200: LoginEnvelopeSchema } },
    },
    async (request) => {
      const { group_of_sites_id: groupId } = request.body;
      let site: SiteRow | undefined;
      const user = await signIn(request.body, request.ip, async (candidate) => {
        site = await siteVisibleTo(candidate, request.params.id);
        return site !== undefined && (groupId == null || site.groupOfSitesId === groupId);
      });
      if (!site) throw unauthorized(authMessages.invalidCredentials);
      return ok(await startSession(user.id, { lastClientId: site.clientId, lastSiteId: site.id }));
    },
  );

  async function siteVisibleTo(user: UserRow, siteId: number): Promise<SiteRow | undefined> {
    if (!isRole(user.role)) return undefined;
    // The tenancy rules of a principal this user would become; it has no session yet.
    const principal = {
      id: user.id,
      role: user.role,
      clientId: user.clientId,
      groupOfSitesId: user.groupOfSitesId,
      permissions: [],
      sessionId: 0,
    };
    const [site] = await db
      .select()
      .from(sites)
      .where(and(eq(sites.id, siteId), visibleSitesWhere(principal)))
      .limit(1);
    return site;
  }

  // One reply whether or not the address is registered, so it cannot be used to probe accounts.
  app.post(
    '/forgot-password',
    { schema: { body: ForgotPasswordBodySchema, response: { 200: MessageEnvelopeSchema } } },
    async (request) => {
      const email = request.body.email.trim().toLowerCase();
      // Past the limit the reply stays the same but no more e-mails go out, so nobody can flood
      // an inbox with reset links or learn from the reply whether the limit was reached.
      if (!resetMailThrottle.begin(email, request.ip)) return said(authMessages.resetLinkSent);
      const [user] = await db
        .select({ id: users.id, email: users.email, name: users.name })
        .from(users)
        .where(and(sql`lower(${users.email}) = ${email}`, eq(users.status, 'active')))
        .limit(1);
      if (user) {
        const token = await issueUserToken(db, user.id, 'password-reset', config.tokenTtlHours);
        const link = `${config.publicUrl}/reset-password/${token}`;
        await queueEmail(
          db,
          {
            to: user.email,
            subject: 'Reset your Sitewatch password',
            body:
              `Hello ${user.name},\n\nTo choose a new Sitewatch password, open ${link}\n\n` +
              `The link works once and expires in ${config.tokenTtlHours} hours. ` +
              'If you did not ask for it, ignore this e-mail: your password stays as it is.',
            link,
          },
          request.log,
        );
      }
      return said(authMessages.resetLinkSent);
    },
  );

  app.post(
    '/reset-password/:token',
    {
      schema: {
        params: TokenParamsSchema,
        body: ResetPasswordBodySchema,
        response: { 200: MessageEnvelopeSchema },
      },
    },
    async (request) => {
      const { token } = request.params;
      if (token.length > MAX_TOKEN_LENGTH) throw badRequest(authMessages.invalidLink);
      // Hashed before the transaction: argon2 takes tens of milliseconds, and an open
      // transaction holds PGlite's only connection.
      const passwordHash = await hashPassword(request.body.password);
      await db.transaction(async (tx) => {
        const userId = await consumeUserToken(tx, token, 'password-reset');
        if (userId === null) throw badRequest(authMessages.invalidLink);
        const now = new Date();
        await tx.update(users).set({ passwordHash, updatedAt: now }).where(eq(users.id, userId));
        // Whoever held the old password may hold a session too.
        await tx
          .update(sessions)
          .set({ revokedAt: now })
          .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt)));
      });
      return said(authMessages.passwordUpdated);
    },
  );

  app.post(
    '/register/:token',
    {
      schema: {
        params: TokenParamsSchema,
        body: RegisterBodySchema,
        response: { 200: ApiUserEnvelopeSchema },
      },
    },
    async (request) => {
      const { token } = request.params;
      const name = requiredName(request.body.name);
      if (token.length > MAX_TOKEN_LENGTH) throw badRequest(authMessages.invalidLink);
      const passwordHash = await hashPassword(request.body.password);
      const user = await db.transaction(async (tx) => {
        const userId = await consumeUserToken(tx, token, 'invitation');
        if (userId === null) throw badRequest(authMessages.invalidLink);
        // A user deactivated (or already registered) since the invitation cannot register with it.
        const [row] = await tx
          .update(users)
          .set({ name, passwordHash, status: 'active', updatedAt: new Date() })
          .where(and(eq(users.id, userId), eq(users.status, 'invited')))
          .returning();
        if (!row) throw badRequest(authMessages.invalidLink);
        return toApiUser(tx, row);
      });
      return ok(user, authMessages.registered);
    },
  );
};

/** The signed-in user's own session and profile. */
export const authRoutes: FastifyPluginAsyncTypebox<Services> = async (app, { db }) => {
  app.get('/logout', { schema: { response: { 200: MessageEnvelopeSchema } } }, async (request) => {
    await db
      .update(sessions)
      .set({ revokedAt: new Date() })
      .where(and(eq(sessions.id, principalOf(request).sessionId), isNull(sessions.revokedAt)));
    return said(authMessages.loggedOut);
  });

  app.get('/user', { schema: { response: { 200: ApiUserEnvelopeSchema } } }, async (request) =>
    ok(await apiUserById(db, principalOf(request).id)),
  );

  app.post(
    '/users/preferences',
    { schema: { body: PreferencesBodySchema, response: { 200: ApiUserEnvelopeSchema } } },
    async (request) => {
      const { id } = principalOf(request);
      await db
        .update(users)
        .set({ locale: request.body.locale, updatedAt: new Date() })
        .where(eq(users.id, id));
      return ok(await apiUserById(db, id));
    },
  );

  app.post(
    '/users/recently-visited',
    { schema: { body: RecentlyVisitedBodySchema, response: { 200: ApiUserEnvelopeSchema } } },
    async (request) => {
      const principal = principalOf(request);
      const { client_id: clientId, site_id: siteId } = request.body;
      // Outside the caller's tenancy is 404 (DESIGN.md §3), as everywhere else.
      if (clientId !== null) await requireClient(db, principal, clientId);
      const site = siteId === null ? null : await requireSite(db, principal, siteId);
      if (site && clientId !== null && site.clientId !== clientId) {
        throw unprocessable({ site_id: authMessages.siteOutsideClient });
      }
      await db
        .update(users)
        .set({ lastClientId: clientId, lastSiteId: siteId, updatedAt: new Date() })
        .where(eq(users.id, principal.id));
      return ok(await apiUserById(db, principal.id));
    },
  );
};

/** A success that only says something; typed for the reply schema, which `done` is not. */
function said(message: string) {
  return { status: 'success' as const, message };
}
