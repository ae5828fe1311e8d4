import './incidents.css';
import { Button, Callout, HTMLTable, NonIdealState, Spinner, Tag } from '@blueprintjs/core';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ApiClient } from '../../../api/client';
import { incidentsQuery } from '../../../api/safety/incidents';
import type { IncidentAction } from '../../../domain/escalation';
import type { SafetyIncident } from '../../../domain/incidents';
import { formatCount } from '../../../domain/numberFormat';
import type { Site } from '../../../domain/user';
import { currentWeek, formatDateTime } from '../safetyFormat';
import { SafetySettingsButton } from '../settings/SafetySettingsButton';
import { EscalateAlert } from './EscalateAlert';
import { IncidentFilters, type IncidentFilterValues } from './IncidentFilters';
import { IncidentRow } from './IncidentRow';
import { ResolveAlert } from './ResolveAlert';
import { useIncidentFeed } from './useIncidentFeed';
import { useIncidentSteps } from './useIncidentSteps';

interface IncidentsPanelProps {
  api: ApiClient;
  site: Site;
  canEscalate: boolean;
}

/**
 * The site's incidents in a period, newest first, refreshed live: each with its state, who took
 * each step and when, and the countdown to its next automatic escalation; writers escalate,
 * acknowledge and resolve (escalating and resolving are confirmed first).
 */
export function IncidentsPanel({ api, site, canEscalate }: IncidentsPanelProps) {
  const { t, i18n } = useTranslation();
  const [filters, setFilters] = useState<IncidentFilterValues>(() => ({
    ...currentWeek(),
    status: null,
    type: null,
  }));
  const [toConfirm, setToConfirm] = useState<{ incident: SafetyIncident; action: IncidentAction } | null>(
    null,
  );
  const validRange = filters.from <= filters.to;
  useIncidentFeed(site.id);

  const incidents = useQuery({
    ...incidentsQuery(api, { siteId: site.id, from: filters.from, to: filters.to, status: filters.status }),
    enabled: validRange,
  });
  const shown = useMemo(() => {
    const list = incidents.data ?? [];
    const ofType = filters.type ? list.filter((incident) => incident.type === filters.type) : list;
    return [...ofType].sort((a, b) => Date.parse(b.ts) - Date.parse(a.ts) || b.id - a.id);
  }, [incidents.data, filters.type]);

  const steps = useIncidentSteps(api, () => setToConfirm(null));
  const onAction = (incident: SafetyIncident, action: IncidentAction) =>
    action === 'acknowledge' ? steps.run(incident, action) : setToConfirm({ incident, action });
  const confirming = (action: IncidentAction) => (toConfirm?.action === action ? toConfirm.incident : null);

  const time = (iso: string | null) => formatDateTime(iso, site.timezone, i18n.language) ?? t('safety.na');
  const pendingFor = (incident: SafetyIncident) =>
    steps.pending?.incident.id === incident.id ? steps.pending.action : null;

  return (
    <div className="sw-safety-incidents" data-testid="incidents-panel">
      <div className="sw-safety-toolbar">
        <IncidentFilters value={filters} onChange={setFilters} />
        <div className="sw-safety-toolbar-end">
          <SafetySettingsButton api={api} site={site} />
          <Tag minimal icon="feed">
            {t('safety.incidents.live')}
          </Tag>
          {!canEscalate && (
            <Tag minimal icon="eye-open" data-testid="incidents-read-only">
              {t('safety.incidents.readOnly')}
            </Tag>
          )}
        </div>
      </div>
      {!validRange ? (
        <Callout intent="warning">{t('safety.incidents.badRange')}</Callout>
      ) : incidents.isPending ? (
        <Spinner aria-label={t('safety.incidents.loading')} />
      ) : incidents.isError ? (
        <Callout intent="danger" data-testid="incidents-error">
          {incidents.error.message}{' '}
          <Button variant="minimal" onClick={() => void incidents.refetch()} text={t('common.retry')} />
        </Callout>
      ) : shown.length === 0 ? (
        <div data-testid="incidents-empty">
          <NonIdealState
            icon="shield"
            title={t('safety.incidents.empty')}
            description={t('safety.incidents.emptyHint')}
          />
        </div>
      ) : (
        <>
          <p className="sw-safety-count" data-testid="incidents-count">
            {t('safety.incidents.count', { count: formatCount(shown.length) })}
          </p>
          <HTMLTable compact striped className="sw-safety-table" data-testid="incidents-table">
            <thead>
              <tr>
                <th>{t('safety.incidents.column.time')}</th>
                <th>{t('safety.incidents.column.type')}</th>
                <th>{t('safety.incidents.column.worker')}</th>
                <th>{t('safety.incidents.column.helmet')}</th>
                <th>{t('safety.incidents.column.floor')}</th>
                <th>{t('safety.incidents.column.zone')}</th>
                <th>{t('safety.incidents.column.status')}</th>
                <th>{t('safety.incidents.column.escalation')}</th>
                {canEscalate && <th>{t('safety.incidents.column.actions')}</th>}
              </tr>
            </thead>
            <tbody>
              {shown.map((incident) => (
                <IncidentRow
                  key={incident.id}
                  incident={incident}
                  time={time}
                  canAct={canEscalate}
                  pending={pendingFor(incident)}
                  onAction={onAction}
                />
              ))}
            </tbody>
          </HTMLTable>
        </>
      )}
      <EscalateAlert
        incident={confirming('escalate')}
        timeZone={site.timezone}
        busy={steps.busy}
        onConfirm={() => toConfirm && steps.run(toConfirm.incident, 'escalate')}
        onCancel={() => setToConfirm(null)}
      />
      <ResolveAlert
        incident={confirming('resolve')}
        timeZone={site.timezone}
        busy={steps.busy}
        onConfirm={() => toConfirm && steps.run(toConfirm.incident, 'resolve')}
        onCancel={() => setToConfirm(null)}
      />
    </div>
  );
}
