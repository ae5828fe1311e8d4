import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import helmet from '@fastify/helmet';
import fastifyStatic from '@fastify/static';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { requireAuthentication } from './auth/authenticate';
import { installErrorHandler } from './http/errorHandler';
import { authRoutes, publicAuthRoutes } from './routes/auth';
import { clientRoutes } from './routes/clients';
import { userRoutes } from './routes/users';
import type { Services } from './services';

export interface AppOptions extends Services {
  logger?: FastifyServerOptions['logger'];
  /** Folder of the built console to serve; omitted in API-only tests. */
  consoleDir?: string;
}

/** The HTTP app in layers: external plugins, then the error envelope, then route plugins. */
export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: options.logger ?? false,
    bodyLimit: 1024 * 1024,
    trustProxy: true,
    ajv: { customOptions: { allErrors: true, coerceTypes: 'array', removeAdditional: false } },
  }).withTypeProvider<TypeBoxTypeProvider>();

  app.decorateRequest('principal', null);
  installErrorHandler(app);
  await app.register(helmet, { contentSecurityPolicy: false });

  const services: Services = { db: options.db, config: options.config };

  await app.register(
    async (api) => {
      await api.register(publicAuthRoutes, services);
      await api.register(async (protectedApi) => {
        requireAuthentication(protectedApi, services.db);
        await protectedApi.register(authRoutes, services);
        await protectedApi.register(userRoutes, services);
        await protectedApi.register(clientRoutes, services);
      });
    },
    { prefix: '/api' },
  );

  if (options.consoleDir && existsSync(resolve(options.consoleDir, 'index.html'))) {
    await serveConsole(app, resolve(options.consoleDir));
  }
  return app;
}

async function serveConsole(app: FastifyInstance, root: string): Promise<void> {
  await app.register(fastifyStatic, { root, wildcard: false, index: ['index.html'] });
  // Client-side routes (/workers, /reset-password/…) load the console, which routes itself.
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0];
    if (request.method === 'GET' && !path.startsWith('/api/') && !path.startsWith('/bulk/')) {
      return reply.header('cache-control', 'no-cache').sendFile('index.html');
    }
    return reply.code(404).send({ status: 'error', message: `Route ${request.method} ${path} not found` });
  });
}
