import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { and, asc, eq, sql } from 'drizzle-orm';
import { Type } from 'typebox';
import { messages } from '../../src/domain/messages';
import { seesWholeClient } from '../../src/domain/roles';
import {
  ClientIdParamsSchema,
  CreateSiteBodySchema,
  SiteSchema,
  successOf,
} from '../../src/domain/schemas/sites';
import { canonicalTimezone } from '../../src/domain/timezones';
import { allow } from '../auth/authenticate';
import { principalOf } from '../auth/principal';
import { requireClient, visibleSitesWhere } from '../auth/tenancy';
import { uniqueViolation } from '../db/errors';
import { groupsOfSites, sites, userSites } from '../db/schema';
import { ok } from '../http/envelope';
import { conflict, unprocessable } from '../http/errors';
import type { Services } from '../services';

/** The reply shape of a site (src/domain/user.ts `Site`). */
export const siteColumns = {
  id: sites.id,
  name: sites.name,
  timezone: sites.timezone,
  client_id: sites.clientId,
  group_of_sites_id: sites.groupOfSitesId,
};

export const siteRoutes: FastifyPluginAsyncTypebox<Services> = async (app, { db }) => {
  app.get(
    '/clients/:clientId/sites',
    {
      schema: { params: ClientIdParamsSchema, response: { 200: successOf(Type.Array(SiteSchema)) } },
    },
    async (request) => {
      const principal = principalOf(request);
      const client = await requireClient(db, principal, request.params.clientId);
      const rows = await db
        .select(siteColumns)
        .from(sites)
        .where(and(eq(sites.clientId, client.id), visibleSitesWhere(principal)))
        .orderBy(sql`lower(${sites.name})`, asc(sites.name), asc(sites.id));
      return ok(rows);
    },
  );

  app.post(
    '/sites',
    {
      preValidation: allow('sites', 'write'),
      schema: { body: CreateSiteBodySchema, response: { 200: successOf(SiteSchema) } },
    },
    async (request) => {
      const principal = principalOf(request);
      const body = request.body;
      const client = await requireClient(db, principal, body.client_id);

      const errors: Record<string, string> = {};
      const name = body.name.trim();
      if (!name) errors.name = messages.required('Name');
      const timezone = canonicalTimezone(body.timezone);
      if (!timezone) errors.timezone = 'Timezone is invalid';
      const groupId = body.group_of_sites_id ?? null;
      if (groupId !== null) {
        const [group] = await db
          .select({ id: groupsOfSites.id })
          .from(groupsOfSites)
          .where(and(eq(groupsOfSites.id, groupId), eq(groupsOfSites.clientId, client.id)))
          .limit(1);
        if (!group) errors.group_of_sites_id = 'Group of sites is invalid';
      }
      if (Object.keys(errors).length > 0 || !timezone) throw unprocessable(errors);

      const duplicate = conflict(messages.duplicateName('Site'));
      const [taken] = await db
        .select({ id: sites.id })
        .from(sites)
        .where(and(eq(sites.clientId, client.id), sql`lower(${sites.name}) = lower(${name})`))
        .limit(1);
      if (taken) throw duplicate;

      try {
        const site = await db.transaction(async (tx) => {
          const [created] = await tx
            .insert(sites)
            .values({ clientId: client.id, groupOfSitesId: groupId, name, timezone })
            .returning(siteColumns);
          // Roles that see sites by membership would lose sight of the site they just made.
          if (principal.role !== 'super-admin' && !seesWholeClient(principal.role)) {
            await tx.insert(userSites).values({ userId: principal.id, siteId: created.id });
          }
          return created;
        });
        return ok(site, messages.created('Site'));
      } catch (error) {
        if (uniqueViolation(error)) throw duplicate;
        throw error;
      }
    },
  );
};
