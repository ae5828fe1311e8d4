import './users.css';
import { NonIdealState, Spinner } from '@blueprintjs/core';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { queryKeys } from '../../api/queryKeys';
import { ScreenTitle } from '../screens/ScreenTitle';
import { useSelection } from '../shell/selection';
import { UsersSection } from './UsersSection';

/**
 * User management (/users): the selected client's users. The section's state (search, sort,
 * page, the open dialog or drawer) lives in UsersSection, keyed by the client and by Clear, so
 * changing client or pressing Clear starts it afresh, and leaving the screen drops it together
 * with its cached lists (spec §4 "a user-management reset clears that section").
 */
export function UsersScreen() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const { client, loading } = useSelection();
  const [resets, setResets] = useState(0);

  useEffect(() => () => queryClient.removeQueries({ queryKey: queryKeys.users.all }), [queryClient]);

  return (
    <section className="sw-users" data-testid="users-screen">
      <ScreenTitle>{t('screen.users')}</ScreenTitle>
      {client ? (
        <UsersSection
          key={`${client.id}:${resets}`}
          client={client}
          onClear={() => setResets((n) => n + 1)}
        />
      ) : loading.clients ? (
        <Spinner aria-label={t('common.loading')} />
      ) : (
        <NonIdealState icon="people" description={t('users.noClient')} />
      )}
    </section>
  );
}
