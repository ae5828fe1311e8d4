import type { FastifyInstance } from 'fastify';
import type { Services } from '../services';

export async function inventoryRoutes(_app: FastifyInstance, _services: Services): Promise<void> {}
