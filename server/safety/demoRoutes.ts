import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { SAFETY_DEMO_MESSAGES, type SafetyDemoStatus } from '../../src/domain/safetyDemo';
import { allow } from '../auth/authenticate';
import { principalOf } from '../auth/principal';
import { requireSite } from '../auth/tenancy';
import { findDemoSiteId } from '../db/demoSeed';
import { ok } from '../http/envelope';
import { conflict, forbidden } from '../http/errors';
import type { SafetyServices } from './safetyServices';

const SiteParamsSchema = Type.Object({ siteId: Type.Integer({ minimum: 1, maximum: 2_147_483_647 }) });

/**
 * The safety demo (issue 5, /safteyDemo): whether the drill can run on a site, and the drill
 * itself, a scripted evacuation of the demo site. Safety-demo writers only; a site the caller
 * cannot see is 404, any site but the demo site 403.
 */
export const safetyDemoRoutes: FastifyPluginAsyncTypebox<SafetyServices> = async (app, services) => {
  const { db } = services;

  app.get(
    '/api/safety/demo/:siteId',
    { preValidation: allow('safetyDemo', 'open'), schema: { params: SiteParamsSchema } },
    async (request) => {
      const { siteId } = request.params;
      await requireSite(db, principalOf(request), siteId);
      const status: SafetyDemoStatus = {
        siteId,
        isDemoSite: (await findDemoSiteId(db)) === siteId,
        simulatorOn: services.drill !== null,
        running: await services.evacuation.running(siteId),
      };
      return ok(status);
    },
  );

  app.post(
    '/api/safety/demo/:siteId/drill',
    { preValidation: allow('safetyDemo', 'write'), schema: { params: SiteParamsSchema } },
    async (request) => {
      const principal = principalOf(request);
      const { siteId } = request.params;
      await requireSite(db, principal, siteId);
      if ((await findDemoSiteId(db)) !== siteId) throw forbidden(SAFETY_DEMO_MESSAGES.notDemoSite);
      if (!services.drill) throw conflict(SAFETY_DEMO_MESSAGES.simulatorOff);
      const evacuation = await services.drill.run(principal, siteId);
      return ok(evacuation, SAFETY_DEMO_MESSAGES.started);
    },
  );
};
