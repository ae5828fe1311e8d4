import { eq } from 'drizzle-orm';
import { hashToken } from '../../../../server/auth/tokens';
import { sessions } from '../../../../server/db/schema';
import { ROLES, type Role } from '../../../../src/domain/roles';
import type { OtherTenant } from '../otherTenant';
import type { TestApp } from '../testApp';
import type { Scope, SeededScope } from './siteObjects';

/** The matrix's rows: the seven demo roles, three callers without a live session, another client's user. */
export const PRINCIPAL_NAMES = [...ROLES, 'anonymous', 'expired', 'revoked', 'other-client'] as const;
export type PrincipalName = (typeof PRINCIPAL_NAMES)[number];

export interface MatrixPrincipal {
  name: PrincipalName;
  /** The role the server sees; null when it must not see anyone (401). */
  role: Role | null;
  token: string | null;
  /** The object scopes the principal's tenancy reaches. */
  reach: ReadonlySet<Scope>;
  /** The scope whose objects are the principal's own (where a fresh session is made for logout). */
  home: SeededScope;
  userId: number | null;
  /**
   * Callers without a live session (0, 1, 2) are refused before any object is looked up, so they
   * share the object columns between them: each takes every third.
   */
  sessionlessSlot?: number;
}

function reachOf(role: Role): Scope[] {
  // A crew manager reaches the workers and crews of the crews it manages only.
  const own: Scope[] = role === 'crew-manager' ? ['own'] : ['own', 'other-crew'];
  if (role === 'super-admin') return [...own, 'other-site', 'other-client'];
  if (role === 'client-admin') return [...own, 'other-site'];
  return own;
}

/**
 * Every principal with its token: demo roles log in with the demo password; "expired" is a
 * session whose expiry was moved into the past in the database; "revoked" logged out;
 * "other-client" is Other Co's site admin.
 */
export async function matrixPrincipals(
  t: TestApp,
  other: OtherTenant,
  demoUserIds: Record<Role, number>,
): Promise<MatrixPrincipal[]> {
  const principals: MatrixPrincipal[] = [];
  for (const role of ROLES) {
    principals.push({
      name: role,
      role,
      token: await t.loginAs(role),
      reach: new Set(reachOf(role)),
      home: 'own',
      userId: demoUserIds[role],
    });
  }
  const expired = await t.loginAs('group-of-sites-admin');
  await t.db
    .update(sessions)
    .set({ expiresAt: new Date(Date.now() - 60_000) })
    .where(eq(sessions.tokenHash, hashToken(expired)));
  const revoked = await t.loginAs('group-of-sites-admin');
  const logout = await t.call(revoked, { method: 'GET', url: '/api/logout' });
  if (logout.statusCode !== 200) throw new Error(`logout failed: ${logout.statusCode} ${logout.body}`);
  const none = new Set<Scope>();
  principals.push(
    {
      name: 'anonymous',
      role: null,
      token: null,
      reach: none,
      home: 'own',
      userId: null,
      sessionlessSlot: 0,
    },
    {
      name: 'expired',
      role: null,
      token: expired,
      reach: none,
      home: 'own',
      userId: null,
      sessionlessSlot: 1,
    },
    {
      name: 'revoked',
      role: null,
      token: revoked,
      reach: none,
      home: 'own',
      userId: null,
      sessionlessSlot: 2,
    },
    {
      name: 'other-client',
      role: 'group-of-sites-admin',
      token: await t.login(other.email('group-of-sites-admin')),
      reach: new Set<Scope>(['other-client']),
      home: 'other-client',
      userId: other.userIds['group-of-sites-admin'],
    },
  );
  return principals;
}
