import Fastify, { type FastifyInstance } from 'fastify';
import { installErrorHandler, notFoundMessage } from '../http/errorHandler';
import type { Services } from '../services';

/**
 * The safety listener (SAFETY_PORT). It answers its health check now; the evacuation
 * calls and the socket channel are added with the safety issue.
 */
export async function buildSafetyApp(_services: Services): Promise<FastifyInstance> {
  const app = Fastify({ logger: false });
  installErrorHandler(app);
  app.setNotFoundHandler((request, reply) =>
    reply
      .code(404)
      .send({ status: 'error', message: notFoundMessage(request.method, request.url.split('?')[0]) }),
  );
  app.get('/api/safety/health', async () => ({ status: 'success', data: { ok: true } }));
  return app;
}
