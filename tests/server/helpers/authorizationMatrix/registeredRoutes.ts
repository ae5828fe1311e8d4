import type { RouteOptions } from 'fastify';
import type { TSchema } from 'typebox';
import { buildApp } from '../../../../server/app';
import type { Config } from '../../../../server/config';
import type { Db } from '../../../../server/db/database';
import { buildSafetyApp } from '../../../../server/safety/safetyApp';
import type { RouteKey } from './rules';

export interface RegisteredRoute {
  key: RouteKey;
  method: string;
  url: string;
  /** The route's body schema, when the registration says (the main listener's routes). */
  body?: TSchema;
}

function keyOf(method: string, url: string): RouteKey {
  return `${method} ${url}` as RouteKey;
}

function collector(routes: RegisteredRoute[]) {
  return (route: RouteOptions) => {
    for (const method of [route.method].flat()) {
      if (method === 'HEAD') continue;
      const schema = route.schema as { body?: TSchema } | undefined;
      routes.push({ key: keyOf(method, route.url), method, url: route.url, body: schema?.body });
    }
  };
}

/**
 * The routes of both listeners as they register them (their `onRoute` option, as the API
 * reference is written). HEAD routes answer as their GET and are left out. Registration keeps the
 * database for the handlers; none runs here.
 */
export async function registeredRoutes(
  config: Config,
): Promise<{ api: RegisteredRoute[]; safety: RegisteredRoute[] }> {
  const api: RegisteredRoute[] = [];
  const safety: RegisteredRoute[] = [];
  const db = {} as Db;
  await (await buildApp({ db, config, onRoute: collector(api) })).close();
  await (await buildSafetyApp({ db, config }, { onRoute: collector(safety) })).close();
  return { api, safety };
}
