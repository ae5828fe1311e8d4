import type { FastifyPluginAsyncTypebox, TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, {
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
  type RouteOptions,
} from 'fastify';
import { requireAuthentication } from '../auth/authenticate';
import { collectOpenApi, documentBearerToken } from '../docs/openApiPlugin';
import type { Services } from '../services';
import { installErrorHandler, notFoundMessage } from './errorHandler';
import { installMessageKeys } from './messageKeys';
import { strictValidatorCompiler } from './validator';

/**
 * Both listeners (server/app.ts, server/safety/safetyApp.ts) are built the same way, in layers
 * (STYLE.md, fastify/demo): the Fastify instance with the error envelope, then the external
 * plugins, then the services handed to route plugins, then the routes; public routes in one
 * encapsulated context and authenticated ones in another, never told apart by URL. Every envelope
 * carries its texts' i18n keys to clients that ask (messageKeys.ts).
 */
export interface ListenerOptions {
  logger?: FastifyServerOptions['logger'];
  /** Sees every route as it is registered (the API reference and the schema fuzz test read them). */
  onRoute?: (route: RouteOptions) => void;
  trustProxy?: FastifyServerOptions['trustProxy'];
  bodyLimit?: number;
  /** What an unknown route answers; the error envelope with a 404 when omitted. */
  notFound?: (request: FastifyRequest, reply: FastifyReply) => unknown;
}

export interface RouteLayers<S extends Services> {
  services: S;
  /** Routes anyone may call (they check their own credentials, as login and the ingest do). */
  publicRoutes: readonly FastifyPluginAsyncTypebox<S>[];
  /** Routes behind the bearer-token check. */
  protectedRoutes: readonly FastifyPluginAsyncTypebox<S>[];
  prefix?: string;
}

/** The first layer: the instance, its strict validation, the principal slot and the error envelope. */
export function createListener(options: ListenerOptions) {
  const app = Fastify({
    logger: options.logger ?? false,
    ...(options.bodyLimit === undefined ? {} : { bodyLimit: options.bodyLimit }),
    ...(options.trustProxy === undefined ? {} : { trustProxy: options.trustProxy }),
  }).withTypeProvider<TypeBoxTypeProvider>();
  if (options.onRoute) app.addHook('onRoute', options.onRoute);
  app.setValidatorCompiler(strictValidatorCompiler);
  app.decorateRequest('principal', null);
  installErrorHandler(app);
  installMessageKeys(app);
  collectOpenApi(app);
  app.setNotFoundHandler(
    options.notFound ??
      ((request, reply) =>
        reply
          .code(404)
          .send({ status: 'error', message: notFoundMessage(request.method, request.url.split('?')[0]) })),
  );
  return app;
}

/** The last layer: public routes in one context, authenticated routes in a sibling context. */
export async function registerRouteLayers<S extends Services>(
  app: FastifyInstance,
  { services, publicRoutes, protectedRoutes, prefix }: RouteLayers<S>,
): Promise<void> {
  await app.register(
    async (api) => {
      await api.register(async (publicApi) => {
        for (const routes of publicRoutes) await publicApi.register(routes, services);
      });
      await api.register(async (protectedApi) => {
        requireAuthentication(protectedApi, services.db);
        protectedApi.addHook('onRoute', documentBearerToken);
        for (const routes of protectedRoutes) await protectedApi.register(routes, services);
      });
    },
    prefix ? { prefix } : {},
  );
}
