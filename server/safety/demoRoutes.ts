import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { SafetyServices } from './safetyServices';

/** The safety demo: a scripted evacuation of the demo site. */
export const safetyDemoRoutes: FastifyPluginAsyncTypebox<SafetyServices> = async () => {};
