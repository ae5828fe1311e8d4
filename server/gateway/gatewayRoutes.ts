import type { FastifyError, FastifyInstance, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { can } from '../../src/domain/access';
import { GATEWAY_HOLD_MS } from '../../src/domain/analytics';
import { resolvePrincipal } from '../auth/authenticate';
import type { Principal } from '../auth/principal';
import { visibleSiteIds } from '../auth/tenancy';
import { BEARER_SCHEME } from '../docs/openApiPlugin';
import { forbidden, HttpError, unauthorized } from '../http/errors';
import type { Services } from '../services';
import { type GatewayExecutor, type LoadResult, runLoad } from './execute';
import { type JobLimits, QueryJobs, TooManyJobsError } from './jobs';
import { metaReply } from './meta';
import { type NormalisedQuery, normaliseQuery, QueryError } from './query';
import { mixedFilter } from './statement';

/**
 * The analytics gateway (issue 16): Cube's REST API under /cubejs-api/v1, so the stock
 * `@cubejs-client/core` works against it unmodified. It takes the user's own session token (in
 * `Authorization`, raw as Cube's client sends it, or as `Bearer <token>`), lets in the roles that
 * may open analytics, and scopes every query to the sites the caller sees (DESIGN §4).
 * Errors are Cube's `{ error }` with the envelope's `status` and `message` beside it.
 */

export const GATEWAY_PREFIX = '/cubejs-api/v1';

/** Cube's reply to a request whose result is not ready yet; the client asks again. */
export const CONTINUE_WAIT = 'Continue wait';

export interface GatewayOptions {
  /** Runs a statement; a test wraps it (to slow a query down or count runs). Production: read-only. */
  executor?: GatewayExecutor;
  limits?: Partial<JobLimits>;
  now?: () => Date;
}

export const DEFAULT_JOB_LIMITS: JobLimits = {
  holdMs: GATEWAY_HOLD_MS,
  keepMs: 60_000,
  maxRunning: 4,
  maxJobs: 64,
  maxKept: 200,
};

const MAX_QUERY_CHARS = 100_000;

const LoadQuerystring = Type.Object({
  query: Type.String({ maxLength: MAX_QUERY_CHARS, description: 'The Cube query, as JSON' }),
  queryType: Type.Optional(Type.String({ maxLength: 40 })),
});
const LoadBody = Type.Object({
  query: Type.Unknown({ description: 'The Cube query' }),
  queryType: Type.Optional(Type.String({ maxLength: 40 })),
});

declare module 'fastify' {
  interface FastifyRequest {
    gatewayPrincipal?: Principal;
  }
}

/** The token of `Authorization: <token>` (Cube's client) or `Authorization: Bearer <token>`. */
export function gatewayToken(header: string | undefined): string | null {
  if (!header) return null;
  const match = /^(?:Bearer\s+)?(\S+)$/i.exec(header.trim());
  return match ? match[1] : null;
}

const badRequest = (message: string) => new HttpError(400, message);

function parseQuery(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw badRequest('The query param must be valid JSON');
  }
}

function single(input: unknown): unknown {
  if (!Array.isArray(input)) return input;
  if (input.length !== 1) throw badRequest('Exactly one query per request is supported');
  return input[0];
}

/** The query as Cube's reply echoes it: the normalised fields, date ranges resolved. */
function echoed(query: NormalisedQuery) {
  return {
    measures: query.measures,
    dimensions: query.dimensions,
    timeDimensions: query.timeDimensions,
    filters: query.filters,
    order: query.order,
    limit: query.limit,
    ...(query.offset ? { offset: query.offset } : {}),
    timezone: query.timezone,
    rowLimit: query.limit,
    queryType: 'regularQuery',
  };
}

export async function registerGateway(
  app: FastifyInstance,
  services: Services,
  options: GatewayOptions = {},
): Promise<void> {
  const limits = { ...DEFAULT_JOB_LIMITS, ...options.limits };
  const jobs = new QueryJobs<LoadResult>(limits);
  const now = options.now ?? (() => new Date());
  const { db } = services;

  await app.register(
    async (gateway) => {
      gateway.addHook('onClose', async () => jobs.clear());
      gateway.setErrorHandler((error: FastifyError | HttpError, request, reply) => {
        let status: number;
        let message: string;
        if (error instanceof HttpError) {
          status = error.statusCode;
          message = error.message;
        } else if ((error as FastifyError).validation) {
          status = 400;
          const missing = (error as FastifyError).validation?.some(
            (issue) =>
              issue.keyword === 'required' || (issue.params as { missingProperty?: string }).missingProperty,
          );
          message = missing ? 'Query param is required' : 'The request is malformed';
        } else {
          const code = (error as FastifyError).statusCode ?? 500;
          status = code >= 400 && code < 500 ? code : 500;
          message =
            status === 500 ? 'Something went wrong, please contact support!' : 'The request is malformed';
          if (status === 500) request.log.error({ err: error }, 'gateway error');
        }
        return reply.code(status).send({ status: 'error', message, error: message });
      });

      gateway.addHook('onRequest', async (request: FastifyRequest) => {
        const token = gatewayToken(request.headers.authorization);
        const principal = token ? await resolvePrincipal(db, token) : null;
        if (!principal) throw unauthorized();
        if (!can(principal.role, 'open', 'analytics')) throw forbidden();
        request.gatewayPrincipal = principal;
      });

      const security = [{ [BEARER_SCHEME]: [] }];

      gateway.get(
        '/meta',
        { schema: { summary: 'The cubes, their measures and dimensions (Cube meta format)', security } },
        async () => metaReply(),
      );

      const load = async (request: FastifyRequest, input: unknown, queryType: string | undefined) => {
        const principal = request.gatewayPrincipal;
        if (!principal) throw unauthorized();
        let normalised: ReturnType<typeof normaliseQuery>;
        try {
          normalised = normaliseQuery(single(input), now());
        } catch (error) {
          if (error instanceof QueryError) throw badRequest(error.message);
          throw error;
        }
        const { cube, ...query } = normalised;
        if (mixedFilter(query.filters))
          throw badRequest('A filter group cannot combine measures and dimensions');
        const siteIds = (await visibleSiteIds(db, principal)).sort((a, b) => a - b);
        const key = JSON.stringify([siteIds, query]);
        let outcome: Awaited<ReturnType<typeof jobs.attach>>;
        try {
          outcome = await jobs.attach(key, () => runLoad(db, cube, query, siteIds, options.executor));
        } catch (error) {
          if (error instanceof TooManyJobsError)
            throw new HttpError(429, 'Too many analytics queries are running; try again shortly');
          throw error;
        }
        if (outcome.state === 'pending') {
          return {
            error: CONTINUE_WAIT,
            stage: 'Executing query',
            timeElapsed: now().getTime() - outcome.startedAt.getTime(),
          };
        }
        if (outcome.state === 'failed') {
          if (outcome.error instanceof QueryError) throw badRequest(outcome.error.message);
          throw outcome.error;
        }
        const result = {
          query: echoed(query),
          data: outcome.value.data,
          annotation: outcome.value.annotation,
          lastRefreshTime: outcome.finishedAt.toISOString(),
        };
        if (queryType !== 'multi') return result;
        return {
          queryType: 'regularQuery',
          results: [result],
          pivotQuery: { ...result.query, queryType: 'regularQuery' },
          slowQuery: false,
        };
      };

      gateway.get<{ Querystring: { query: string; queryType?: string } }>(
        '/load',
        {
          schema: {
            summary: 'Runs a Cube query (Cube REST `load`); "Continue wait" while it runs',
            querystring: LoadQuerystring,
            security,
          },
        },
        (request) => load(request, parseQuery(request.query.query), request.query.queryType),
      );
      gateway.post<{ Body: { query: unknown; queryType?: string } }>(
        '/load',
        {
          schema: {
            summary: 'Runs a Cube query given in the body as `{ query }`',
            body: LoadBody,
            security,
          },
        },
        (request) => {
          const input =
            typeof request.body.query === 'string' ? parseQuery(request.body.query) : request.body.query;
          return load(request, input, request.body.queryType);
        },
      );
    },
    { prefix: GATEWAY_PREFIX },
  );
}
