import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Services } from '../services';
import { approvalRoutes } from './approvalRoutes';
import { coverageRoutes } from './coverageRoutes';
import { planningAnchorRoutes } from './planningAnchorRoutes';
import { radioSettingsRoutes } from './radioSettingsRoutes';
import { wallRoutes } from './wallRoutes';

/** Installation planning and anchor approval (issue 19): walls, planning anchors, coverage, approval, radio settings. */
export const installationRoutes: FastifyPluginAsyncTypebox<Services> = async (app, services) => {
  await app.register(wallRoutes, services);
  await app.register(planningAnchorRoutes, services);
  await app.register(coverageRoutes, services);
  await app.register(approvalRoutes, services);
  await app.register(radioSettingsRoutes, services);
};
