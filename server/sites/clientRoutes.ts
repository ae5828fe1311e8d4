import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { asc, sql } from 'drizzle-orm';
import { Type } from 'typebox';
import { messages } from '../../src/domain/messages';
import { ClientSchema, CreateClientBodySchema, successOf } from '../../src/domain/schemas/sites';
import { requirePermission } from '../auth/authenticate';
import { principalOf } from '../auth/principal';
import { visibleClientsWhere } from '../auth/tenancy';
import { uniqueViolation } from '../db/errors';
import { clients } from '../db/schema';
import { buildingRoutes } from '../floors/buildingRoutes';
import { ok } from '../http/envelope';
import { conflict } from '../http/errors';
import { requiredName } from '../http/input';
import type { Services } from '../services';
import { networkRoutes } from './networkRoutes';
import { siteRoutes } from './siteRoutes';

/** Clients (spec §7 "Clients and sites"), and the site structure under them. */
export const clientRoutes: FastifyPluginAsyncTypebox<Services> = async (app, services) => {
  const { db } = services;

  app.get(
    '/clients',
    { schema: { response: { 200: successOf(Type.Array(ClientSchema)) } } },
    async (request) => {
      const rows = await db
        .select({ id: clients.id, name: clients.name })
        .from(clients)
        .where(visibleClientsWhere(principalOf(request)))
        .orderBy(sql`lower(${clients.name})`, asc(clients.name), asc(clients.id));
      return ok(rows);
    },
  );

  app.post(
    '/clients',
    {
      preValidation: requirePermission('clients:create'),
      schema: { body: CreateClientBodySchema, response: { 200: successOf(ClientSchema) } },
    },
    async (request) => {
      const name = requiredName(request.body.name);
      const [taken] = await db
        .select({ id: clients.id })
        .from(clients)
        .where(sql`lower(${clients.name}) = lower(${name})`)
        .limit(1);
      if (taken) throw conflict(messages.duplicateName('Client'));
      try {
        const [client] = await db
          .insert(clients)
          .values({ name })
          .returning({ id: clients.id, name: clients.name });
        return ok(client, messages.created('Client'));
      } catch (error) {
        // Two requests racing for one name: the unique index decides.
        if (uniqueViolation(error)) throw conflict(messages.duplicateName('Client'));
        throw error;
      }
    },
  );

  await app.register(siteRoutes, services);
  await app.register(buildingRoutes, services);
  await app.register(networkRoutes, services);
};
