import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { eq } from 'drizzle-orm';
import { Type } from 'typebox';
import { HeatmapSchema } from '../../src/domain/schemas/analytics';
import { IdParamsSchema, IdSchema, successOf } from '../../src/domain/schemas/sites';
import { allow } from '../auth/authenticate';
import { principalOf } from '../auth/principal';
import { sites } from '../db/schema';
import { requireFloor } from '../floors/floorAccess';
import { ok } from '../http/envelope';
import type { Services } from '../services';
import { floorHeatmap } from './heatmapQueries';
import { parseWindow, WindowQueryFields } from './historyWindow';

export const HeatmapQuerySchema = Type.Object({
  ...WindowQueryFields,
  crewId: Type.Optional(IdSchema),
  subcontractorId: Type.Optional(IdSchema),
  workerRoleId: Type.Optional(IdSchema),
});

/**
 * GET /api/floors/{id}/heatmap?from&to[&crewId&subcontractorId&workerRoleId] (issue 16, the
 * console's heatmap layer): analytics readers only (DESIGN §4), another tenant's floor is 404.
 */
export const heatmapRoutes: FastifyPluginAsyncTypebox<Services> = async (app, { db }) => {
  app.get(
    '/floors/:id/heatmap',
    {
      preValidation: allow('analytics', 'open'),
      schema: {
        params: IdParamsSchema,
        querystring: HeatmapQuerySchema,
        response: { 200: successOf(HeatmapSchema) },
      },
    },
    async (request) => {
      const floor = await requireFloor(db, principalOf(request), request.params.id);
      const window = parseWindow(request.query);
      const { crewId, subcontractorId, workerRoleId } = request.query;
      const [site] = await db
        .select({ timezone: sites.timezone })
        .from(sites)
        .where(eq(sites.id, floor.siteId));
      return ok(
        await floorHeatmap(
          db,
          floor,
          window,
          { crewId, subcontractorId, workerRoleId },
          site?.timezone ?? 'UTC',
        ),
      );
    },
  );
};
