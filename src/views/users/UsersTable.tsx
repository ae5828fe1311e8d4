import { Button, HTMLTable, type IconName, Tag } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import { formatCount } from '../../domain/numberFormat';
import { ROLE_LABELS } from '../../domain/roles';
import type { USER_SORT_FIELDS } from '../../domain/schemas/users';
import type { ManagedUser } from '../../domain/user';
import { type UserAction, type UserManager, userActions } from '../../domain/userManagement';
import { SortHeaderButton } from '../shared/SortHeaderButton';
import { StatusTag } from './StatusTag';

export type UserSortField = (typeof USER_SORT_FIELDS)[number];
export interface UserSort {
  field: UserSortField;
  direction: 'asc' | 'desc';
}

/** What a row's buttons do: the user's actions, and opening its details. */
export type RowAction = UserAction | 'details';

const ACTION_ICONS: Record<RowAction, IconName> = {
  details: 'info-sign',
  edit: 'edit',
  activate: 'play',
  deactivate: 'disable',
  reinvite: 'envelope',
  setPassword: 'key',
};

const SITES_SHOWN = 3;

interface UsersTableProps {
  users: readonly ManagedUser[];
  caller: UserManager | null;
  sort: UserSort;
  /** The user whose status is changing: its buttons wait. */
  busyUserId: number | null;
  onSort(sort: UserSort): void;
  onAction(user: ManagedUser, action: RowAction): void;
}

/** A page of users; each row offers only what the server would accept from the caller. */
export function UsersTable({ users, caller, sort, busyUserId, onSort, onAction }: UsersTableProps) {
  const { t } = useTranslation();

  const header = (field: UserSortField, labelKey: string) => {
    const label = t(labelKey);
    const direction = sort.field === field ? sort.direction : null;
    return (
      <th aria-sort={direction === null ? 'none' : direction === 'asc' ? 'ascending' : 'descending'}>
        <SortHeaderButton
          label={label}
          direction={direction}
          testId={`users-sort-${field}`}
          ariaLabel={t(
            direction === 'asc'
              ? 'users.column.sortedAsc'
              : direction === 'desc'
                ? 'users.column.sortedDesc'
                : 'users.column.sortable',
            { label },
          )}
          onSort={() => onSort({ field, direction: direction === 'asc' ? 'desc' : 'asc' })}
        />
      </th>
    );
  };

  return (
    <HTMLTable striped className="sw-users-table" data-testid="users-table">
      <thead>
        <tr>
          {header('name', 'users.column.name')}
          {header('email', 'users.column.email')}
          {header('user_role', 'users.column.role')}
          {header('status', 'users.column.status')}
          <th>{t('users.column.sites')}</th>
          <th className="sw-users-actions">{t('users.column.actions')}</th>
        </tr>
      </thead>
      <tbody>
        {users.map((user) => {
          const actions: RowAction[] = ['details', ...(caller ? userActions(caller, user) : [])];
          const extra = user.sites.length - SITES_SHOWN;
          return (
            <tr key={user.id} data-testid="users-row" data-email={user.email}>
              <td>
                <span className="sw-users-name">{user.name}</span>
                {caller?.id === user.id && (
                  <Tag minimal className="sw-users-you">
                    {t('users.you')}
                  </Tag>
                )}
              </td>
              <td className="sw-users-email" dir="ltr">
                {user.email}
              </td>
              <td data-testid="users-role">
                {t(`shell.role.${user.user_role}`, { defaultValue: ROLE_LABELS[user.user_role] })}
              </td>
              <td>
                <StatusTag status={user.status} />
              </td>
              <td data-testid="users-sites">
                {user.sites.length === 0
                  ? t('users.noSites')
                  : user.sites
                      .slice(0, SITES_SHOWN)
                      .map((site) => site.name)
                      .join(t('users.separator'))}
                {extra > 0 && (
                  <span className="sw-users-more">
                    {' '}
                    {t('users.moreSites', { formatted: formatCount(extra) })}
                  </span>
                )}
              </td>
              <td className="sw-users-actions">
                {actions.map((action) => (
                  <Button
                    key={action}
                    variant="minimal"
                    size="small"
                    icon={ACTION_ICONS[action]}
                    intent={action === 'deactivate' ? 'danger' : 'none'}
                    aria-label={`${t(`users.action.${action}`)}: ${user.name}`}
                    title={t(`users.action.${action}`)}
                    disabled={busyUserId === user.id}
                    data-testid={`users-action-${action}`}
                    onClick={() => onAction(user, action)}
                  />
                ))}
              </td>
            </tr>
          );
        })}
      </tbody>
    </HTMLTable>
  );
}
