import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { and, asc, eq, sql } from 'drizzle-orm';
import { Type } from 'typebox';
import { messages } from '../../src/domain/messages';
import {
  BuildingSchema,
  CreateBuildingBodySchema,
  IdParamsSchema,
  successOf,
} from '../../src/domain/schemas/sites';
import { allow } from '../auth/authenticate';
import { principalOf } from '../auth/principal';
import { requireSite } from '../auth/tenancy';
import { uniqueViolation } from '../db/errors';
import { buildings } from '../db/schema';
import { ok } from '../http/envelope';
import { conflict } from '../http/errors';
import { requiredName } from '../http/input';
import type { Services } from '../services';

const buildingColumns = { id: buildings.id, name: buildings.name, site_id: buildings.siteId };

/** Buildings of a site (spec §7 "Buildings, floors, zones"). */
export const buildingRoutes: FastifyPluginAsyncTypebox<Services> = async (app, { db }) => {
  app.get(
    '/sites/:id/buildings',
    {
      schema: { params: IdParamsSchema, response: { 200: successOf(Type.Array(BuildingSchema)) } },
    },
    async (request) => {
      const site = await requireSite(db, principalOf(request), request.params.id);
      const rows = await db
        .select(buildingColumns)
        .from(buildings)
        .where(eq(buildings.siteId, site.id))
        .orderBy(sql`lower(${buildings.name})`, asc(buildings.name), asc(buildings.id));
      return ok(rows);
    },
  );

  app.post(
    '/sites/:id/buildings',
    {
      preValidation: allow('buildings', 'write'),
      schema: {
        params: IdParamsSchema,
        body: CreateBuildingBodySchema,
        response: { 200: successOf(BuildingSchema) },
      },
    },
    async (request) => {
      const site = await requireSite(db, principalOf(request), request.params.id);
      const name = requiredName(request.body.name);
      const duplicate = conflict(messages.duplicateName('Building'));
      const [taken] = await db
        .select({ id: buildings.id })
        .from(buildings)
        .where(and(eq(buildings.siteId, site.id), sql`lower(${buildings.name}) = lower(${name})`))
        .limit(1);
      if (taken) throw duplicate;
      try {
        const [building] = await db
          .insert(buildings)
          .values({ siteId: site.id, name })
          .returning(buildingColumns);
        return ok(building, messages.created('Building'));
      } catch (error) {
        if (uniqueViolation(error)) throw duplicate;
        throw error;
      }
    },
  );
};
