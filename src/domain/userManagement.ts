import { ROLES, type Role } from './roles';
import type { UserStatus } from './user';

/**
 * Who may manage whom, and what may be done to a user (docs/decisions.md "User management",
 * spec §4 "Users can be activated, deactivated and re-invited"). The server refuses by these
 * rules and the console shows only the buttons they allow.
 */

/**
 * The roles a user may manage, and so invite or give: a super-admin any, a client-admin any but
 * super-admin, a site admin those below the client-admin. Whose users they are (the client,
 * shared sites) is the server's tenancy.
 */
const MANAGED_ROLES: Record<Role, readonly Role[]> = {
  'super-admin': ROLES,
  'client-admin': ROLES.filter((role) => role !== 'super-admin'),
  'group-of-sites-admin': ROLES.filter((role) => role !== 'super-admin' && role !== 'client-admin'),
  'group-of-sites-viewer': [],
  'crew-manager': [],
  'site-engineer': [],
  'safety-demo': [],
};

export function managedRoles(role: Role): readonly Role[] {
  return MANAGED_ROLES[role];
}

/** The caller may invite a user with `target`, or give it to one. */
export function canAssignRole(role: Role, target: Role): boolean {
  return MANAGED_ROLES[role].includes(target);
}

export const USER_MANAGEMENT_MESSAGES = {
  invited: 'User is invited successfully',
  updated: 'User is updated successfully',
  activated: 'User is activated successfully',
  deactivated: 'User is deactivated successfully',
  reinvited: 'Invitation is sent successfully',
  passwordSet: 'Password is updated successfully',
  notRegistered: 'User has not registered yet',
  alreadyRegistered: 'User is already registered',
  deactivateSelf: 'You cannot deactivate yourself',
  ownRole: 'You cannot change your own role',
  superAdminRole: 'User role cannot change to or from Super Admin',
} as const;

export const USER_ACTIONS = ['edit', 'activate', 'deactivate', 'reinvite', 'setPassword'] as const;
export type UserAction = (typeof USER_ACTIONS)[number];

export interface UserManager {
  id: number;
  role: Role;
}

export interface ManagedTarget {
  id: number;
  user_role: Role;
  status: UserStatus;
  /** Has set a password (through its invitation, or an administrator set one). */
  registered: boolean;
}

/** Why the server refuses an action: the key of its message, or `role` (answered 404). */
export type UserActionRefusal = 'role' | 'notRegistered' | 'alreadyRegistered' | 'deactivateSelf';

/**
 * Why `caller` may not do `action` to `target`, or null when it may. Anyone may edit itself and
 * set its own password; only a registered user can be active; only one who never registered is
 * re-invited; no one deactivates itself.
 */
export function userActionRefusal(
  caller: UserManager,
  action: UserAction,
  target: ManagedTarget,
): UserActionRefusal | null {
  const self = caller.id === target.id;
  if (!self && !canAssignRole(caller.role, target.user_role)) return 'role';
  switch (action) {
    case 'activate':
      return target.registered ? null : 'notRegistered';
    case 'deactivate':
      return self ? 'deactivateSelf' : null;
    case 'reinvite':
      return target.registered || target.status === 'active' ? 'alreadyRegistered' : null;
    default:
      return null;
  }
}

/** What a status makes worth offering: no Activate on an active user, no Deactivate on an inactive one. */
function changesSomething(action: UserAction, status: UserStatus): boolean {
  if (action === 'activate') return status !== 'active';
  if (action === 'deactivate') return status !== 'inactive';
  return true;
}

/** The buttons of a user's row: the actions the server accepts that change something. */
export function userActions(caller: UserManager, target: ManagedTarget): UserAction[] {
  return USER_ACTIONS.filter(
    (action) => userActionRefusal(caller, action, target) === null && changesSomething(action, target.status),
  );
}

export type RoleChangeRefusal = 'ownRole' | 'notAssignable' | 'superAdminRole';

/**
 * Why `target` may not get `role` from `caller`, or null when it may (keeping its role always
 * may). A super-admin has no client, so moving a user in or out of super-admin is not an edit.
 */
export function roleChangeRefusal(
  caller: UserManager,
  target: { id: number; user_role: Role },
  role: Role,
): RoleChangeRefusal | null {
  if (role === target.user_role) return null;
  if (target.id === caller.id) return 'ownRole';
  if (!canAssignRole(caller.role, role)) return 'notAssignable';
  if (role === 'super-admin' || target.user_role === 'super-admin') return 'superAdminRole';
  return null;
}

/** The roles the edit form offers for `target`: its own, and those it may be moved to. */
export function roleChoices(caller: UserManager, target: { id: number; user_role: Role }): Role[] {
  return ROLES.filter((role) => roleChangeRefusal(caller, target, role) === null);
}
