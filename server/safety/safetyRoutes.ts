import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { SafetyServices } from './safetyServices';

/** Safety REST calls of spec §7 (getworkers, incidents, escalation) and the evacuation reports. */
export const safetyRoutes: FastifyPluginAsyncTypebox<SafetyServices> = async () => {};
