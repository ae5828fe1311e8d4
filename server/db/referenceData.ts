import { DEFAULT_ROLE_PERMISSIONS, PERMISSIONS, ROLE_LABELS, ROLES } from '../../src/domain/roles';
import type { Db } from './database';
import { permissions, rolePermissions, roles } from './schema';

/** Roles and permissions every database needs, from the one table in src/domain. Idempotent. */
export async function ensureReferenceData(db: Db): Promise<void> {
  await db.transaction(async (tx) => {
    await tx
      .insert(roles)
      .values(ROLES.map((name) => ({ name, label: ROLE_LABELS[name] })))
      .onConflictDoNothing();
    await tx
      .insert(permissions)
      .values(PERMISSIONS.map((name) => ({ name })))
      .onConflictDoNothing();
    const grants = ROLES.flatMap((role) =>
      DEFAULT_ROLE_PERMISSIONS[role].map((permission) => ({ role, permission })),
    );
    if (grants.length > 0) await tx.insert(rolePermissions).values(grants).onConflictDoNothing();
  });
}
