import { Callout, Drawer, DrawerSize, Spinner } from '@blueprintjs/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { clientsQuery } from '../../api/sites';
import { userSitesQuery } from '../../api/users';
import { ROLE_LABELS } from '../../domain/roles';
import type { ManagedUser } from '../../domain/user';
import { currentLocale } from '../../i18n';
import { useApi } from '../session/SessionProvider';
import { StatusTag } from './StatusTag';

/** A user's clients and sites (GET /users/{id}/clients and /sites) in a side drawer. */
export function UserDetailsDrawer({ user, onClose }: { user: ManagedUser | null; onClose(): void }) {
  const { t } = useTranslation();
  return (
    <Drawer
      isOpen={user !== null}
      onClose={onClose}
      title={user ? t('users.details.title', { name: user.name }) : undefined}
      size={DrawerSize.SMALL}
      position={currentLocale() === 'ar' ? 'left' : 'right'}
    >
      {user && (
        <div className="sw-users-drawer" data-testid="users-details">
          <dl>
            <dt>{t('users.details.email')}</dt>
            <dd dir="ltr" className="sw-users-email">
              {user.email}
            </dd>
            <dt>{t('users.details.role')}</dt>
            <dd>{t(`shell.role.${user.user_role}`, { defaultValue: ROLE_LABELS[user.user_role] })}</dd>
            <dt>{t('users.details.status')}</dt>
            <dd>
              <StatusTag status={user.status} />
            </dd>
          </dl>
          <Reach userId={user.id} />
        </div>
      )}
    </Drawer>
  );
}

function Reach({ userId }: { userId: number }) {
  const { t } = useTranslation();
  const api = useApi();
  const clients = useQuery(clientsQuery(api, userId));
  const sites = useQuery(userSitesQuery(api, userId));
  if (clients.isPending || sites.isPending) return <Spinner size={24} aria-label={t('common.loading')} />;
  if (clients.isError || sites.isError) return <Callout intent="danger">{t('users.details.failed')}</Callout>;
  return (
    <>
      <h4 className="bp6-heading">{t('users.details.clients')}</h4>
      <NameList items={clients.data} empty={t('users.details.noClients')} testId="users-details-clients" />
      <h4 className="bp6-heading">{t('users.details.sites')}</h4>
      <NameList items={sites.data} empty={t('users.details.noSites')} testId="users-details-sites" />
    </>
  );
}

function NameList({
  items,
  empty,
  testId,
}: {
  items: readonly { id: number; name: string }[];
  empty: string;
  testId: string;
}) {
  if (items.length === 0) return <p data-testid={testId}>{empty}</p>;
  return (
    <ul className="bp6-list" data-testid={testId}>
      {items.map((item) => (
        <li key={item.id}>{item.name}</li>
      ))}
    </ul>
  );
}
