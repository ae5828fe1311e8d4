import { describe, expect, it } from 'vitest';
import { ROLES, type Role } from '../../src/domain/roles';
import type { UserStatus } from '../../src/domain/user';
import {
  canAssignRole,
  managedRoles,
  roleChangeRefusal,
  roleChoices,
  userActionRefusal,
  userActions,
} from '../../src/domain/userManagement';

const siteAdmin = { id: 1, role: 'group-of-sites-admin' as Role };
const clientAdmin = { id: 2, role: 'client-admin' as Role };
const superAdmin = { id: 3, role: 'super-admin' as Role };
const target = (status: UserStatus, registered: boolean, role: Role = 'crew-manager') => ({
  id: 10,
  user_role: role,
  status,
  registered,
});

describe('who manages whom (docs/decisions.md "User management")', () => {
  it('lets a site admin give only the roles below the client-admin, a client-admin all but super-admin', () => {
    expect(managedRoles('group-of-sites-admin')).not.toContain('client-admin');
    expect(managedRoles('group-of-sites-admin')).not.toContain('super-admin');
    expect(managedRoles('group-of-sites-admin')).toContain('crew-manager');
    expect(managedRoles('client-admin')).toEqual(ROLES.filter((role) => role !== 'super-admin'));
    expect(managedRoles('super-admin')).toEqual(ROLES);
    for (const role of ['group-of-sites-viewer', 'crew-manager', 'site-engineer', 'safety-demo'] as const) {
      expect(managedRoles(role)).toEqual([]);
    }
    expect(canAssignRole('group-of-sites-admin', 'group-of-sites-admin')).toBe(true);
  });

  it('offers a site admin nothing on a client-admin, and the rest on the users below', () => {
    expect(userActions(siteAdmin, target('active', true, 'client-admin'))).toEqual([]);
    expect(userActionRefusal(siteAdmin, 'deactivate', target('active', true, 'client-admin'))).toBe('role');
    expect(userActions(clientAdmin, target('active', true, 'client-admin'))).toEqual([
      'edit',
      'deactivate',
      'setPassword',
    ]);
  });
});

describe('actions by status (spec §4: activated, deactivated, re-invited)', () => {
  it.each([
    ['active', true, ['edit', 'deactivate', 'setPassword']],
    ['inactive', true, ['edit', 'activate', 'setPassword']],
    ['inactive', false, ['edit', 'reinvite', 'setPassword']],
    ['invited', false, ['edit', 'deactivate', 'reinvite', 'setPassword']],
    ['invited', true, ['edit', 'activate', 'deactivate', 'setPassword']],
  ] as const)('%s (registered: %s) offers %j', (status, registered, actions) => {
    expect(userActions(siteAdmin, target(status, registered))).toEqual(actions);
  });

  it('never offers an action the server refuses', () => {
    for (const status of ['active', 'inactive', 'invited'] as const) {
      for (const registered of [true, false]) {
        for (const action of userActions(clientAdmin, target(status, registered))) {
          expect(userActionRefusal(clientAdmin, action, target(status, registered))).toBeNull();
        }
      }
    }
    expect(userActionRefusal(siteAdmin, 'activate', target('invited', false))).toBe('notRegistered');
    expect(userActionRefusal(siteAdmin, 'reinvite', target('active', true))).toBe('alreadyRegistered');
  });

  it('lets no one deactivate itself, but edit itself and set its own password', () => {
    const self = { id: siteAdmin.id, user_role: siteAdmin.role, status: 'active' as const, registered: true };
    expect(userActions(siteAdmin, self)).toEqual(['edit', 'setPassword']);
    expect(userActionRefusal(siteAdmin, 'deactivate', self)).toBe('deactivateSelf');
  });
});

describe('role changes', () => {
  it('keeps its own role, and moves no one in or out of super-admin', () => {
    const me = { id: clientAdmin.id, user_role: clientAdmin.role };
    expect(roleChoices(clientAdmin, me)).toEqual(['client-admin']);
    expect(roleChangeRefusal(clientAdmin, me, 'crew-manager')).toBe('ownRole');
    expect(roleChangeRefusal(superAdmin, { id: 9, user_role: 'super-admin' }, 'client-admin')).toBe(
      'superAdminRole',
    );
    expect(roleChangeRefusal(siteAdmin, { id: 9, user_role: 'crew-manager' }, 'client-admin')).toBe(
      'notAssignable',
    );
    expect(roleChoices(siteAdmin, { id: 9, user_role: 'crew-manager' })).toEqual(
      managedRoles(siteAdmin.role),
    );
    expect(roleChoices(superAdmin, { id: 9, user_role: 'crew-manager' })).not.toContain('super-admin');
  });
});
