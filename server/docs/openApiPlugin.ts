import swagger from '@fastify/swagger';
import type { FastifyInstance, RouteOptions } from 'fastify';

/** The name of the bearer-token scheme in the OpenAPI document's components. */
export const BEARER_SCHEME = 'bearerToken';

/**
 * Makes the listener collect an OpenAPI 3.1 document from its routes' own schemas
 * (`app.swagger()`). It must come before any route: @fastify/swagger hears routes as they are added.
 */
export function collectOpenApi(app: FastifyInstance): void {
  app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Sitewatch API',
        version: '1',
        description:
          'Every reply is the envelope `{ status, message?, data?, meta?, errors? }` (DESIGN.md §3). ' +
          'Who may call a route is the access table in `src/domain/access.ts` (DESIGN.md §4).',
      },
      components: {
        securitySchemes: {
          [BEARER_SCHEME]: { type: 'http', scheme: 'bearer', description: 'The token a login returns.' },
        },
      },
    },
    // HEAD routes answer as their GET.
    exposeHeadRoutes: false,
  });
}

/**
 * onRoute hook of an authenticated context: says in the route's schema that it needs the bearer
 * token, so the document tells public routes from protected ones as the contexts do.
 */
export function documentBearerToken(route: RouteOptions): void {
  route.schema = { ...route.schema, security: [{ [BEARER_SCHEME]: [] }] };
}
