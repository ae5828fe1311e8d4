import { Callout, HTMLSelect, NonIdealState, SegmentedControl } from '@blueprintjs/core';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { BehaviorSubject } from 'rxjs';
import { queryKeys } from '../../api/queryKeys';
import { fetchAllWorkers } from '../../api/workers/workerList';
import type { WorkerOption } from '../../api/workforce/assignments';
import { nameListQuery } from '../../api/workforce/nameLists';
import { pathLengthMetres, trackKey, trackSegments, zoneSeconds } from '../../domain/pathLength';
import { siteDayValue, siteInputInstant, siteInputValue, siteInstant } from '../../domain/siteClock';
import { layerDataSource } from '../canvas/layers/layerInputs';
import { cssColour, TRAILS, type Trail, type TrailsData, trailColour } from '../canvas/layers/TrailsLayer';
import {
  formatMetres,
  HistoryField,
  PlaybackFloorPicker,
  PlaybackProgress,
  TrailsCanvas,
  useBuildingFloor,
  useDurationFormat,
  useFloorZones,
} from '../canvas/TrailsCanvas';
import { useFloorHistory } from '../canvas/trailsHistory';
import { ScreenTitle } from '../screens/ScreenTitle';
import { useApi } from '../session/SessionProvider';
import { WorkerPicker } from '../shared/WorkerPicker';
import { useSelection } from '../shell/selection';

type Choice = 'workers' | 'crew';

const BY_NAME = { field: 'name', direction: 'asc' } as const;

interface ChosenWorker {
  id: number;
  name: string;
}

/**
 * /analytics/spaghetti: the trails of chosen workers (or of a crew) on a floor over a range, one
 * colour each, and beside the canvas each one's distance walked and time per zone.
 */
export function SpaghettiScreen() {
  const { t } = useTranslation();
  const api = useApi();
  const { site } = useSelection();
  const siteId = site?.id ?? 0;
  const { floors, floor, pick } = useBuildingFloor();
  const zones = useFloorZones(floor?.id ?? null);
  // The range is on the site's wall clock (today from its midnight until now by default).
  const timeZone = site?.timezone ?? 'UTC';
  const [openedAt] = useState(() => Date.now());
  const [pickedFrom, setFrom] = useState<string | null>(null);
  const [pickedTo, setTo] = useState<string | null>(null);
  const from =
    pickedFrom ?? siteInputValue(siteInstant(siteDayValue(openedAt, timeZone), 0, timeZone), timeZone);
  const to = pickedTo ?? siteInputValue(openedAt + 60_000, timeZone);
  const [choice, setChoice] = useState<Choice>('workers');
  const [picked, setPicked] = useState<WorkerOption[]>([]);
  const [crewId, setCrewId] = useState<number | null>(null);
  const crews = useQuery({
    ...nameListQuery(api, siteId, 'crews'),
    enabled: site !== null && choice === 'crew',
  });
  const crewMembers = useQuery({
    queryKey: queryKeys.workers.every(siteId, { sort: BY_NAME, crewId }),
    queryFn: ({ signal }) => fetchAllWorkers(api, siteId, { sort: BY_NAME, crewId }, { signal }),
    enabled: site !== null && choice === 'crew' && crewId !== null,
  });

  const chosen: ChosenWorker[] = useMemo(
    () =>
      choice === 'workers'
        ? picked.map(({ id, name }) => ({ id, name }))
        : (crewMembers.data ?? []).map(({ id, name }) => ({ id, name })),
    [choice, picked, crewMembers.data],
  );
  const fromMs = siteInputInstant(from, timeZone);
  const toMs = siteInputInstant(to, timeZone);
  const rangeValid = Number.isFinite(fromMs) && Number.isFinite(toMs) && toMs > fromMs;
  const workerIds = chosen.map((w) => w.id);
  const request =
    floor && rangeValid && workerIds.length > 0 ? { floorId: floor.id, fromMs, toMs, workerIds } : null;
  const history = useFloorHistory(api, request);

  const colours = useMemo(() => new Map(chosen.map((w, i) => [trackKey(w.id, 0), trailColour(i)])), [chosen]);
  const [trails$] = useState(() => new BehaviorSubject<TrailsData>({ trails: [] }));
  const [layerData] = useState(() => [layerDataSource(TRAILS, trails$)]);
  useEffect(() => {
    const trails: Trail[] = history.tracks
      .filter((track) => colours.has(track.key))
      .map((track) => ({
        key: track.key,
        colour: colours.get(track.key) as number,
        lat: track.lat,
        long: track.long,
        ranges: trackSegments(track.times),
      }));
    trails$.next({ trails });
  }, [history.tracks, colours, trails$]);

  const zoneName = (id: number) =>
    id === 0 ? t('history.outsideZones') : (zones.find((z) => z.id === id)?.name ?? `#${id}`);
  const duration = useDurationFormat();

  return (
    <section className="sw-history sw-spaghetti" data-testid="spaghetti-screen">
      <ScreenTitle>{t('screen.analyticsSpaghetti')}</ScreenTitle>
      <div className="sw-history-controls">
        <PlaybackFloorPicker floors={floors} floor={floor} onPick={pick} testId="spaghetti-floor" />
        <HistoryField
          label={t('history.from')}
          type="datetime-local"
          value={from}
          onChange={setFrom}
          testId="spaghetti-from"
        />
        <HistoryField
          label={t('history.to')}
          type="datetime-local"
          value={to}
          onChange={setTo}
          testId="spaghetti-to"
        />
        <SegmentedControl
          options={[
            { label: t('history.chooseWorkers'), value: 'workers' },
            { label: t('history.chooseCrew'), value: 'crew' },
          ]}
          value={choice}
          onValueChange={(value) => setChoice(value as Choice)}
          data-testid="spaghetti-choice"
        />
        {choice === 'crew' && (
          <HTMLSelect
            value={crewId ?? ''}
            onChange={(e) => setCrewId(e.currentTarget.value ? Number(e.currentTarget.value) : null)}
            data-testid="spaghetti-crew"
            options={[
              { value: '', label: t('history.pickCrew') },
              ...(crews.data ?? []).map((crew) => ({ value: crew.id, label: crew.name })),
            ]}
          />
        )}
      </div>
      {!rangeValid && (
        <Callout intent="warning" compact>
          {t('history.badRange')}
        </Callout>
      )}
      <div className="sw-history-body">
        {choice === 'workers' && site && (
          <div className="sw-history-picker" data-testid="spaghetti-workers">
            <WorkerPicker
              siteId={site.id}
              id="spaghetti-workers"
              selected={picked}
              invalid={false}
              onChange={setPicked}
            />
          </div>
        )}
        <div className="sw-history-main">
          <PlaybackProgress fetched={history.fetched} total={history.total} testId="spaghetti-progress" />
          {history.error && (
            <Callout intent="danger" compact icon="error" data-testid="spaghetti-error">
              {history.error.message}
            </Callout>
          )}
          {floor ? (
            <TrailsCanvas floor={floor} zones={zones} layerData={layerData} testId="spaghetti-canvas" />
          ) : (
            <NonIdealState icon="map" description={t('history.noFloor')} />
          )}
        </div>
        <aside className="sw-history-side" aria-label={t('history.perWorker')}>
          {chosen.length === 0 && <p className="bp6-text-muted">{t('history.chooseSomeone')}</p>}
          {chosen.map((worker) => {
            const key = trackKey(worker.id, 0);
            const track = history.tracks.find((tr) => tr.key === key);
            const seconds = track ? [...zoneSeconds(track)].sort((a, b) => b[1] - a[1]) : [];
            return (
              <div key={worker.id} className="sw-history-worker" data-testid="spaghetti-worker">
                <h4 className="bp6-heading">
                  <span
                    className="sw-history-swatch"
                    style={{ background: cssColour(colours.get(key) ?? 0) }}
                    data-colour={cssColour(colours.get(key) ?? 0)}
                  />
                  <bdi>{worker.name}</bdi>
                </h4>
                {track ? (
                  <>
                    <div data-testid="spaghetti-path-length">
                      {t('history.pathLength', { metres: formatMetres(pathLengthMetres(track)) })}
                    </div>
                    <table className="bp6-html-table bp6-compact sw-history-zones">
                      <tbody>
                        {seconds.map(([zone, s]) => (
                          <tr key={zone} data-testid="spaghetti-zone-time">
                            <td>{zoneName(zone)}</td>
                            <td>{duration(s)}</td>
                          </tr>
                        ))}
                      </tbody>
                    </table>
                  </>
                ) : (
                  <p className="bp6-text-muted">
                    {history.done ? t('history.noPositions') : t('common.loading')}
                  </p>
                )}
              </div>
            );
          })}
        </aside>
      </div>
    </section>
  );
}
