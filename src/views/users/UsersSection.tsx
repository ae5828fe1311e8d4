import { Button, InputGroup, NonIdealState, Spinner, Tag } from '@blueprintjs/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { queryKeys } from '../../api/queryKeys';
import { changeUserStatus, type StatusAction, usersQuery } from '../../api/users';
import { formatCount } from '../../domain/numberFormat';
import { DEFAULT_USERS_PER_PAGE } from '../../domain/schemas/users';
import type { Client, ManagedUser } from '../../domain/user';
import { managedRoles, type UserManager } from '../../domain/userManagement';
import { notify } from '../notify';
import { useApi, useSession } from '../session/SessionProvider';
import { ConfirmAlert } from '../shared/ConfirmAlert';
import { Pager } from '../shared/Pager';
import { failureText, serverText } from '../shared/serverMessage';
import { PasswordDialog } from './PasswordDialog';
import { UserDetailsDrawer } from './UserDetailsDrawer';
import { UserDialog } from './UserDialog';
import { type RowAction, type UserSort, UsersTable } from './UsersTable';

type Open =
  | { kind: 'invite' }
  | { kind: 'edit' | 'password' | 'deactivate' | 'details'; user: ManagedUser }
  | null;

const SEARCH_PAUSE_MS = 300;

/** One client's users with their dialogs; its parent remounts it to reset it. */
export function UsersSection({ client, onClear }: { client: Client; onClear(): void }) {
  const { t } = useTranslation();
  const api = useApi();
  const queryClient = useQueryClient();
  const { user } = useSession();
  const caller: UserManager | null = user ? { id: user.id, role: user.user_role } : null;
  const [search, setSearch] = useState('');
  const [searched, setSearched] = useState('');
  const [sort, setSort] = useState<UserSort>({ field: 'name', direction: 'asc' });
  const [page, setPage] = useState(1);
  const [open, setOpen] = useState<Open>(null);

  useEffect(() => {
    const timer = setTimeout(() => {
      setSearched(search.trim());
      setPage(1);
    }, SEARCH_PAUSE_MS);
    return () => clearTimeout(timer);
  }, [search]);

  const list = useQuery(
    usersQuery(api, {
      client_id: client.id,
      page,
      perPage: DEFAULT_USERS_PER_PAGE,
      sort: `${sort.field},${sort.direction}`,
      ...(searched ? { search: searched } : {}),
    }),
  );
  const pages = Math.max(1, Math.ceil((list.data?.total ?? 0) / DEFAULT_USERS_PER_PAGE));

  const refresh = () => queryClient.invalidateQueries({ queryKey: queryKeys.users.all });
  const saved = (message: string) => {
    void notify({ message: serverText(message, t), intent: 'success' });
    void refresh();
  };

  const status = useMutation({
    mutationFn: ({ target, action }: { target: ManagedUser; action: StatusAction }) =>
      changeUserStatus(api, target.id, action),
    onSuccess: ({ message }) => {
      setOpen(null);
      saved(message);
    },
    onError: (error) => {
      setOpen(null);
      void notify({ message: failureText(error, t('common.somethingWentWrong'), t), intent: 'danger' });
    },
  });

  const act = (target: ManagedUser, action: RowAction) => {
    if (action === 'edit' || action === 'details') setOpen({ kind: action, user: target });
    else if (action === 'setPassword') setOpen({ kind: 'password', user: target });
    else if (action === 'deactivate') setOpen({ kind: 'deactivate', user: target });
    else status.mutate({ target, action });
  };

  const canInvite = caller !== null && managedRoles(caller.role).length > 0;
  const searching = searched !== '';

  return (
    <>
      <div className="sw-users-toolbar">
        <InputGroup
          type="search"
          leftIcon="search"
          placeholder={t('users.search')}
          aria-label={t('users.search')}
          value={search}
          onValueChange={setSearch}
          data-testid="users-search"
          className="sw-users-search"
        />
        {list.data && (
          <Tag minimal round data-testid="users-count">
            {t('users.count', { formatted: formatCount(list.data.total) })}
          </Tag>
        )}
        <Button
          variant="minimal"
          icon="eraser"
          text={t('users.clear')}
          title={t('users.clearHint')}
          data-testid="users-clear"
          onClick={onClear}
        />
        {canInvite && (
          <Button
            intent="primary"
            icon="new-person"
            text={t('users.invite')}
            data-testid="users-invite"
            className="sw-users-invite"
            onClick={() => setOpen({ kind: 'invite' })}
          />
        )}
      </div>
      {list.isPending ? (
        <Spinner aria-label={t('common.loading')} />
      ) : list.isError ? (
        <NonIdealState
          icon="error"
          description={failureText(list.error, t('common.somethingWentWrong'), t)}
          action={<Button text={t('common.retry')} onClick={() => void list.refetch()} />}
        />
      ) : list.data.users.length === 0 ? (
        <div data-testid="users-empty">
          <NonIdealState
            icon={searching ? 'search' : 'people'}
            title={searching ? t('users.noMatches') : t('users.empty')}
            description={searching ? t('users.noMatchesHint') : undefined}
          />
        </div>
      ) : (
        <>
          <UsersTable
            users={list.data.users}
            caller={caller}
            sort={sort}
            busyUserId={status.isPending ? status.variables.target.id : null}
            onSort={(next) => {
              setSort(next);
              setPage(1);
            }}
            onAction={act}
          />
          <Pager page={page} pages={pages} onPage={setPage} testId="users-pager" />
        </>
      )}
      {open?.kind === 'invite' && (
        <UserDialog
          client={client}
          user={null}
          onClose={() => setOpen(null)}
          onSaved={(message) => {
            setOpen(null);
            saved(message);
          }}
        />
      )}
      {open?.kind === 'edit' && (
        <UserDialog
          client={client}
          user={open.user}
          onClose={() => setOpen(null)}
          onSaved={(message) => {
            setOpen(null);
            saved(message);
          }}
        />
      )}
      {open?.kind === 'password' && (
        <PasswordDialog
          user={open.user}
          onClose={() => setOpen(null)}
          onSaved={(message) => {
            setOpen(null);
            saved(message);
          }}
        />
      )}
      <ConfirmAlert
        isOpen={open?.kind === 'deactivate'}
        intent="danger"
        icon="disable"
        confirmText={t('users.confirm.deactivateButton')}
        busy={status.isPending}
        escapeCancels
        className="sw-users-confirm-deactivate"
        onConfirm={() => {
          if (open?.kind === 'deactivate') status.mutate({ target: open.user, action: 'deactivate' });
        }}
        onCancel={() => setOpen(null)}
      >
        <p data-testid="users-confirm-deactivate">
          {open?.kind === 'deactivate' ? t('users.confirm.deactivate', { name: open.user.name }) : null}
        </p>
      </ConfirmAlert>
      <UserDetailsDrawer user={open?.kind === 'details' ? open.user : null} onClose={() => setOpen(null)} />
    </>
  );
}
