import type { FastifyInstance } from 'fastify';
import { createMetricsScraper, METRICS_CONTENT_TYPE } from './metrics';
import { metricsAccess } from './metricsAccess';
import type { OperationsState } from './operationsState';
import { createReadinessCheck } from './readiness';

export interface OperationsRoutesOptions {
  state: OperationsState;
  /** Serve `/metrics` too (the main listener; the safety listener has only the probes). */
  metrics: boolean;
}

/**
 * `GET /livez` (the process runs), `GET /readyz` (it can serve: 503 while migrating, or while the
 * database or the broker is unreachable) and, on the main listener, `GET /metrics` for Prometheus.
 * Outside `/api` and without user authentication: orchestrators and scrapers are not users.
 */
export async function operationsRoutes(
  app: FastifyInstance,
  options: OperationsRoutesOptions,
): Promise<void> {
  const { state } = options;
  const readiness = createReadinessCheck(state);

  app.get('/livez', async () => ({ status: 'success', data: { live: true } }));
  app.get('/readyz', async (_request, reply) => {
    const verdict = await readiness();
    if (verdict.ready) return { status: 'success', data: { ready: true } };
    return reply.code(503).send({ status: 'error', message: verdict.reason });
  });

  if (!options.metrics) return;
  const scrape = createMetricsScraper(state);
  app.get('/metrics', async (request, reply) => {
    const access = metricsAccess(request, state.metricsToken);
    if (access === 'unauthenticated')
      return reply
        .code(401)
        .header('www-authenticate', 'Bearer')
        .send({ status: 'error', message: 'The metrics token is missing or wrong' });
    if (access === 'forbidden')
      return reply.code(403).send({
        status: 'error',
        message: 'The metrics answer only on this machine unless METRICS_TOKEN is set',
      });
    return reply.type(METRICS_CONTENT_TYPE).send(await scrape());
  });
}
