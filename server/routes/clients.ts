import type { FastifyPluginAsync } from 'fastify';
import type { Services } from '../services';

export const clientRoutes: FastifyPluginAsync<Services> = async () => {};
