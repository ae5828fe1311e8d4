import './analytics.css';
import { HTMLTable, NonIdealState, ProgressBar, Spinner } from '@blueprintjs/core';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'wouter';
import type { Site } from '../../domain/user';
import { ScreenTitle } from '../screens/ScreenTitle';
import { useSelection } from '../shell/selection';
import { AnalyticsChart } from './AnalyticsChart';
import { AnalyticsNav } from './AnalyticsNav';
import { AnalyticsPanel, type PanelState } from './AnalyticsPanel';
import { formatCount, formatHourLabel, formatHours } from './analyticsFormat';
import {
  BREAKDOWN_DIMENSION,
  type BreakdownPanel,
  breakdownQuery,
  busiestZonesQuery,
  type CubeRow,
  headcountQuery,
  hourlySeries,
  MEMBERS,
  nameOf,
  numberOf,
  totalsQuery,
  type Window,
} from './analyticsQueries';
import { currentWeekIn, type DayRange, rangeInstants } from './analyticsRange';
import { PowerBiReports } from './PowerBiReports';
import { RangePicker } from './RangePicker';
import { reportAddressOf } from './reportAddress';
import { type PresenceResult, usePresence } from './usePresence';

/**
 * /analytics: the selected site at a glance over a range of days (this week by default), or with
 * `?view=reports` the site's Power BI reports.
 */
export function AnalyticsScreen() {
  const { t } = useTranslation();
  const { site, loading } = useSelection();
  const [params] = useSearchParams();
  if (!site) {
    return (
      <section className="sw-analytics">
        <ScreenTitle>{t('screen.analytics')}</ScreenTitle>
        {loading.clients || loading.sites ? (
          <Spinner aria-label={t('common.loading')} />
        ) : (
          <NonIdealState icon="office" title={t('analytics.noSite')} />
        )}
      </section>
    );
  }
  if (reportAddressOf(params).reports) return <PowerBiReports key={site.id} site={site} />;
  // Keyed by site: another site starts from its own week.
  return <Overview key={site.id} site={site} />;
}

const LIVE_REFRESH_MS = 60_000;

function Overview({ site }: { site: Site }) {
  const { t, i18n } = useTranslation();
  const rtl = i18n.dir() === 'rtl';
  const [range, setRange] = useState<DayRange>(() => currentWeekIn(site.timezone));
  const window = useMemo<Window>(
    () => ({ siteId: site.id, ...rangeInstants(range, site.timezone) }),
    [site.id, site.timezone, range],
  );
  // The live panel's hour, moved on every minute (the previous figures stay until the new ones arrive).
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), LIVE_REFRESH_MS);
    return () => clearInterval(timer);
  }, []);
  const liveWindow = useMemo<Window>(
    () => ({ siteId: site.id, fromMs: now - 3_600_000, toMs: now }),
    [site.id, now],
  );

  const headcount = usePresence(headcountQuery(window));
  const floors = usePresence(breakdownQuery(window, 'floors'));
  const zones = usePresence(breakdownQuery(window, 'zones'));
  const subcontractors = usePresence(breakdownQuery(window, 'subcontractors'));
  const roles = usePresence(breakdownQuery(window, 'roles'));
  const busiest = usePresence(busiestZonesQuery(window));
  const live = usePresence(totalsQuery(liveWindow));

  const panels = [headcount, floors, zones, subcontractors, roles, busiest, live];
  const done = panels.filter((p) => !p.loading).length;

  const hourly = useMemo(() => {
    const series = hourlySeries(headcount.rows, window);
    return {
      labels: series.hours.map((ms) => formatHourLabel(ms, site.timezone, i18n.language)),
      values: series.values,
    };
  }, [headcount.rows, window, site.timezone, i18n.language]);

  return (
    <section className="sw-analytics" data-testid="analytics-overview">
      <ScreenTitle>{t('screen.analytics')}</ScreenTitle>
      <AnalyticsNav />
      <div className="sw-analytics-toolbar">
        <RangePicker idPrefix="analytics" value={range} onChange={setRange} />
        {done < panels.length && (
          <div className="sw-analytics-progress" data-testid="analytics-progress">
            <span>
              {t('analytics.progress', { done: formatCount(done), total: formatCount(panels.length) })}
            </span>
            <ProgressBar intent="primary" value={done / panels.length} />
          </div>
        )}
      </div>
      <div className="sw-analytics-grid">
        <AnalyticsPanel
          title={t('analytics.live.title')}
          info={t('analytics.live.info')}
          testId="analytics-live"
          state={stateOf(live, () => true)}
        >
          <div className="sw-analytics-figures">
            <Figure
              label={t('analytics.live.workers')}
              value={formatCount(numberOf(live.rows[0], MEMBERS.distinctWorkers))}
              testId="analytics-live-workers"
            />
            <Figure
              label={t('analytics.live.hours')}
              value={formatHours(numberOf(live.rows[0], MEMBERS.workerHours))}
              testId="analytics-live-hours"
            />
          </div>
        </AnalyticsPanel>
        <AnalyticsPanel
          wide
          title={t('analytics.headcount.title')}
          testId="analytics-headcount"
          state={stateOf(headcount, () => hourly.values.some((v) => v > 0))}
        >
          <AnalyticsChart
            kind="line"
            testId="analytics-headcount-chart"
            labels={hourly.labels}
            values={hourly.values}
            series={t('analytics.headcount.series')}
            format={formatCount}
            rtl={rtl}
            summary={summary(
              hourly.labels.filter((_, i) => hourly.values[i] > 0),
              hourly.values.filter((v) => v > 0),
              formatCount,
            )}
          />
        </AnalyticsPanel>
        {(['floors', 'zones', 'subcontractors', 'roles'] as const).map((panel) => (
          <Breakdown
            key={panel}
            panel={panel}
            result={{ floors, zones, subcontractors, roles }[panel]}
            rtl={rtl}
          />
        ))}
        <AnalyticsPanel
          title={t('analytics.busiest.title')}
          testId="analytics-busiest"
          state={stateOf(busiest, (rows) => rows.length > 0)}
        >
          <HTMLTable compact striped className="sw-analytics-table" data-testid="analytics-busiest-table">
            <thead>
              <tr>
                <th>{t('analytics.busiest.rank')}</th>
                <th>{t('analytics.busiest.zone')}</th>
                <th>{t('analytics.busiest.hours')}</th>
                <th>{t('analytics.busiest.workers')}</th>
              </tr>
            </thead>
            <tbody>
              {busiest.rows.map((row, i) => (
                <tr key={nameOf(row, MEMBERS.zone, String(i))} data-testid="analytics-busiest-row">
                  <td>{formatCount(i + 1)}</td>
                  <td>
                    <bdi>{nameOf(row, MEMBERS.zone, t('analytics.none'))}</bdi>
                  </td>
                  <td className="sw-analytics-number">{formatHours(numberOf(row, MEMBERS.workerHours))}</td>
                  <td className="sw-analytics-number">
                    {formatCount(numberOf(row, MEMBERS.distinctWorkers))}
                  </td>
                </tr>
              ))}
            </tbody>
          </HTMLTable>
        </AnalyticsPanel>
      </div>
    </section>
  );
}

function Breakdown({ panel, result, rtl }: { panel: BreakdownPanel; result: PresenceResult; rtl: boolean }) {
  const { t } = useTranslation();
  const none = t(`analytics.${panel}.none`);
  const labels = useMemo(
    () => result.rows.map((row) => nameOf(row, BREAKDOWN_DIMENSION[panel], none)),
    [result.rows, panel, none],
  );
  const values = useMemo(() => result.rows.map((row) => numberOf(row, MEMBERS.workerHours)), [result.rows]);
  return (
    <AnalyticsPanel
      title={t(`analytics.${panel}.title`)}
      testId={`analytics-${panel}`}
      state={stateOf(result, (rows) => rows.length > 0)}
    >
      <AnalyticsChart
        kind="bar"
        testId={`analytics-${panel}-chart`}
        labels={labels}
        values={values}
        series={t('analytics.workerHours')}
        format={formatHours}
        rtl={rtl}
        summary={summary(labels, values, formatHours)}
      />
    </AnalyticsPanel>
  );
}

function Figure({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <div className="sw-analytics-figure">
      <div className="sw-analytics-figure-label">{label}</div>
      <div className="sw-analytics-figure-value" data-testid={testId}>
        {value}
      </div>
    </div>
  );
}

function stateOf(result: PresenceResult, hasData: (rows: readonly CubeRow[]) => boolean): PanelState {
  if (result.loading) return 'loading';
  if (result.error) return 'error';
  return hasData(result.rows) ? 'ready' : 'empty';
}

/** "Floor 1: 1.50; Floor 2: 0.25": what a chart shows, as text for screen readers. */
function summary(
  labels: readonly string[],
  values: readonly number[],
  format: (v: number) => string,
): string {
  return labels.map((label, i) => `${label}: ${format(values[i])}`).join('; ');
}
