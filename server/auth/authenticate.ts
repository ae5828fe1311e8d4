import { and, eq, gt, isNull, type SQL, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest, preHandlerHookHandler } from 'fastify';
import { type Area, type Capability, can } from '../../src/domain/access';
import { isRole } from '../../src/domain/roles';
import type { Db } from '../db/database';
import { runPrepared } from '../db/preparedRows';
import { rolePermissions, sessions, users } from '../db/schema';
import { forbidden, unauthorized } from '../http/errors';
import { type Principal, principalOf } from './principal';
import { hashToken } from './tokens';

export function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header) return null;
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  return match ? match[1] : null;
}

/** The session and its user, as a principal is made of (the caller checks status and role). */
export const sessionHolderColumns = {
  sessionId: sessions.id,
  id: users.id,
  role: users.role,
  status: users.status,
  clientId: users.clientId,
  groupOfSitesId: users.groupOfSitesId,
};

/** Sessions matching `tokenMatch` that still let their holder in: not revoked, not expired. */
export function liveSessionWhere(tokenMatch: SQL): SQL | undefined {
  return and(tokenMatch, isNull(sessions.revokedAt), gt(sessions.expiresAt, new Date()));
}

export async function resolvePrincipal(db: Db, token: string): Promise<Principal | null> {
  // One round trip on every authenticated call: session, user and the role's permissions.
  const [row] = await runPrepared(
    db
      .select({
        ...sessionHolderColumns,
        permissions: sql<
          string[]
        >`coalesce((select array_agg(${rolePermissions.permission}) from ${rolePermissions} where ${rolePermissions.role} = ${users.role}), '{}')`,
      })
      .from(sessions)
      .innerJoin(users, eq(users.id, sessions.userId))
      .where(liveSessionWhere(eq(sessions.tokenHash, hashToken(token))))
      .limit(1),
  );
  if (row?.status !== 'active' || !isRole(row.role)) return null;
  return {
    id: row.id,
    role: row.role,
    clientId: row.clientId,
    groupOfSitesId: row.groupOfSitesId,
    permissions: row.permissions,
    sessionId: row.sessionId,
  };
}

/** Adds the bearer-token check to every route of the plugin context it is called in. */
export function requireAuthentication(app: FastifyInstance, db: Db): void {
  app.addHook('onRequest', async (request) => {
    const token = bearerToken(request);
    const principal = token ? await resolvePrincipal(db, token) : null;
    if (!principal) throw unauthorized();
    request.principal = principal;
  });
}

/** preHandler: the caller's role must allow `capability` on `area` (DESIGN.md §4). */
export function allow(area: Area, capability: Capability): preHandlerHookHandler {
  return async (request) => {
    if (!can(principalOf(request).role, capability, area)) throw forbidden();
  };
}

/** Reads shared by several areas: the floors and zones the maps edit are what evacuation screens show. */
export function allowReadingAny(...areas: readonly Area[]): preHandlerHookHandler {
  return async (request) => {
    const role = principalOf(request).role;
    if (!areas.some((area) => can(role, 'open', area))) throw forbidden();
  };
}

/**
 * The evacuation screens draw the same floors, zones and blueprints as the maps, and so do
 * installation mode and the maintenance map (DESIGN §4's one row for both), the site engineer's.
 */
export const allowFloorPlanReaders = allowReadingAny('maps', 'evacuation', 'installation');

export function requirePermission(permission: string): preHandlerHookHandler {
  return async (request) => {
    if (!principalOf(request).permissions.includes(permission)) throw forbidden();
  };
}
