import type { InjectOptions } from 'fastify';
import { Value } from 'typebox/value';
import type { Db } from '../../../../server/db/database';
import { sessionFor } from '../sessionFor';
import type { MatrixPrincipal } from './principals';
import type { RegisteredRoute } from './registeredRoutes';
import {
  bodyNamesObjects,
  type Expected,
  expectedOutcome,
  fillUrl,
  type GuardedRoute,
  mismatch,
  objectParams,
  type RouteKey,
  type RouteRule,
  scopesOf,
} from './rules';
import {
  FOREIGN_BODY,
  FOREIGN_CHILD,
  OTHER_CREW,
  SCOPES,
  type Scope,
  SELF,
  type SeededScope,
  type SiteObjects,
  withFresh,
} from './siteObjects';

export interface Answer {
  status: number;
  message: string | undefined;
}

/** One listener under test: its registered routes, its table, and how to call it. */
export interface Listener {
  name: string;
  routes: readonly RegisteredRoute[];
  table: Readonly<Record<RouteKey, RouteRule>>;
  inject(options: InjectOptions): Promise<{ statusCode: number; body: string }>;
}

export interface MatrixRun {
  calls: number;
  /** `METHOD /url as principal on scope: what was expected, what came back`, one per mismatch. */
  mismatches: string[];
  /** Expected outcomes counted, to show the matrix is not one-sided. */
  outcomes: Record<Expected['outcome'], number>;
  /** Statuses other than 200 that allowed calls got, by route: where the table's request falls short. */
  allowedButNotOk: Map<RouteKey, Set<number>>;
}

export interface MatrixWorld {
  db: Db;
  principals: readonly MatrixPrincipal[];
  objects: Readonly<Record<SeededScope, SiteObjects>>;
}

function messageOf(body: string): string | undefined {
  try {
    const parsed = JSON.parse(body) as { message?: unknown };
    return typeof parsed.message === 'string' ? parsed.message : undefined;
  } catch {
    return undefined;
  }
}

let uniqueCall = 0;

/** The object columns a principal is called on (see `sessionlessSlot`). */
function scopesFor(principal: MatrixPrincipal, rule: GuardedRoute, url: string): readonly (Scope | null)[] {
  const all: readonly (Scope | null)[] = scopesOf(rule, url);
  const slot = principal.sessionlessSlot;
  if (slot === undefined || all.length === 1) return all;
  return all.filter((_, index) => index % 3 === slot);
}

/** The request a rule makes on the given objects: path, query and a body that passes the schema. */
function requestFor(
  route: RegisteredRoute,
  rule: GuardedRoute,
  named: { path: SiteObjects; child: SiteObjects; body: SiteObjects },
): InjectOptions {
  const o = named.path;
  const request: InjectOptions = {
    method: route.method as InjectOptions['method'],
    url: fillUrl(route.url, rule, o, named.child),
  };
  if (rule.query) request.query = rule.query(o);
  if (rule.multipart) return request;
  const n = ++uniqueCall;
  const payload = rule.body ? rule.body(named.body, n) : route.body ? Value.Create(route.body) : undefined;
  if (route.body && !Value.Check(route.body, payload))
    throw new Error(`${route.key}: the table's body fails the route's schema: ${JSON.stringify(payload)}`);
  if (payload !== undefined) request.payload = payload as InjectOptions['payload'];
  return request;
}

/**
 * The objects a call names: the column's (the principal's own when the route names none, with the
 * caller as the user in the self column); in the foreign-child column the principal's own parent
 * and another client's child. A destructive route gets a fresh child.
 */
async function objectsFor(
  world: MatrixWorld,
  principal: MatrixPrincipal,
  rule: GuardedRoute,
  scope: Scope | null,
): Promise<{ objects: SiteObjects; child: SiteObjects; body: SiteObjects }> {
  if (scope === FOREIGN_BODY) {
    const own = rule.fresh ? await withFresh(world.db, world.objects.own, rule.fresh) : world.objects.own;
    return { objects: own, child: own, body: world.objects['other-client'] };
  }
  const seeded: SeededScope =
    scope === null || scope === SELF ? principal.home : scope === FOREIGN_CHILD ? 'own' : scope;
  let objects = world.objects[seeded];
  if (scope === SELF) objects = { ...objects, userId: principal.userId ?? objects.userId };
  const foreign = scope === FOREIGN_CHILD;
  let child = foreign ? world.objects['other-client'] : objects;
  if (rule.fresh) child = await withFresh(world.db, child, rule.fresh);
  const parent = foreign ? objects : child;
  return { objects: parent, child, body: parent };
}

/** Names of objects outside the principal's reach that a reply shows. */
function leaks(world: MatrixWorld, principal: MatrixPrincipal, what: string, body: string): string[] {
  const columns: SeededScope[] = [...SCOPES, OTHER_CREW];
  return columns
    .filter((scope) => !principal.reach.has(scope))
    .flatMap((scope) =>
      world.objects[scope].names
        .filter((name) => body.includes(JSON.stringify(name)))
        .map((name) => `${what}: shows ${JSON.stringify(name)} of the ${scope} column`),
    );
}

/** Calls every guarded route of the listener as every principal on every object scope. */
export async function runRouteMatrix(world: MatrixWorld, listener: Listener): Promise<MatrixRun> {
  const run: MatrixRun = {
    calls: 0,
    mismatches: [],
    outcomes: { unauthenticated: 0, forbidden: 0, hidden: 0, allowed: 0 },
    allowedButNotOk: new Map(),
  };
  for (const route of listener.routes) {
    const rule = listener.table[route.key];
    if (rule?.kind !== 'guarded') continue;
    for (const principal of world.principals) {
      for (const scope of scopesFor(principal, rule, route.url)) {
        const { objects, child, body } = await objectsFor(world, principal, rule, scope);
        const token =
          rule.ownSession && principal.role !== null && principal.userId !== null
            ? await sessionFor(world.db, principal.userId)
            : principal.token;
        const request = requestFor(route, rule, { path: objects, child, body });
        if (token) request.headers = { authorization: `Bearer ${token}` };
        const response = await listener.inject(request);
        const answer: Answer = { status: response.statusCode, message: messageOf(response.body) };
        const expected = expectedOutcome(principal, rule, scope);
        run.calls += 1;
        run.outcomes[expected.outcome] += 1;
        if (expected.outcome === 'allowed' && answer.status !== 200) {
          const statuses = run.allowedButNotOk.get(route.key) ?? new Set<number>();
          run.allowedButNotOk.set(route.key, statuses.add(answer.status));
        }
        if (route.method === 'GET' && answer.status === 200)
          run.mismatches.push(
            ...leaks(world, principal, `${listener.name}: ${route.key} as ${principal.name}`, response.body),
          );
        const wrong = mismatch(expected, rule, answer);
        if (wrong)
          run.mismatches.push(
            `${listener.name}: ${route.key} as ${principal.name} on ${scope ?? 'no object'} (${request.url}): ${wrong}, got ${answer.status} ${answer.message ?? ''}`,
          );
      }
    }
  }
  return run;
}

/** Routes whose body names objects besides the path's without saying how they are checked. */
export function undeclaredForeignBodies(world: MatrixWorld, listener: Listener): string[] {
  return listener.routes.flatMap((route) => {
    const rule = listener.table[route.key];
    if (rule?.kind !== 'guarded' || rule.foreignBody || objectParams(route.url) === 0) return [];
    return bodyNamesObjects(rule, world.objects.own, world.objects['other-client']) ? [route.key] : [];
  });
}

/** Registered routes missing from the table, and table rows no route answers to. */
export function tableDiff(listener: Listener): { missing: string[]; stale: string[] } {
  const registered = new Set<string>(listener.routes.map((route) => route.key));
  return {
    missing: [...registered].filter((key) => !(key in listener.table)).sort(),
    stale: Object.keys(listener.table)
      .filter((key) => !registered.has(key))
      .sort(),
  };
}
