import swaggerUi from '@fastify/swagger-ui';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Services } from '../services';
import {
  listenerDocument,
  mergeListeners,
  type OpenApiDocument,
  safetyListenerPaths,
} from './openApiDocument';

/**
 * The API's OpenAPI 3.1 document, both listeners in one (GET /api/openapi.json), and a reference
 * page to browse it (GET /api/docs). Public: the route list and its input schemas are what the
 * console's own script and every validation reply already tell anyone, and gateways and other
 * clients read it before they have a session. Who may call what stays in the access table.
 */
export const openApiRoutes: FastifyPluginAsyncTypebox<Services> = async (app, { config }) => {
  const safetyPaths = await safetyListenerPaths(config);
  let document: OpenApiDocument | null = null;
  // Read on the first request: every route of the listener is registered by then.
  const merged = () => {
    document ??= mergeListeners(listenerDocument(app), safetyPaths, config);
    return document;
  };

  app.get(
    '/openapi.json',
    { schema: { summary: 'This document: every route of both listeners' } },
    async () => merged(),
  );

  await app.register(swaggerUi, {
    routePrefix: '/docs',
    // The page links its files by absolute path, so it must know the prefix it is registered under.
    indexPrefix: app.prefix,
    // The page reads /api/docs/json; it gets the same merged document.
    transformSpecification: merged,
    transformSpecificationClone: false,
    uiConfig: { deepLinking: false },
  });
};
