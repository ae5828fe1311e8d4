import type { FastifyInstance } from 'fastify';
import type { Services } from '../services';

export async function liveSettingsRoutes(_app: FastifyInstance, _services: Services): Promise<void> {}
