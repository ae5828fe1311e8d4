import './reports.css';
import { Button, Callout, Card, H4, H5, HTMLTable, Spinner } from '@blueprintjs/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { ApiClient } from '../../../api/client';
import { evacuationReportQuery } from '../../../api/safety/evacuations';
import { EVACUATION_COLOURS, type EvacuationStatus } from '../../../domain/evacuation';
import type { EvacuationReport, EvacuationReportWorker } from '../../../domain/evacuationReport';
import { formatCount } from '../../../domain/numberFormat';
import { type SitePlace, sitePlaceName } from '../../../domain/placeNames';
import type { Site } from '../../../domain/user';
import { formatDateTime, formatDuration } from '../safetyFormat';
import { DrillComparison, DrillFiguresPanel } from './DrillFiguresPanel';
import { useReportDownload } from './useReportDownload';

interface EvacuationReportViewProps {
  api: ApiClient;
  baseUrl: string;
  site: Site;
  sessionId: string;
  onBack(): void;
}

const colourOf = (status: EvacuationStatus) => `#${EVACUATION_COLOURS[status].toString(16).padStart(6, '0')}`;

/**
 * One evacuation's report: time to safety per worker, time until all were accounted for, who never
 * was, the drill's figures and how they compare with the site's past drills; .xlsx and PDF.
 */
export function EvacuationReportView({ api, baseUrl, site, sessionId, onBack }: EvacuationReportViewProps) {
  const { t } = useTranslation();
  const report = useQuery(evacuationReportQuery(api, sessionId));
  const download = useReportDownload(baseUrl, sessionId, 'xlsx');
  const downloadPdf = useReportDownload(baseUrl, sessionId, 'pdf');

  return (
    <section className="sw-safety-report" data-testid="evacuation-report">
      <div className="sw-safety-toolbar">
        <Button variant="minimal" icon="arrow-left" text={t('safety.report.back')} onClick={onBack} />
        <H4 className="sw-safety-report-title">{t('safety.report.title')}</H4>
        <Button
          intent="primary"
          icon="download"
          text={t('safety.report.export')}
          loading={download.isPending}
          disabled={!report.isSuccess}
          data-testid="export-report"
          onClick={() => download.mutate()}
        />
        <Button
          icon="document"
          text={t('safety.report.exportPdf')}
          loading={downloadPdf.isPending}
          disabled={!report.isSuccess}
          data-testid="export-report-pdf"
          onClick={() => downloadPdf.mutate()}
        />
      </div>
      {report.isPending ? (
        <Spinner aria-label={t('safety.report.loading')} />
      ) : report.isError ? (
        <Callout intent="danger" data-testid="report-error">
          {report.error.message}{' '}
          <Button variant="minimal" onClick={() => void report.refetch()} text={t('common.retry')} />
        </Callout>
      ) : (
        <ReportBody api={api} report={report.data} timeZone={site.timezone} />
      )}
    </section>
  );
}

function ReportBody({
  api,
  report,
  timeZone,
}: {
  api: ApiClient;
  report: EvacuationReport;
  timeZone: string;
}) {
  const { t, i18n } = useTranslation();
  const time = (iso: string | null) => formatDateTime(iso, timeZone, i18n.language) ?? t('safety.na');
  const duration = (seconds: number | null) => formatDuration(seconds, t);
  const everyone = report.timeUntilAllAccountedSeconds;

  return (
    <>
      {report.endedAt === null && <Callout intent="warning">{t('safety.report.stillRunning')}</Callout>}
      <div className="sw-safety-summary" data-testid="report-summary">
        <Card compact>
          <dl>
            <dt>{t('safety.report.started')}</dt>
            <dd>{time(report.startedAt)}</dd>
            <dt>{t('safety.report.ended')}</dt>
            <dd>{time(report.endedAt)}</dd>
            <dt>{t('safety.report.duration')}</dt>
            <dd>{duration(report.durationSeconds) ?? t('safety.na')}</dd>
            <dt>{t('safety.report.startedBy')}</dt>
            <dd>{report.startedBy ?? t('safety.na')}</dd>
            <dt>{t('safety.report.endedBy')}</dt>
            <dd>{report.endedBy ?? t('safety.na')}</dd>
          </dl>
        </Card>
        <ScopePlaces report={report} />
        <Card compact className="sw-safety-figure">
          <span>{t('safety.report.included')}</span>
          <strong data-testid="report-included">{formatCount(report.countsAtEnd.included)}</strong>
        </Card>
        <Card compact className="sw-safety-figure" data-testid="report-all-accounted">
          {everyone === null ? (
            <strong className="sw-safety-alarm">{t('safety.report.notAllAccounted')}</strong>
          ) : (
            <>
              <span>{t('safety.report.allAccounted')}</span>
              <strong>{duration(everyone)}</strong>
            </>
          )}
        </Card>
      </div>

      <DrillFiguresPanel report={report} />
      <DrillComparison api={api} report={report} timeZone={timeZone} />

      <H5 data-testid="never-accounted-title">
        {t('safety.report.neverAccountedTitle', { count: formatCount(report.neverAccounted.length) })}
      </H5>
      {report.neverAccounted.length === 0 ? (
        <p>
          {report.workers.length === 0 ? t('safety.report.noWorkers') : t('safety.report.everyoneAccounted')}
        </p>
      ) : (
        <ul className="sw-safety-never" data-testid="never-accounted">
          {report.neverAccounted.map((worker) => (
            <li key={worker.workerId}>
              <StatusDot status={worker.finalStatus} />
              {worker.name ?? t('safety.na')}{' '}
              <span dir="ltr">({worker.wntInventoryId ?? t('safety.na')})</span>
              {' · '}
              {t(`safety.evacuationStatus.${worker.finalStatus}`)}
              {worker.placeWhenIncluded && (
                <>
                  {' · '}
                  <bdi data-testid="never-accounted-place">{sitePlaceName(worker.placeWhenIncluded)}</bdi>
                </>
              )}
            </li>
          ))}
        </ul>
      )}

      {report.workers.length > 0 && (
        <HTMLTable compact striped className="sw-safety-table" data-testid="report-workers">
          <thead>
            <tr>
              <th>{t('safety.report.column.worker')}</th>
              <th>{t('safety.report.column.helmet')}</th>
              <th>{t('safety.report.column.placeWhenIncluded')}</th>
              <th>{t('safety.report.column.finalStatus')}</th>
              <th>{t('safety.report.column.timeToSafety')}</th>
              <th>{t('safety.report.column.timeToAccounted')}</th>
              <th>{t('safety.report.column.timeToMuster')}</th>
              <th className="sw-safety-number">{t('safety.report.column.statusChanges')}</th>
            </tr>
          </thead>
          <tbody>
            {report.workers.map((worker) => (
              <WorkerRow key={worker.workerId} worker={worker} />
            ))}
          </tbody>
        </HTMLTable>
      )}
    </>
  );
}

function WorkerRow({ worker }: { worker: EvacuationReportWorker }) {
  const { t } = useTranslation();
  const never = t('safety.report.never');
  return (
    <tr data-testid="report-worker-row">
      <td>{worker.name ?? t('safety.na')}</td>
      <td dir="ltr">{worker.wntInventoryId ?? t('safety.na')}</td>
      <td data-testid="report-worker-place">
        <bdi>{worker.placeWhenIncluded ? sitePlaceName(worker.placeWhenIncluded) : t('safety.na')}</bdi>
      </td>
      <td>
        <StatusDot status={worker.finalStatus} />
        {t(`safety.evacuationStatus.${worker.finalStatus}`)}
      </td>
      <td>{formatDuration(worker.timeToSafetySeconds, t) ?? never}</td>
      <td>{formatDuration(worker.timeToAccountedSeconds, t) ?? never}</td>
      <td data-testid="report-worker-muster">{formatDuration(worker.timeToMusterSeconds, t) ?? never}</td>
      <td className="sw-safety-number">{formatCount(worker.statusChanges)}</td>
    </tr>
  );
}

/** What the evacuation covered, each floor and zone named with its building. */
function ScopePlaces({ report }: { report: EvacuationReport }) {
  const { t } = useTranslation();
  const { floors, zones, assemblyZones, safeZone } = report.scopePlaces;
  const rows: [string, readonly SitePlace[], string][] = [
    [t('safety.report.places.floors'), floors, 'report-floors'],
    [t('safety.report.places.zones'), zones, 'report-zones'],
    [t('safety.report.places.assemblyZones'), assemblyZones, 'report-assembly-zones'],
    [t('safety.report.places.safeZone'), safeZone ? [safeZone] : [], 'report-safe-zone'],
  ];
  return (
    <Card compact className="sw-safety-places" data-testid="report-places">
      <dl>
        {rows.map(([label, places, testId]) => (
          <div key={testId}>
            <dt>{label}</dt>
            <dd data-testid={testId}>
              {places.length === 0 ? (
                t('safety.report.places.none')
              ) : (
                <ul>
                  {places.map((place) => {
                    const name = sitePlaceName(place);
                    return (
                      <li key={name}>
                        <bdi>{name}</bdi>
                      </li>
                    );
                  })}
                </ul>
              )}
            </dd>
          </div>
        ))}
      </dl>
    </Card>
  );
}

function StatusDot({ status }: { status: EvacuationStatus }) {
  return <span className="sw-safety-dot" style={{ backgroundColor: colourOf(status) }} aria-hidden="true" />;
}
