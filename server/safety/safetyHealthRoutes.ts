import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { MqttIngestStats } from '../ingest/mqttIngest';
import type { SafetyServices } from './safetyServices';

/** The safety listener's public health check, with this process's ingest counters (null before the ingest starts). */
export function safetyHealthRoutes(
  ingestStats?: () => MqttIngestStats | null,
): FastifyPluginAsyncTypebox<SafetyServices> {
  return async (app) => {
    app.get('/api/safety/health', async () => ({
      status: 'success',
      data: { ok: true, ingest: ingestStats?.() ?? null },
    }));
  };
}
