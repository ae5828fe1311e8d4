import './reports.css';
import { Button, Callout, HTMLTable, NonIdealState, Spinner, Tag } from '@blueprintjs/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { ApiClient } from '../../../api/client';
import { evacuationsQuery } from '../../../api/safety/evacuations';
import type { EvacuationSessionSummary } from '../../../domain/evacuationReport';
import { formatCount } from '../../../domain/numberFormat';
import { sitePlaceName } from '../../../domain/placeNames';
import type { Site } from '../../../domain/user';
import { formatDateTime, formatDuration } from '../safetyFormat';

interface EvacuationListProps {
  api: ApiClient;
  site: Site;
  onOpen(session: EvacuationSessionSummary): void;
}

function durationSeconds(session: EvacuationSessionSummary): number | null {
  if (!session.endedAt) return null;
  return (Date.parse(session.endedAt) - Date.parse(session.startedAt)) / 1000;
}

/** The site's evacuations, newest first, each opening its report. */
export function EvacuationList({ api, site, onOpen }: EvacuationListProps) {
  const { t, i18n } = useTranslation();
  const sessions = useQuery(evacuationsQuery(api, site.id));
  const time = (iso: string | null) => formatDateTime(iso, site.timezone, i18n.language) ?? t('safety.na');

  if (sessions.isPending) return <Spinner aria-label={t('safety.evacuations.loading')} />;
  if (sessions.isError)
    return (
      <Callout intent="danger" data-testid="evacuations-error">
        {sessions.error.message}{' '}
        <Button variant="minimal" onClick={() => void sessions.refetch()} text={t('common.retry')} />
      </Callout>
    );
  if (sessions.data.length === 0)
    return (
      <div data-testid="evacuations-empty">
        <NonIdealState icon="timeline-events" title={t('safety.evacuations.empty')} />
      </div>
    );

  return (
    <HTMLTable compact striped interactive className="sw-safety-table" data-testid="evacuations-table">
      <thead>
        <tr>
          <th>{t('safety.evacuations.column.started')}</th>
          <th>{t('safety.evacuations.column.ended')}</th>
          <th>{t('safety.evacuations.column.duration')}</th>
          <th>{t('safety.evacuations.column.startedBy')}</th>
          <th>{t('safety.evacuations.column.floors')}</th>
          <th className="sw-safety-number">{t('safety.evacuations.column.included')}</th>
          <th className="sw-safety-number">{t('safety.evacuations.column.safe')}</th>
          <th className="sw-safety-number">{t('safety.evacuations.column.stillInside')}</th>
          <th />
        </tr>
      </thead>
      <tbody>
        {sessions.data.map((session) => (
          <tr key={session.evacuationSessionId} data-testid="evacuation-row">
            <td>{time(session.startedAt)}</td>
            <td>
              {session.started ? (
                <Tag intent="danger">{t('safety.evacuations.running')}</Tag>
              ) : (
                time(session.endedAt)
              )}
            </td>
            <td>{formatDuration(durationSeconds(session), t) ?? t('safety.na')}</td>
            <td>{session.startedBy ?? t('safety.na')}</td>
            <td data-testid="evacuation-floors">
              {session.evacuatedFloors.length === 0 ? (
                t('safety.na')
              ) : (
                <ul className="sw-safety-places-list">
                  {session.evacuatedFloors.map((place) => {
                    const name = sitePlaceName(place);
                    return (
                      <li key={name}>
                        <bdi>{name}</bdi>
                      </li>
                    );
                  })}
                </ul>
              )}
            </td>
            <td className="sw-safety-number">{formatCount(session.counts.included)}</td>
            <td className="sw-safety-number">{formatCount(session.counts.safe)}</td>
            <td className="sw-safety-number">{formatCount(session.counts.stillInside)}</td>
            <td>
              <Button
                size="small"
                icon="th-list"
                text={t('safety.evacuations.viewReport')}
                data-testid="open-report"
                onClick={() => onOpen(session)}
              />
            </td>
          </tr>
        ))}
      </tbody>
    </HTMLTable>
  );
}
