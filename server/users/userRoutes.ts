import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { and, asc, eq, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { type Capability, can } from '../../src/domain/access';
import { ClientSchema, SiteSchema, successOf } from '../../src/domain/schemas/sites';
import {
  EditUserBodySchema,
  InviteBodySchema,
  ListUsersQuerySchema,
  ManagedUserSchema,
  PageMetaSchema,
  SetPasswordBodySchema,
  UserIdParamsSchema,
  UserSitesQuerySchema,
} from '../../src/domain/schemas/users';
import { allow } from '../auth/authenticate';
import { type Principal, principalOf } from '../auth/principal';
import { requireClient, requireManagedUser, visibleClientsWhere, visibleSitesWhere } from '../auth/tenancy';
import type { Db } from '../db/database';
import { clients, sites, users } from '../db/schema';
import { ok } from '../http/envelope';
import { forbidden, notFound } from '../http/errors';
import type { Services } from '../services';
import { siteColumns } from '../sites/siteRoutes';
import {
  activateUser,
  deactivateUser,
  editUser,
  inviteUser,
  reinviteUser,
  replies,
  setUserPassword,
} from './accounts';
import { listManagedUsers } from './managedUsers';

const ManagedUserReply = successOf(ManagedUserSchema);
const MessageReply = Type.Object({ status: Type.Literal('success'), message: Type.String() });
const UserListReply = Type.Object({
  status: Type.Literal('success'),
  message: Type.Optional(Type.String()),
  data: Type.Array(ManagedUserSchema),
  meta: PageMetaSchema,
});

/**
 * The `users` row of the access table, except that everyone may read its own clients and sites
 * (the header's pickers). Runs before validation, so a forbidden role never learns more.
 */
function allowUsersUnlessSelf(capability: Capability) {
  return async (request: FastifyRequest) => {
    const principal = principalOf(request);
    if (Number((request.params as { id?: string }).id) === principal.id) return;
    if (!can(principal.role, capability, 'users')) throw forbidden();
  };
}

/** The user a route names: the caller itself, or one the caller manages (404 otherwise). */
async function requireTarget(db: Db, principal: Principal, userId: number) {
  if (userId === principal.id) {
    const [self] = await db.select().from(users).where(eq(users.id, userId)).limit(1);
    if (!self) throw notFound('User');
    return self;
  }
  return requireManagedUser(db, principal, userId);
}

/** A user's own reach, in the shape the tenancy rules take. */
function reachOf(user: typeof users.$inferSelect): Principal {
  return {
    id: user.id,
    role: user.role as Principal['role'],
    clientId: user.clientId,
    groupOfSitesId: user.groupOfSitesId,
    permissions: [],
    sessionId: 0,
  };
}

/** User management (spec §7 "Auth and user", §4 "Users can be activated, deactivated and re-invited"). */
export const userRoutes: FastifyPluginAsyncTypebox<Services> = async (app, { db, config }) => {
  const context = (request: FastifyRequest) => ({
    db,
    config,
    principal: principalOf(request),
    log: request.log,
  });

  app.post(
    '/invite',
    {
      preValidation: allow('users', 'write'),
      schema: { body: InviteBodySchema, response: { 200: successOf(Type.Array(ManagedUserSchema)) } },
    },
    async (request) => {
      const user = await inviteUser(context(request), request.body);
      // Spec §7: the reply's data[0] is the user.
      return ok([user], replies.invited);
    },
  );

  app.get(
    '/users',
    {
      preValidation: allow('users', 'open'),
      schema: { querystring: ListUsersQuerySchema, response: { 200: UserListReply } },
    },
    async (request) => {
      const { users: rows, meta } = await listManagedUsers(db, principalOf(request), request.query);
      return { status: 'success' as const, data: rows, meta };
    },
  );

  app.get(
    '/users/:id/clients',
    {
      preValidation: allowUsersUnlessSelf('open'),
      schema: { params: UserIdParamsSchema, response: { 200: successOf(Type.Array(ClientSchema)) } },
    },
    async (request) => {
      const principal = principalOf(request);
      const target = await requireTarget(db, principal, request.params.id);
      const rows = await db
        .select({ id: clients.id, name: clients.name })
        .from(clients)
        .where(and(visibleClientsWhere(reachOf(target)), visibleClientsWhere(principal)))
        .orderBy(sql`lower(${clients.name})`, asc(clients.id));
      return ok(rows);
    },
  );

  app.get(
    '/users/:id/sites',
    {
      preValidation: allowUsersUnlessSelf('open'),
      schema: {
        params: UserIdParamsSchema,
        querystring: UserSitesQuerySchema,
        response: { 200: successOf(Type.Array(SiteSchema)) },
      },
    },
    async (request) => {
      const principal = principalOf(request);
      const target = await requireTarget(db, principal, request.params.id);
      const clientId = request.query.client_id;
      if (clientId !== undefined) await requireClient(db, principal, clientId);
      const rows = await db
        .select(siteColumns)
        .from(sites)
        .where(
          and(
            visibleSitesWhere(reachOf(target)),
            visibleSitesWhere(principal),
            clientId === undefined ? undefined : eq(sites.clientId, clientId),
          ),
        )
        .orderBy(sql`lower(${sites.name})`, asc(sites.id));
      return ok(rows);
    },
  );

  app.post(
    '/users/:id',
    {
      preValidation: allow('users', 'write'),
      schema: { params: UserIdParamsSchema, body: EditUserBodySchema, response: { 200: ManagedUserReply } },
    },
    async (request) => ok(await editUser(context(request), request.params.id, request.body), replies.updated),
  );

  app.post(
    '/users/:id/activate',
    {
      preValidation: allow('users', 'write'),
      schema: { params: UserIdParamsSchema, response: { 200: ManagedUserReply } },
    },
    async (request) => ok(await activateUser(context(request), request.params.id), replies.activated),
  );

  app.post(
    '/users/:id/deactivate',
    {
      preValidation: allow('users', 'write'),
      schema: { params: UserIdParamsSchema, response: { 200: ManagedUserReply } },
    },
    async (request) => ok(await deactivateUser(context(request), request.params.id), replies.deactivated),
  );

  app.post(
    '/users/:id/reinvite',
    {
      preValidation: allow('users', 'write'),
      schema: { params: UserIdParamsSchema, response: { 200: ManagedUserReply } },
    },
    async (request) => ok(await reinviteUser(context(request), request.params.id), replies.reinvited),
  );

  app.post(
    '/users/:id/reset-password',
    {
      preValidation: allow('users', 'write'),
      schema: { params: UserIdParamsSchema, body: SetPasswordBodySchema, response: { 200: MessageReply } },
    },
    async (request) => {
      await setUserPassword(context(request), request.params.id, request.body.password);
      return { status: 'success' as const, message: replies.passwordSet };
    },
  );
};
