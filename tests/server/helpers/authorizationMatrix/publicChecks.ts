import type { InjectOptions } from 'fastify';
import { DEMO_PASSWORD } from '../../../../server/auth/passwords';
import { demoEmail } from '../../../../server/db/demoSeed';
import type { MatrixPrincipal } from './principals';
import type { RouteKey } from './rules';
import type { SeededScope, SiteObjects } from './siteObjects';

export interface PublicContext {
  api(options: InjectOptions): Promise<{ statusCode: number; body: string }>;
  safety(options: InjectOptions): Promise<{ statusCode: number; body: string }>;
  objects: Readonly<Record<SeededScope, SiteObjects>>;
  principals: readonly MatrixPrincipal[];
}

/** One expectation of a public route: what is sent, and the status it must get. */
interface PublicCase {
  what: string;
  listener: 'api' | 'safety';
  request: InjectOptions;
  status: number;
}

const bearer = (token: string | null) => (token ? { authorization: `Bearer ${token}` } : {});
const viewerLogin = { email: demoEmail('group-of-sites-viewer'), password: DEMO_PASSWORD };

/**
 * The public routes' own expectations. Their callers are not principals: a login, a link's
 * token, a device token. Keyed like the route tables; a public route without cases fails.
 */
export const PUBLIC_CASES: Record<RouteKey, (c: PublicContext) => PublicCase[]> = {
  'POST /api/login': () => [
    {
      what: 'demo password',
      listener: 'api',
      request: { method: 'POST', url: '/api/login', payload: viewerLogin },
      status: 200,
    },
    {
      what: 'wrong password',
      listener: 'api',
      request: {
        method: 'POST',
        url: '/api/login',
        payload: { ...viewerLogin, password: 'not-the-password' },
      },
      status: 401,
    },
  ],
  'POST /api/sites/:id/login': ({ objects }) =>
    (['own', 'other-site', 'other-client'] as const).map((scope) => ({
      what: `a site viewer signing in to the ${scope} site`,
      listener: 'api',
      request: { method: 'POST', url: `/api/sites/${objects[scope].siteId}/login`, payload: viewerLogin },
      status: scope === 'own' ? 200 : 401,
    })),
  'POST /api/forgot-password': () => [
    {
      what: 'any address',
      listener: 'api',
      request: { method: 'POST', url: '/api/forgot-password', payload: { email: 'nobody@matrix.test' } },
      status: 200,
    },
  ],
  'POST /api/reset-password/:token': () => [
    {
      what: 'an unknown link',
      listener: 'api',
      request: {
        method: 'POST',
        url: '/api/reset-password/not-a-token',
        payload: { password: 'matrix-password-1' },
      },
      status: 400,
    },
  ],
  'POST /api/register/:token': () => [
    {
      what: 'an unknown link',
      listener: 'api',
      request: {
        method: 'POST',
        url: '/api/register/not-a-token',
        payload: { name: 'Matrix', password: 'matrix-password-1' },
      },
      status: 400,
    },
  ],
  'GET /api/live-settings': () => [
    { what: 'anyone', listener: 'api', request: { method: 'GET', url: '/api/live-settings' }, status: 200 },
  ],
  'POST /api/ingest/:siteId/positions': ({ objects, principals }) => {
    const own = objects.own;
    const ingest = (siteId: number, token: string | null) => ({
      method: 'POST' as const,
      url: `/api/ingest/${siteId}/positions`,
      headers: bearer(token),
      // An empty batch: the token is what is checked.
      payload: [],
    });
    const admin = principals.find((p) => p.name === 'super-admin')?.token ?? null;
    return [
      {
        what: "the site's device token",
        listener: 'api',
        request: ingest(own.siteId, own.deviceToken),
        status: 200,
      },
      {
        what: "another site's device token",
        listener: 'api',
        request: ingest(objects['other-site'].siteId, own.deviceToken),
        status: 401,
      },
      {
        what: "another client's site with this token",
        listener: 'api',
        request: ingest(objects['other-client'].siteId, own.deviceToken),
        status: 401,
      },
      {
        what: "a super-admin's access token",
        listener: 'api',
        request: ingest(own.siteId, admin),
        status: 401,
      },
      { what: 'no token', listener: 'api', request: ingest(own.siteId, null), status: 401 },
    ];
  },
  'GET /api/safety/health': () => [
    {
      what: 'anyone',
      listener: 'safety',
      request: { method: 'GET', url: '/api/safety/health' },
      status: 200,
    },
  ],
  'GET /livez': () =>
    (['api', 'safety'] as const).map((listener) => ({
      what: `anyone, on the ${listener} listener`,
      listener,
      request: { method: 'GET', url: '/livez', remoteAddress: '203.0.113.7' },
      status: 200,
    })),
  'GET /readyz': () =>
    (['api', 'safety'] as const).map((listener) => ({
      what: `anyone, on the ${listener} listener`,
      listener,
      request: { method: 'GET', url: '/readyz', remoteAddress: '203.0.113.7' },
      status: 200,
    })),
  'GET /api/openapi.json': () => [
    { what: 'anyone', listener: 'api', request: { method: 'GET', url: '/api/openapi.json' }, status: 200 },
  ],
  'GET /api/docs': () => [
    { what: 'anyone', listener: 'api', request: { method: 'GET', url: '/api/docs' }, status: 200 },
  ],
  'GET /api/docs/json': () => [
    { what: 'anyone', listener: 'api', request: { method: 'GET', url: '/api/docs/json' }, status: 200 },
  ],
  'GET /api/docs/yaml': () => [
    { what: 'anyone', listener: 'api', request: { method: 'GET', url: '/api/docs/yaml' }, status: 200 },
  ],
  'GET /api/docs/static/index.html': () => [
    {
      what: 'anyone',
      listener: 'api',
      request: { method: 'GET', url: '/api/docs/static/index.html' },
      status: 302,
    },
  ],
  'GET /api/docs/static/swagger-initializer.js': () => [
    {
      what: 'anyone',
      listener: 'api',
      request: { method: 'GET', url: '/api/docs/static/swagger-initializer.js' },
      status: 200,
    },
  ],
  'GET /api/docs/static/*': () => [
    {
      what: 'anyone',
      listener: 'api',
      request: { method: 'GET', url: '/api/docs/static/swagger-ui.css' },
      status: 200,
    },
  ],
  // Without METRICS_TOKEN (as here) only this machine may scrape; operations.test.ts tries the token.
  'GET /metrics': () => [
    { what: 'this machine', listener: 'api', request: { method: 'GET', url: '/metrics' }, status: 200 },
    {
      what: 'a remote caller',
      listener: 'api',
      request: { method: 'GET', url: '/metrics', remoteAddress: '203.0.113.7' },
      status: 403,
    },
    {
      what: 'a remote caller through a proxy on this machine',
      listener: 'api',
      request: { method: 'GET', url: '/metrics', headers: { 'x-forwarded-for': '203.0.113.7' } },
      status: 403,
    },
  ],
};

/** Runs every public case; one line per status that was not the expected one. */
export async function runPublicCases(context: PublicContext, keys: readonly RouteKey[]): Promise<string[]> {
  const mismatches: string[] = [];
  for (const key of keys) {
    const cases = PUBLIC_CASES[key];
    if (!cases) {
      mismatches.push(`${key}: a public route without cases in publicChecks.ts`);
      continue;
    }
    for (const publicCase of cases(context)) {
      const response = await context[publicCase.listener](publicCase.request);
      if (response.statusCode !== publicCase.status)
        mismatches.push(
          `${key} (${publicCase.what}): expected ${publicCase.status}, got ${response.statusCode} ${response.body.slice(0, 200)}`,
        );
    }
  }
  return mismatches;
}
