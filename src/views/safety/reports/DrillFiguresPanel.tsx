import { Callout, Card, H5, Spinner } from '@blueprintjs/core';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { ApiClient } from '../../../api/client';
import { drillComparisonQuery } from '../../../api/safety/evacuations';
import type { DrillComparisonEntry, DrillFigures } from '../../../domain/drillFigures';
import type { EvacuationReport } from '../../../domain/evacuationReport';
import { formatCount } from '../../../domain/numberFormat';
import { sitePlaceName } from '../../../domain/placeNames';
import { formatDuration } from '../safetyFormat';
import { type ComparisonSeries, DrillComparisonChart } from './DrillComparisonChart';

const SERIES_COLOURS = { median: '#2d72d2', p90: '#c87619', all: '#238551' } as const;

/** One figure on a card: a label, the value, and a line under it when it needs one. */
function Figure({
  label,
  value,
  note,
  testId,
}: {
  label: string;
  value: string;
  note?: string;
  testId: string;
}) {
  return (
    <Card compact className="sw-safety-figure sw-drill-figure" data-testid={testId}>
      <span>{label}</span>
      <strong>{value}</strong>
      {note && <small>{note}</small>}
    </Card>
  );
}

/** The drill's figures: time to muster, shares of the roll accounted for, floors, alarms, marks. */
export function DrillFiguresPanel({ report }: { report: EvacuationReport }) {
  const { t } = useTranslation();
  const f = report.figures;
  const time = (seconds: number | null, never: string) => formatDuration(seconds, t) ?? never;
  const nobody = t('safety.report.figures.nobodyMustered');
  const notReached = t('safety.report.figures.notReached');

  return (
    <section className="sw-drill-figures" data-testid="drill-figures">
      <H5>{t('safety.report.figures.title')}</H5>
      <div className="sw-safety-summary">
        <Figure
          testId="figure-median"
          label={t('safety.report.figures.median')}
          value={time(f.medianSecondsToMuster, nobody)}
          note={t('safety.report.figures.mustered', {
            mustered: formatCount(f.mustered),
            roll: formatCount(f.rollSize),
          })}
        />
        <Figure
          testId="figure-p90"
          label={t('safety.report.figures.p90')}
          value={time(f.p90SecondsToMuster, nobody)}
        />
        <Figure
          testId="figure-max"
          label={t('safety.report.figures.max')}
          value={time(f.maxSecondsToMuster, nobody)}
        />
        <Figure
          testId="figure-50"
          label={t('safety.report.figures.share50')}
          value={time(f.secondsTo50Percent, notReached)}
        />
        <Figure
          testId="figure-90"
          label={t('safety.report.figures.share90')}
          value={time(f.secondsTo90Percent, notReached)}
        />
        <Figure
          testId="figure-100"
          label={t('safety.report.figures.share100')}
          value={time(f.secondsTo100Percent, notReached)}
        />
        <Figure
          testId="figure-alarms"
          label={t('safety.report.figures.alarmsUndelivered')}
          value={formatCount(f.alarmsUndelivered)}
          note={t('safety.report.figures.alarmsSent', { sent: formatCount(f.alarmsSent) })}
        />
        <Figure
          testId="figure-marks"
          label={t('safety.report.figures.marks')}
          value={formatCount(f.marksMade)}
          note={t('safety.report.figures.marksUndone', { undone: formatCount(f.marksUndone) })}
        />
        <Figure
          testId="figure-reentries"
          label={t('safety.report.figures.reEntries')}
          value={formatCount(f.reEntries)}
        />
      </div>
      <H5>{t('safety.report.figures.floorsTitle')}</H5>
      {report.floorsCleared.length === 0 ? (
        <p>{t('safety.report.places.none')}</p>
      ) : (
        <ol className="sw-drill-floors" data-testid="floors-cleared">
          {report.floorsCleared.map((floor) => (
            <li key={floor.floorId} data-testid="floor-cleared">
              <bdi>{(floor.place && sitePlaceName(floor.place)) || t('safety.na')}</bdi>
              {' · '}
              {floor.clearedAfterSeconds === null
                ? t('safety.report.figures.floorNotCleared', { remaining: formatCount(floor.remaining) })
                : t('safety.report.figures.floorCleared', {
                    time: formatDuration(floor.clearedAfterSeconds, t),
                  })}
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

/** A drill's label on the chart: its day and start time on the site's clock. */
function drillDay(timeZone: string, language: string): Intl.DateTimeFormat {
  const options: Intl.DateTimeFormatOptions = {
    year: 'numeric',
    month: 'short',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  };
  // Latin digits in Arabic too, as the report's other times.
  const locale = language === 'ar' ? 'ar-u-nu-latn' : 'en-GB';
  try {
    return new Intl.DateTimeFormat(locale, { ...options, timeZone });
  } catch {
    return new Intl.DateTimeFormat(locale, { ...options, timeZone: 'UTC' });
  }
}

const seriesOf = (entries: readonly DrillComparisonEntry[], pick: (f: DrillFigures) => number | null) =>
  entries.map((entry) => pick(entry.figures));

/** "Compared with past drills": the site's drills' median, p90 and time to everyone, this one ringed. */
export function DrillComparison({
  api,
  report,
  timeZone,
}: {
  api: ApiClient;
  report: EvacuationReport;
  timeZone: string;
}) {
  const { t, i18n } = useTranslation();
  const comparison = useQuery(drillComparisonQuery(api, report.siteId));
  const entries = comparison.data;
  const labels = useMemo(() => {
    const day = drillDay(timeZone, i18n.language);
    return (entries ?? []).map((entry) => day.format(new Date(entry.startedAt)));
  }, [entries, timeZone, i18n.language]);
  const series = useMemo((): ComparisonSeries[] => {
    const list = entries ?? [];
    return [
      {
        label: t('safety.report.comparison.median'),
        colour: SERIES_COLOURS.median,
        values: seriesOf(list, (f) => f.medianSecondsToMuster),
      },
      {
        label: t('safety.report.comparison.p90'),
        colour: SERIES_COLOURS.p90,
        values: seriesOf(list, (f) => f.p90SecondsToMuster),
      },
      {
        label: t('safety.report.comparison.all'),
        colour: SERIES_COLOURS.all,
        values: seriesOf(list, (f) => f.secondsTo100Percent),
      },
    ];
  }, [entries, t]);
  const currentIndex = (entries ?? []).findIndex((e) => e.evacuationSessionId === report.evacuationSessionId);
  const format = (seconds: number) => formatDuration(seconds, t) ?? '';
  const summary = (entries ?? [])
    .map((_entry, index) => {
      const values = series.map(
        (s) => `${s.label} ${s.values[index] === null ? '—' : format(s.values[index] as number)}`,
      );
      const mark = index === currentIndex ? ` (${t('safety.report.comparison.thisDrill')})` : '';
      return `${labels[index]}${mark}: ${values.join(', ')}`;
    })
    .join('; ');

  return (
    <section className="sw-drill-comparison" data-testid="drill-comparison">
      <H5>{t('safety.report.comparison.title')}</H5>
      {comparison.isPending ? (
        <Spinner size={20} aria-label={t('safety.report.loading')} />
      ) : comparison.isError ? (
        <Callout intent="danger">{comparison.error.message}</Callout>
      ) : (entries?.length ?? 0) === 0 ? (
        <p>{t('safety.report.comparison.none')}</p>
      ) : (
        <>
          <p className="sw-drill-comparison-note">
            {currentIndex === -1
              ? t('safety.report.comparison.notListed')
              : t('safety.report.comparison.highlighted', { drills: formatCount(entries?.length ?? 0) })}
          </p>
          <DrillComparisonChart
            labels={labels}
            series={series}
            currentIndex={currentIndex}
            format={format}
            rtl={i18n.dir() === 'rtl'}
            summary={summary}
          />
        </>
      )}
    </section>
  );
}
