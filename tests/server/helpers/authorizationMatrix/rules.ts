import { type Area, type Capability, can } from '../../../../src/domain/access';
import type { Role } from '../../../../src/domain/roles';
import type { MatrixPrincipal } from './principals';
import {
  FOREIGN_BODY,
  FOREIGN_CHILD,
  type FreshKind,
  OTHER_CREW,
  SCOPES,
  type Scope,
  SELF,
  type SiteObjects,
} from './siteObjects';

/** What a route's path or body names, whose tenancy decides between an answer and 404. */
export type ObjectKind =
  | 'client'
  | 'site'
  | 'building'
  | 'floor'
  | 'zone'
  | 'network'
  | 'worker'
  | 'crew'
  | 'workshift'
  | 'workerRole'
  | 'subcontractor'
  | 'inventory'
  | 'deviceToken'
  | 'user'
  | 'evacuation'
  | 'incident'
  | 'electricalRoom'
  | 'wall'
  | 'planningAnchor'
  | 'workPermit'
  | 'gridField'
  | 'powerBiReport'
  | 'activity';

/** An answer an allowed call may still get for reasons of its own (no picture uploaded yet…). */
export interface AllowedAnswer {
  status: number;
  message: string;
}

/** A route behind the bearer token: who may call it, on what, with which request. */
export interface GuardedRoute {
  kind: 'guarded';
  /** Any of these areas at `capability` lets a role through; none listed: every signed-in role. */
  areas: readonly Area[];
  capability: Capability;
  /** Another area and capability that also lets a role through (a picker shared by two screens). */
  alsoAllowedBy?: { area: Area; capability: Capability };
  /** What the path or body names; null: nothing, one call per principal. */
  object: ObjectKind | null;
  /** Object columns to check; all three unless the object has no "other site" (a client). */
  scopes?: readonly Scope[];
  /** Path parameters that the default (by name and the segment before) would get wrong. */
  params?: (o: SiteObjects) => Record<string, string | number>;
  query?: (o: SiteObjects) => Record<string, string>;
  /** A body that passes the route's schema, so the tenancy check is reached (n makes names unique). */
  body?: (o: SiteObjects, n: number) => unknown;
  /** Multipart routes get no body: tenancy is checked before the form is read, an allowed call is 415. */
  multipart?: true;
  /** A destructive call works on a fresh object of this kind each time. */
  fresh?: FreshKind;
  /** Roles refused before the object is looked at (403 wherever it is). */
  refusedFirst?: readonly Role[];
  /** Roles refused once the object is found within reach (403 there, 404 outside). */
  refusedInReach?: readonly Role[];
  allowedAnswers?: readonly AllowedAnswer[];
  /** Call with a session made for this call (logout revokes the caller's own). */
  ownSession?: true;
  /**
   * The body names objects besides the path's (the suite finds those bodies and fails until this
   * says how): `sameSite`, they must be the path's site's, so another client's are 404 to anyone;
   * `reach`, they are checked against the caller's reach (a super-admin may name any).
   */
  foreignBody?: 'sameSite' | 'reach';
  /** Any signed-in user may call it on itself (its own clients and sites), whatever its role. */
  selfAllowed?: true;
}

/** A route anyone may call; its own checks say what it must answer. */
export interface PublicRoute {
  kind: 'public';
  why: string;
}

export type RouteRule = GuardedRoute | PublicRoute;

/** The table's key, as the route is registered: `METHOD /url`. */
export type RouteKey = `${string} /${string}`;

export type Expected =
  | { outcome: 'unauthenticated'; status: 401 }
  | { outcome: 'forbidden'; status: 403 }
  | { outcome: 'hidden'; status: 404 }
  | { outcome: 'allowed' };

/** Whether the rule's body names objects: its ids (numbers; names are text) differ between two sites. */
export function bodyNamesObjects(rule: GuardedRoute, one: SiteObjects, other: SiteObjects): boolean {
  if (rule.body === undefined) return false;
  const ids = (body: unknown) =>
    JSON.stringify(body, (_key, value) => (typeof value === 'string' ? undefined : value));
  return ids(rule.body(one, 0)) !== ids(rule.body(other, 0));
}

/** Path parameters that name no object. */
const NOT_OBJECTS = new Set(['from', 'to', 'status', 'token']);

export function objectParams(url: string): number {
  return url
    .split('/')
    .filter((segment) => /^:(\w+)/.test(segment) && !NOT_OBJECTS.has(segment.slice(1).replace('?', '')))
    .length;
}

export function scopesOf(rule: GuardedRoute, url: string): readonly Scope[] | readonly [null] {
  if (rule.object === null) return [null];
  if (rule.scopes) return rule.scopes;
  const scopes: Scope[] = [...SCOPES];
  if (rule.object === 'worker' || rule.object === 'crew' || rule.object === 'activity')
    scopes.push(OTHER_CREW);
  if (objectParams(url) >= 2) scopes.push(FOREIGN_CHILD);
  if (rule.selfAllowed) scopes.push(SELF);
  if (rule.foreignBody) scopes.push(FOREIGN_BODY);
  return scopes;
}

/** DESIGN §3–§4 and src/domain/access.ts: 401, then the role's area (403), then tenancy (404). */
export function expectedOutcome(
  principal: MatrixPrincipal,
  rule: GuardedRoute,
  scope: Scope | null,
): Expected {
  const role = principal.role;
  if (role === null) return { outcome: 'unauthenticated', status: 401 };
  if (scope === SELF && rule.selfAllowed) return { outcome: 'allowed' };
  const also = rule.alsoAllowedBy;
  const passes =
    rule.areas.length === 0 ||
    rule.areas.some((area) => can(role, rule.capability, area)) ||
    (also !== undefined && can(role, also.capability, also.area));
  if (!passes) return { outcome: 'forbidden', status: 403 };
  if (rule.refusedFirst?.includes(role)) return { outcome: 'forbidden', status: 403 };
  const inReach =
    scope === FOREIGN_BODY
      ? rule.foreignBody === 'reach' && principal.reach.has('own') && principal.reach.has('other-client')
      : scope === null || principal.reach.has(scope);
  if (!inReach) return { outcome: 'hidden', status: 404 };
  if (rule.refusedInReach?.includes(role)) return { outcome: 'forbidden', status: 403 };
  return { outcome: 'allowed' };
}

/** What went wrong with an answer, or null when it is what the matrix expects. */
export function mismatch(
  expected: Expected,
  rule: GuardedRoute,
  answer: { status: number; message: string | undefined },
): string | null {
  if (expected.outcome !== 'allowed') {
    if (answer.status !== expected.status) return `expected ${expected.status} (${expected.outcome})`;
    // "No picture yet" would tell that the worker exists: hidden must read like unknown.
    if (expected.outcome === 'hidden' && rule.allowedAnswers?.some((a) => a.message === answer.message))
      return 'expected a 404 that does not tell the object exists';
    return null;
  }
  if (rule.allowedAnswers?.some((a) => a.status === answer.status && a.message === answer.message))
    return null;
  if (answer.status >= 500) return 'expected an answer, got a server error';
  if ([401, 403, 404].includes(answer.status)) return 'expected to be allowed';
  return null;
}

/** Default object behind each path parameter, by its name and the path segment before it. */
function paramValue(name: string, before: string, o: SiteObjects): string | number {
  if (name === 'id') {
    const byCollection: Record<string, number> = {
      sites: o.siteId,
      buildings: o.buildingId,
      floors: o.floorId,
      networks: o.networkId,
      users: o.userId,
      'electrical-rooms': o.electricalRoomId,
      gridFields: o.gridFieldId,
    };
    if (before in byCollection) return byCollection[before];
  }
  if (name === 'itemId') {
    if (before === 'worker-roles') return o.workerRoleId;
    if (before === 'subcontractors') return o.subcontractorId;
  }
  const byName: Record<string, string | number> = {
    siteId: o.siteId,
    clientId: o.clientId,
    floorId: o.floorId,
    zoneId: o.zoneId,
    workerId: o.workerId,
    crewId: o.crewId,
    workshiftId: o.workshiftId,
    helmetId: o.spareHelmetId,
    inventoryId: o.anchorId,
    tokenId: o.deviceTokenId,
    sessionId: o.evacuationId,
    deviceId: o.electricalRoomDeviceId,
    permitId: o.workPermitId,
    uploadId: o.uploadId,
    reportId: o.powerBiReportId,
    activityId: o.activityId,
  };
  if (name in byName) return byName[name];
  throw new Error(`no object for :${name} after /${before}/`);
}

/**
 * The registered url with each parameter replaced by the scope's object: the first from `o`, the
 * others from `child` (another set only in the foreign-child column).
 */
export function fillUrl(url: string, rule: GuardedRoute, o: SiteObjects, child: SiteObjects = o): string {
  const segments = url.split('/');
  let seen = 0;
  return segments
    .map((segment, index) => {
      // `:status?` is an optional parameter; `report.xlsx` keeps what follows the name.
      const match = /^:(\w+)\??(.*)$/.exec(segment);
      if (!match) return segment;
      const [, name, rest] = match;
      const objects = seen++ === 0 ? o : child;
      const overrides = rule.params?.(objects) ?? {};
      const value = name in overrides ? overrides[name] : paramValue(name, segments[index - 1], objects);
      return `${encodeURIComponent(String(value))}${rest}`;
    })
    .join('/');
}
