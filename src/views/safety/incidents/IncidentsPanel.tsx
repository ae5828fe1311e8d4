import { Button, Callout, HTMLTable, NonIdealState, Spinner, Tag } from '@blueprintjs/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ApiClient } from '../../../api/client';
import { queryKeys } from '../../../api/queryKeys';
import { escalateSafetyIncident, incidentsQuery } from '../../../api/safety/incidents';
import type { SafetyIncident } from '../../../domain/incidents';
import { formatCount } from '../../../domain/numberFormat';
import type { Site } from '../../../domain/user';
import { notify } from '../../notify';
import { currentWeek, formatDateTime } from '../safetyFormat';
import { EscalateAlert } from './EscalateAlert';
import { IncidentFilters, type IncidentFilterValues } from './IncidentFilters';
import { useIncidentFeed } from './useIncidentFeed';

interface IncidentsPanelProps {
  api: ApiClient;
  site: Site;
  canEscalate: boolean;
}

/** The site's incidents in a period, newest first, refreshed live; open ones can be escalated. */
export function IncidentsPanel({ api, site, canEscalate }: IncidentsPanelProps) {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const [filters, setFilters] = useState<IncidentFilterValues>(() => ({
    ...currentWeek(),
    status: null,
    type: null,
  }));
  const [toEscalate, setToEscalate] = useState<SafetyIncident | null>(null);
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

  const escalation = useMutation({
    mutationFn: (incident: SafetyIncident) => escalateSafetyIncident(api, incident.id),
    onSuccess: () => {
      setToEscalate(null);
      void notify({ message: t('safety.incidents.escalated'), intent: 'success' });
    },
    onError: (error) => {
      setToEscalate(null);
      void notify({ message: error.message, intent: 'danger' });
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.safety.allIncidents }),
  });

  const time = (iso: string | null) => formatDateTime(iso, site.timezone, i18n.language) ?? t('safety.na');

  return (
    <div className="sw-safety-incidents" data-testid="incidents-panel">
      <div className="sw-safety-toolbar">
        <IncidentFilters value={filters} onChange={setFilters} />
        <div className="sw-safety-toolbar-end">
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
              </tr>
            </thead>
            <tbody>
              {shown.map((incident) => (
                <tr key={incident.id} data-testid="incident-row" data-incident-id={incident.id}>
                  <td>{time(incident.ts)}</td>
                  <td>
                    <Tag intent={incident.type === 'restrictedZone' ? 'warning' : 'danger'} minimal>
                      {t(`safety.type.${incident.type}`)}
                    </Tag>
                  </td>
                  <td>{incident.workerName ?? t('safety.na')}</td>
                  <td dir="ltr">{incident.wntInventoryId}</td>
                  <td>{incident.floorName ?? t('safety.na')}</td>
                  <td>{incident.zoneName ?? t('safety.na')}</td>
                  <td data-testid="incident-status">
                    <Tag intent={incident.status === 'open' ? 'danger' : 'success'}>
                      {t(`safety.status.${incident.status}`)}
                    </Tag>
                  </td>
                  <td>
                    {incident.status === 'escalated' ? (
                      incident.escalatedBy || incident.escalatedAt ? (
                        <span data-testid="incident-escalated-by">
                          {t('safety.incidents.escalatedBy', {
                            name: incident.escalatedBy?.name ?? t('safety.na'),
                            time: time(incident.escalatedAt),
                          })}
                        </span>
                      ) : null
                    ) : canEscalate ? (
                      <Button
                        size="small"
                        intent="warning"
                        icon="circle-arrow-up"
                        text={t('safety.incidents.escalate')}
                        data-testid="escalate-incident"
                        onClick={() => setToEscalate(incident)}
                      />
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </HTMLTable>
        </>
      )}
      <EscalateAlert
        incident={toEscalate}
        timeZone={site.timezone}
        busy={escalation.isPending}
        onConfirm={() => toEscalate && escalation.mutate(toEscalate)}
        onCancel={() => setToEscalate(null)}
      />
    </div>
  );
}
