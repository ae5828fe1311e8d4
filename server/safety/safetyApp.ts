import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { Config } from '../config';
import type { Db } from '../db/database';
import { installErrorHandler, notFoundMessage } from '../http/errorHandler';
import type { MqttIngestStats } from '../ingest/mqttIngest';
import { type LiveChannel, startLiveChannel } from '../live/socketServer';
import type { Services } from '../services';

/**
 * The safety listener (SAFETY_PORT): its health check, and the live socket channel that
 * `startLive` attaches to the same HTTP server. The evacuation calls come with the safety issue.
 */
export async function buildSafetyApp(
  _services: Services,
  options: {
    logger?: FastifyServerOptions['logger'];
    /** This process's ingest counters, shown by the health check (null before the ingest starts). */
    ingestStats?: () => MqttIngestStats | null;
  } = {},
): Promise<FastifyInstance> {
  // The live channel reports Redis, sweep and snapshot failures through this logger.
  const app = Fastify({ logger: options.logger ?? false });
  installErrorHandler(app);
  app.setNotFoundHandler((request, reply) =>
    reply
      .code(404)
      .send({ status: 'error', message: notFoundMessage(request.method, request.url.split('?')[0]) }),
  );
  app.get('/api/safety/health', async () => ({
    status: 'success',
    data: { ok: true, ingest: options.ingestStats?.() ?? null },
  }));
  return app;
}

export interface StartLiveOptions {
  app: FastifyInstance;
  db: Db;
  config: Pick<Config, 'redisUrl'>;
  /** Tests: a Redis key prefix of their own, and a faster revocation sweep. */
  redisKeyPrefix?: string;
  sweepIntervalMs?: number;
}

/**
 * The socket.io live channel on the safety app's HTTP server (before or after `listen`). Its
 * `hub` is the LivePublisher the ingest publishes to; `close()` also closes the HTTP server,
 * so the app's own close afterwards only runs its hooks.
 */
export function startLive({
  app,
  db,
  config,
  redisKeyPrefix,
  sweepIntervalMs,
}: StartLiveOptions): Promise<LiveChannel> {
  return startLiveChannel({
    httpServer: app.server,
    db,
    redisUrl: config.redisUrl,
    redisKeyPrefix,
    sweepIntervalMs,
    log: app.log,
  });
}
