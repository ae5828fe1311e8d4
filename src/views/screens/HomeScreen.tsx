import { Card, NonIdealState, Spinner } from '@blueprintjs/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useSelection } from '../shell/selection';
import { ScreenTitle } from './ScreenTitle';

function Stat({ label, testId, children }: { label: string; testId: string; children: ReactNode }) {
  return (
    <Card>
      <div className="sw-stat-label">{label}</div>
      <div className="sw-stat-value" data-testid={testId}>
        {children}
      </div>
    </Card>
  );
}

/** The dashboard: an overview of the selected site. */
export function HomeScreen() {
  const { t } = useTranslation();
  const { client, site, buildings, loading } = useSelection();

  if (!site) {
    return (
      <section>
        <ScreenTitle>{t('screen.home')}</ScreenTitle>
        {loading.clients || loading.sites ? (
          <Spinner aria-label={t('common.loading')} />
        ) : (
          <NonIdealState
            icon="office"
            title={t('screen.dashboard.noSite')}
            description={t('screen.dashboard.noSiteDescription')}
          />
        )}
      </section>
    );
  }

  return (
    <section>
      <ScreenTitle>{t('screen.home')}</ScreenTitle>
      <div className="sw-dashboard-cards">
        <Stat label={t('screen.dashboard.site')} testId="dashboard-site">
          {site.name}
        </Stat>
        <Stat label={t('screen.dashboard.client')} testId="dashboard-client">
          {client?.name ?? '-NA-'}
        </Stat>
        <Stat label={t('screen.dashboard.buildings')} testId="dashboard-buildings">
          {loading.buildings ? <Spinner size={20} /> : buildings.length.toLocaleString('en-US')}
        </Stat>
        <Stat label={t('screen.dashboard.timezone')} testId="dashboard-timezone">
          <bdi>{site.timezone}</bdi>
        </Stat>
      </div>
    </section>
  );
}
