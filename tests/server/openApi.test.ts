import { readFileSync } from 'node:fs';
import type { FastifyInstance, RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app';
import { loadConfig } from '../../server/config';
import type { Db } from '../../server/db/database';
import { documentedOperations, type OpenApiDocument, openApiPath } from '../../server/docs/openApiDocument';
import { buildSafetyApp } from '../../server/safety/safetyApp';

/** `METHOD path` of every route a listener registers, in the document's path form. */
function collector(operations: string[]) {
  return (route: RouteOptions) => {
    // HEAD answers as its GET; the reference page's own files are not API routes.
    if ((route.schema as { hide?: boolean } | undefined)?.hide) return;
    for (const method of [route.method].flat()) {
      if (method !== 'HEAD') operations.push(`${method} ${openApiPath(route.url)}`);
    }
  };
}

const config = loadConfig({});
const mainRoutes: string[] = [];
const safetyRoutes: string[] = [];
let app: FastifyInstance;
let document: OpenApiDocument;

beforeAll(async () => {
  // Routes only keep the database for their handlers; none but the document's runs here.
  app = await buildApp({ db: {} as Db, config, onRoute: collector(mainRoutes) });
  await (await buildSafetyApp({ db: {} as Db, config }, { onRoute: collector(safetyRoutes) })).close();
  const reply = await app.inject({ method: 'GET', url: '/api/openapi.json' });
  expect(reply.statusCode).toBe(200);
  document = reply.json();
}, 60_000);

afterAll(() => app.close());

describe('the OpenAPI document (GET /api/openapi.json)', () => {
  it('is OpenAPI 3.1, served without a session', () => {
    expect(document.openapi).toBe('3.1.0');
  });

  it('documents every route of both listeners, and nothing else', () => {
    expect(mainRoutes).toContain('POST /api/login');
    expect(safetyRoutes).toContain('POST /api/safety/getworkers');
    const registered = [...new Set([...mainRoutes, ...safetyRoutes])].sort();
    expect(documentedOperations(document).sort()).toEqual(registered);
  });

  it('puts the safety routes on the safety listener', () => {
    const servers = document.paths['/api/safety/getworkers']?.servers ?? [];
    expect(servers.map((server) => server.description)).toEqual(['the safety listener (SAFETY_PORT)']);
  });

  it('says which routes need the bearer token', () => {
    expect(document.paths['/api/login']?.post?.security).toBeUndefined();
    expect(document.paths['/api/user']?.get?.security).toEqual([{ bearerToken: [] }]);
    expect(document.paths['/api/safety/getworkers']?.post?.security).toEqual([{ bearerToken: [] }]);
  });

  it('is what the reference page at /api/docs reads', async () => {
    const page = await app.inject({ method: 'GET', url: '/api/docs' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    const pageDocument = await app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(pageDocument.json()).toEqual(document);
  });
});

// That docs/api.md is what the generator writes is tests/server/apiReference.test.ts.
describe('docs/api.md', () => {
  it('has a row for every route of both listeners', () => {
    const reference = readFileSync('docs/api.md', 'utf8');
    const missing = [...mainRoutes, ...safetyRoutes].filter((operation) => {
      const [method, path] = operation.split(' ');
      return !reference.includes(`| ${method} | \`${path}\` |`);
    });
    expect(missing).toEqual([]);
  });
});
