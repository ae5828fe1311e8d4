import './analytics.css';
import { Callout, FormGroup, HTMLSelect, NonIdealState, ProgressBar, Spinner } from '@blueprintjs/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type HeatmapParams, heatmapQueryOptions } from '../../api/analytics';
import { siteFloorsQuery } from '../../api/inventory';
import { type NameListKind, nameListQuery } from '../../api/workforce/nameLists';
import { ANALYTICS_MAX_WINDOW_DAYS } from '../../domain/analytics';
import { floorPlaceNames } from '../../domain/placeNames';
import type { Site } from '../../domain/user';
import { heatmapCells } from '../canvas/layers/heatmapCells';
import { ScreenTitle } from '../screens/ScreenTitle';
import { useApi } from '../session/SessionProvider';
import { useSelection } from '../shell/selection';
import { AnalyticsNav } from './AnalyticsNav';
import { formatWorkerSeconds } from './analyticsFormat';
import { currentWeekIn, type DayRange, rangeInstants } from './analyticsRange';
import { HeatmapCanvas } from './HeatmapCanvas';
import { HeatmapLegend } from './HeatmapLegend';
import { RangePicker } from './RangePicker';

/** /analytics/heatmap: where people spent their time on a floor, over a range of days. */
export function HeatmapScreen() {
  const { t } = useTranslation();
  const { site, loading } = useSelection();
  if (!site) {
    return (
      <section className="sw-analytics">
        <ScreenTitle>{t('screen.analyticsHeatmap')}</ScreenTitle>
        {loading.clients || loading.sites ? (
          <Spinner aria-label={t('common.loading')} />
        ) : (
          <NonIdealState icon="office" title={t('analytics.noSite')} />
        )}
      </section>
    );
  }
  return <SiteHeatmap key={site.id} site={site} />;
}

type FilterKey = 'crewId' | 'subcontractorId' | 'workerRoleId';
type Filters = Record<FilterKey, number | null>;

const FILTERS: readonly { key: FilterKey; list: NameListKind }[] = [
  { key: 'crewId', list: 'crews' },
  { key: 'subcontractorId', list: 'subcontractors' },
  { key: 'workerRoleId', list: 'worker-roles' },
];

const NO_FILTERS: Filters = { crewId: null, subcontractorId: null, workerRoleId: null };

function SiteHeatmap({ site }: { site: Site }) {
  const { t } = useTranslation();
  const api = useApi();
  const { buildings } = useSelection();
  const floors = useQuery(siteFloorsQuery(api, site.id));
  const [pickedFloorId, setPickedFloorId] = useState<number | null>(null);
  const [range, setRange] = useState<DayRange>(() => currentWeekIn(site.timezone));
  const [filters, setFilters] = useState<Filters>(NO_FILTERS);
  const lists = {
    crewId: useQuery(nameListQuery(api, site.id, 'crews')),
    subcontractorId: useQuery(nameListQuery(api, site.id, 'subcontractors')),
    workerRoleId: useQuery(nameListQuery(api, site.id, 'worker-roles')),
  };

  const allFloors = floors.data ?? [];
  const floor = allFloors.find((f) => f.id === pickedFloorId) ?? allFloors[0] ?? null;
  // The site's floors of every building: each named with its building ("Level 2 · North Block").
  const floorPlace = floorPlaceNames(allFloors, buildings);
  const { fromMs, toMs } = rangeInstants(range, site.timezone);
  const params: HeatmapParams = {
    from: new Date(fromMs).toISOString(),
    to: new Date(toMs).toISOString(),
    ...filters,
  };
  // The previous heatmap stays on the canvas while the next floor's, range's or filter's loads.
  const heatmap = useQuery({
    ...heatmapQueryOptions(api, floor?.id ?? 0, params),
    enabled: floor !== null,
    placeholderData: keepPreviousData,
  });
  const data = heatmap.data;
  const cells = useMemo(() => {
    // Another floor's heatmap would lie on this floor's blueprint: the floor shows alone until its own arrives.
    if (!data || !floor || data.floorId !== floor.id) return null;
    try {
      return heatmapCells(data, floor.coordinates);
    } catch {
      return null;
    }
  }, [data, floor]);
  const updating = heatmap.isFetching;

  return (
    <section className="sw-analytics sw-heatmap" data-testid="analytics-heatmap">
      <ScreenTitle>{t('screen.analyticsHeatmap')}</ScreenTitle>
      <AnalyticsNav />
      <div className="sw-analytics-toolbar">
        <FormGroup label={t('analytics.heatmap.floor')} labelFor="heatmap-floor" inline>
          <HTMLSelect
            id="heatmap-floor"
            data-testid="heatmap-floor-picker"
            value={floor?.id ?? ''}
            disabled={allFloors.length === 0}
            onChange={(e) => setPickedFloorId(Number(e.currentTarget.value))}
            options={allFloors.map((f) => ({ value: f.id, label: floorPlace(f.id) ?? f.name }))}
          />
        </FormGroup>
        <RangePicker
          idPrefix="heatmap"
          value={range}
          onChange={setRange}
          maxDays={ANALYTICS_MAX_WINDOW_DAYS}
          tooLongMessage={t('server.analytics.windowTooLong')}
        />
        {FILTERS.map(({ key, list }) => (
          <HTMLSelect
            key={key}
            data-testid={`heatmap-filter-${list}`}
            aria-label={t(`analytics.heatmap.filters.${list}`)}
            value={filters[key] ?? ''}
            onChange={(e) => {
              const id = e.currentTarget.value;
              setFilters((current) => ({ ...current, [key]: id ? Number(id) : null }));
            }}
            options={[
              { value: '', label: t(`analytics.heatmap.filters.${list}`) },
              ...(lists[key].data ?? []).map((item) => ({ value: item.id, label: item.name })),
            ]}
          />
        ))}
      </div>
      {floors.isPending ? (
        <ProgressBar intent="primary" aria-label={t('common.loading')} />
      ) : floors.isError ? (
        <Callout intent="danger" icon="error">
          {t('analytics.panelError')}
        </Callout>
      ) : !floor ? (
        <NonIdealState icon="layers" title={t('analytics.heatmap.noFloors')} />
      ) : (
        <div className="sw-heatmap-body">
          <HeatmapCanvas floor={floor} cells={cells} />
          <aside className="sw-heatmap-side" data-testid="heatmap-side">
            <div
              className="sw-heatmap-status"
              data-testid="heatmap-status"
              data-state={updating ? 'loading' : heatmap.isError ? 'error' : cells ? 'ready' : 'empty'}
              aria-live="polite"
            >
              {updating && (
                <>
                  <span>{t('analytics.heatmap.loading')}</span>
                  <ProgressBar intent="primary" />
                </>
              )}
              {!updating && heatmap.isError && (
                <Callout intent="danger" compact icon="error">
                  {t('analytics.panelError')}
                </Callout>
              )}
              {!updating && !heatmap.isError && cells && cells.maxSeconds === 0 && (
                <p data-testid="heatmap-empty">{t('analytics.heatmap.empty')}</p>
              )}
            </div>
            {cells && cells.maxSeconds > 0 && (
              <>
                <HeatmapLegend maxSeconds={cells.maxSeconds} />
                <p className="sw-heatmap-total" data-testid="heatmap-total">
                  {t('analytics.heatmap.total', {
                    hours: formatWorkerSeconds(cells.seconds.reduce((sum, s) => sum + s, 0)),
                  })}
                </p>
              </>
            )}
          </aside>
        </div>
      )}
    </section>
  );
}
