import type { FastifyPluginAsync } from 'fastify';
import type { Services } from '../services';

export const userRoutes: FastifyPluginAsync<Services> = async () => {};
