import './safety.css';
import { Callout, NonIdealState, Spinner, Tab, Tabs } from '@blueprintjs/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { can } from '../../domain/access';
import type { Site } from '../../domain/user';
import { ScreenTitle } from '../screens/ScreenTitle';
import { type SafetyApi, useSafetyApi } from '../session/LiveProvider';
import { useSession } from '../session/SessionProvider';
import { useSelection } from '../shell/selection';
import { IncidentsPanel } from './incidents/IncidentsPanel';
import { EvacuationList } from './reports/EvacuationList';
import { EvacuationReportView } from './reports/EvacuationReportView';

type SafetyTab = 'incidents' | 'evacuations';

/** Safety (/safety): the site's incidents, and its past evacuations with a report each. */
export function SafetyScreen() {
  const { t } = useTranslation();
  const { site, loading } = useSelection();
  const safety = useSafetyApi();

  return (
    <section className="sw-safety" data-testid="safety-screen">
      <ScreenTitle>{t('screen.safety')}</ScreenTitle>
      {!site ? (
        loading.clients || loading.sites ? (
          <Spinner aria-label={t('common.loading')} />
        ) : (
          <NonIdealState icon="office" description={t('safety.noSite')} />
        )
      ) : safety.error ? (
        <Callout intent="danger">{(safety.error as Error).message}</Callout>
      ) : !safety.api ? (
        <Spinner aria-label={t('common.loading')} />
      ) : (
        // Filters, the open report and the socket start afresh with each site.
        <SiteSafety key={site.id} site={site} safety={safety} />
      )}
    </section>
  );
}

function SiteSafety({ site, safety }: { site: Site; safety: SafetyApi }) {
  const { t } = useTranslation();
  const { user } = useSession();
  const [tab, setTab] = useState<SafetyTab>('incidents');
  const [openReport, setOpenReport] = useState<string | null>(null);
  const api = safety.api;
  if (!api || !safety.baseUrl) return null;
  const canEscalate = user ? can(user.user_role, 'write', 'safety') : false;

  return (
    <Tabs id="safety-tabs" selectedTabId={tab} onChange={(next) => setTab(next as SafetyTab)} large>
      <Tab
        id="incidents"
        title={t('safety.tabs.incidents')}
        panel={<IncidentsPanel api={api} site={site} canEscalate={canEscalate} />}
      />
      <Tab
        id="evacuations"
        title={t('safety.tabs.evacuations')}
        data-testid="evacuations-tab"
        panel={
          openReport ? (
            <EvacuationReportView
              api={api}
              baseUrl={safety.baseUrl}
              site={site}
              sessionId={openReport}
              onBack={() => setOpenReport(null)}
            />
          ) : (
            <EvacuationList
              api={api}
              site={site}
              onOpen={(session) => setOpenReport(session.evacuationSessionId)}
            />
          )
        }
      />
    </Tabs>
  );
}
