import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import helmet from '@fastify/helmet';
import fastifyStatic from '@fastify/static';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyInstance, type FastifyServerOptions, type RouteOptions } from 'fastify';
import { requireAuthentication } from './auth/authenticate';
import { consoleContentSecurityPolicy } from './http/contentSecurityPolicy';
import { installErrorHandler, notFoundMessage } from './http/errorHandler';
import { strictValidatorCompiler } from './http/validator';
import { operationsRoutes } from './operations/operationsRoutes';
import { createOperationsState, type OperationsState } from './operations/operationsState';
import { authRoutes, publicAuthRoutes } from './routes/auth';
import { clientRoutes } from './routes/clients';
import { crewRoutes } from './routes/crews';
import { floorRoutes } from './routes/floors';
import { deviceTokenRoutes, ingestRoutes } from './routes/ingest';
import { inventoryRoutes } from './routes/inventory';
import { inventoryMetaRoutes } from './routes/inventoryMeta';
import { latestAssignmentRoutes } from './routes/latestAssignments';
import { liveSettingsRoutes } from './routes/liveSettings';
import { subcontractorRoutes } from './routes/subcontractors';
import { userRoutes } from './routes/users';
import { workerRoleRoutes } from './routes/workerRoles';
import { workerRoutes } from './routes/workers';
import { workshiftRoutes } from './routes/workshifts';
import { zoneRoutes } from './routes/zones';
import type { Services } from './services';

export interface AppOptions extends Services {
  logger?: FastifyServerOptions['logger'];
  /** Folder of the built console to serve; omitted in API-only tests. */
  consoleDir?: string;
  /** Sees every route as it is registered (the API reference is written from them). */
  onRoute?: (route: RouteOptions) => void;
  /** What /readyz and /metrics read (server/main.ts fills it in); the database alone when omitted. */
  operations?: OperationsState;
}

/** The HTTP app in layers: external plugins, then the error envelope, then route plugins. */
export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: options.logger ?? false,
    bodyLimit: 1024 * 1024,
    // Only behind a known proxy may X-Forwarded-For name the client (login rate limits use it).
    trustProxy: options.config.trustProxy,
  }).withTypeProvider<TypeBoxTypeProvider>();

  if (options.onRoute) app.addHook('onRoute', options.onRoute);
  app.setValidatorCompiler(strictValidatorCompiler);
  app.decorateRequest('principal', null);
  installErrorHandler(app);
  const consoleRoot =
    options.consoleDir && existsSync(resolve(options.consoleDir, 'index.html'))
      ? resolve(options.consoleDir)
      : null;
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0];
    // Client-side routes (/workers, /reset-password/…) load the console, which routes itself.
    if (consoleRoot && request.method === 'GET' && !path.startsWith('/api/') && !path.startsWith('/bulk/')) {
      return reply.header('cache-control', 'no-cache').sendFile('index.html');
    }
    return reply.code(404).send({ status: 'error', message: notFoundMessage(request.method, path) });
  });
  await app.register(helmet, {
    contentSecurityPolicy: consoleContentSecurityPolicy(options.config),
  });
  await app.register(operationsRoutes, {
    state: options.operations ?? createOperationsState(options.db),
    metrics: true,
  });

  const services: Services = {
    db: options.db,
    config: options.config,
    publisher: options.publisher,
    deviceSessions: options.deviceSessions,
  };

  await app.register(
    async (api) => {
      await api.register(publicAuthRoutes, services);
      await api.register(liveSettingsRoutes, services);
      await api.register(ingestRoutes, services);
      await api.register(async (protectedApi) => {
        requireAuthentication(protectedApi, services.db);
        await protectedApi.register(authRoutes, services);
        await protectedApi.register(userRoutes, services);
        await protectedApi.register(clientRoutes, services);
        await protectedApi.register(floorRoutes, services);
        await protectedApi.register(zoneRoutes, services);
        await protectedApi.register(inventoryMetaRoutes, services);
        await protectedApi.register(inventoryRoutes, services);
        await protectedApi.register(deviceTokenRoutes, services);
        await protectedApi.register(workerRoleRoutes, services);
        await protectedApi.register(workerRoutes, services);
        await protectedApi.register(subcontractorRoutes, services);
        await protectedApi.register(crewRoutes, services);
        await protectedApi.register(workshiftRoutes, services);
        await protectedApi.register(latestAssignmentRoutes, services);
      });
    },
    { prefix: '/api' },
  );

  if (consoleRoot)
    await app.register(fastifyStatic, { root: consoleRoot, wildcard: false, index: ['index.html'] });
  return app;
}
