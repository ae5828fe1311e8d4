import type { FastifyPluginAsync } from 'fastify';
import type { Services } from '../services';

/** Login, registration and password reset: no token needed. */
export const publicAuthRoutes: FastifyPluginAsync<Services> = async () => {};

/** The signed-in user's own session and profile. */
export const authRoutes: FastifyPluginAsync<Services> = async () => {};
