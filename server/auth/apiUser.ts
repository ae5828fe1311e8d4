import { eq } from 'drizzle-orm';
import { DEFAULT_LOCALE, isLocale } from '../../src/domain/limits';
import { isRole, PERMISSIONS, type Permission } from '../../src/domain/roles';
import type { ApiUser } from '../../src/domain/user';
import type { Db } from '../db/database';
import { rolePermissions, users } from '../db/schema';
import { notFound } from '../http/errors';

type UserRow = typeof users.$inferSelect;
type Reader = Pick<Db, 'select'>;

/** The reply form of a user row (spec §3), with the permissions its role grants. */
export async function toApiUser(db: Reader, user: UserRow): Promise<ApiUser> {
  if (!isRole(user.role)) throw new Error(`user ${user.id} has the unknown role ${user.role}`);
  const granted = await db
    .select({ permission: rolePermissions.permission })
    .from(rolePermissions)
    .where(eq(rolePermissions.role, user.role));
  return {
    id: user.id,
    name: user.name,
    email: user.email,
    user_role: user.role,
    permissions: granted.map((g) => g.permission).filter(isPermission),
    locale: isLocale(user.locale) ? user.locale : DEFAULT_LOCALE,
    last_client_id: user.lastClientId,
    last_site_id: user.lastSiteId,
  };
}

export async function apiUserById(db: Reader, userId: number): Promise<ApiUser> {
  const [user] = await db.select().from(users).where(eq(users.id, userId)).limit(1);
  if (!user) throw notFound('User');
  return toApiUser(db, user);
}

function isPermission(value: string): value is Permission {
  return (PERMISSIONS as readonly string[]).includes(value);
}
