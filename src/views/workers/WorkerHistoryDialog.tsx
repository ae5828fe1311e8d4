import { Button, Callout, Dialog, DialogBody, NonIdealState, Tab, Tabs } from '@blueprintjs/core';
import { useQueries } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { BehaviorSubject } from 'rxjs';
import { floorsQuery } from '../../api/floors';
import { can } from '../../domain/access';
import type { Floor } from '../../domain/floor';
import { pathLengthMetres, type Track, trackSegments } from '../../domain/pathLength';
import { clockTime, siteDayRange, siteDayValue } from '../../domain/siteClock';
import { findStops, zoneVisits } from '../../domain/stops';
import { layerDataSource } from '../canvas/layers/layerInputs';
import { TRAILS, type TrailsData, trailColour } from '../canvas/layers/TrailsLayer';
import {
  formatMetres,
  HistoryDayField,
  PlaybackProgress,
  TrailsCanvas,
  useDurationFormat,
  useFloorZones,
} from '../canvas/TrailsCanvas';
import { loadHistory } from '../canvas/trailsHistory';
import { useApi, useSession } from '../session/SessionProvider';
import { useSelection } from '../shell/selection';

/**
 * "Show history" on a worker's page and the day it opens; only for the roles that may open the
 * analytics (positions over time are analytics data, DESIGN §4).
 */
export function WorkerHistoryButton({ workerId, workerName }: { workerId: number; workerName: string }) {
  const { t } = useTranslation();
  const role = useSession().user?.user_role;
  const [open, setOpen] = useState(false);
  if (role === undefined || !can(role, 'open', 'analytics')) return null;
  return (
    <>
      <Button
        icon="history"
        text={t('history.showHistory')}
        onClick={() => setOpen(true)}
        data-testid="worker-history-open"
      />
      <WorkerHistoryDialog
        workerId={workerId}
        workerName={workerName}
        isOpen={open}
        onClose={() => setOpen(false)}
      />
    </>
  );
}

interface WorkerHistoryDialogProps {
  workerId: number;
  workerName: string;
  isOpen: boolean;
  onClose(): void;
}

interface DayHistory {
  /** The worker's track on each floor that has one. */
  readonly floors: readonly { floor: Floor; track: Track }[];
  readonly fetched: number;
  readonly total: number;
  readonly done: boolean;
  readonly error: Error | null;
}

const EMPTY_DAY: DayHistory = { floors: [], fetched: 0, total: 0, done: false, error: null };

/**
 * A worker's day ("Show history" on the worker's page): the trail on each floor of the site the
 * worker was seen on (no route lists a day's floors, so every floor's history is asked for this
 * worker), the stops (five minutes within five metres) marked and listed, and the zone visits.
 */
export function WorkerHistoryDialog({ workerId, workerName, isOpen, onClose }: WorkerHistoryDialogProps) {
  const { t } = useTranslation();
  return (
    <Dialog
      isOpen={isOpen}
      onClose={onClose}
      title={t('history.workerTitle', { name: workerName })}
      className="sw-worker-history-dialog"
    >
      <DialogBody>{isOpen && <WorkerHistory workerId={workerId} />}</DialogBody>
    </Dialog>
  );
}

function WorkerHistory({ workerId }: { workerId: number }) {
  const { t } = useTranslation();
  const api = useApi();
  const { buildings, site } = useSelection();
  // The site's day, as the analytics screens (the browser's own time zone may be another).
  const timeZone = site?.timezone ?? 'UTC';
  const [openedAt] = useState(() => Date.now());
  const [pickedDay, setDay] = useState<string | null>(null);
  const day = pickedDay ?? siteDayValue(openedAt, timeZone);
  const floorLists = useQueries({ queries: buildings.map((b) => floorsQuery(api, b.id)) });
  const floors = useMemo(() => floorLists.flatMap((q) => q.data ?? []), [floorLists]);
  const floorsReady = floorLists.every((q) => !q.isPending);
  const floorKey = floors.map((f) => f.id).join(',');
  const [history, setHistory] = useState<DayHistory>(EMPTY_DAY);
  const { fromMs, toMs: dayEndMs } = siteDayRange(day, timeZone);

  // biome-ignore lint/correctness/useExhaustiveDependencies: floorKey stands for the floors.
  useEffect(() => {
    setHistory(EMPTY_DAY);
    if (!floorsReady || !Number.isFinite(fromMs) || !Number.isFinite(dayEndMs)) return;
    const controller = new AbortController();
    const toMs = Math.min(dayEndMs, Date.now() + 60_000);
    const dayMs = dayEndMs - fromMs;
    (async () => {
      const found: { floor: Floor; track: Track }[] = [];
      let fetched = 0;
      let total = floors.length;
      for (const floor of floors) {
        let counted = 0;
        let known = 0;
        const load = await loadHistory(
          api,
          { floorId: floor.id, fromMs, toMs, workerIds: [workerId], windowMs: dayMs },
          (progress) => {
            if (controller.signal.aborted) return;
            // Each floor counts as its chunks once it has started.
            total += progress.total - (known || 1);
            known = progress.total || 1;
            fetched += progress.fetched - counted;
            counted = progress.fetched;
            setHistory({ floors: [...found], fetched, total, done: false, error: null });
          },
          controller.signal,
        );
        if (controller.signal.aborted) return;
        const track = load.tracks.find((tr) => tr.workerId === workerId);
        if (track && track.times.length > 0) found.push({ floor, track });
      }
      setHistory({ floors: found, fetched, total, done: true, error: null });
    })().catch((error: unknown) => {
      if (controller.signal.aborted) return;
      setHistory((previous) => ({
        ...previous,
        done: true,
        error: error instanceof Error ? error : new Error(String(error)),
      }));
    });
    return () => controller.abort();
  }, [api, floorKey, floorsReady, fromMs, dayEndMs, workerId]);

  const [tab, setTab] = useState<number | null>(null);
  const shown = history.floors.find((f) => f.floor.id === tab) ?? history.floors[0] ?? null;

  return (
    <div className="sw-worker-history" data-testid="worker-history">
      <HistoryDayField day={day} onChange={setDay} testId="worker-history-day" />
      <PlaybackProgress fetched={history.fetched} total={history.total} testId="worker-history-progress" />
      {history.error && (
        <Callout intent="danger" compact icon="error">
          {history.error.message}
        </Callout>
      )}
      {history.done && history.floors.length === 0 && (
        <NonIdealState icon="path-search" description={t('history.noPositionsDay')} />
      )}
      {history.floors.length > 0 && (
        <Tabs
          id="worker-history-floors"
          selectedTabId={shown?.floor.id}
          onChange={(id) => setTab(Number(id))}
        >
          {history.floors.map(({ floor }) => (
            <Tab key={floor.id} id={floor.id} title={floor.name} data-testid="worker-history-floor-tab" />
          ))}
        </Tabs>
      )}
      {shown && <FloorDay key={shown.floor.id} floor={shown.floor} track={shown.track} timeZone={timeZone} />}
    </div>
  );
}

function FloorDay({ floor, track, timeZone }: { floor: Floor; track: Track; timeZone: string }) {
  const { t } = useTranslation();
  const zones = useFloorZones(floor.id);
  const duration = useDurationFormat();
  const stops = useMemo(() => findStops(track), [track]);
  const visits = useMemo(() => zoneVisits(track), [track]);
  const colour = trailColour(0);
  const [trails$] = useState(
    () =>
      new BehaviorSubject<TrailsData>({
        trails: [
          { key: track.key, colour, lat: track.lat, long: track.long, ranges: trackSegments(track.times) },
        ],
        marks: stops.map((s) => ({ lat: s.lat, long: s.long, colour: 0xcd4246 })),
      }),
  );
  const [layerData] = useState(() => [layerDataSource(TRAILS, trails$)]);
  const zoneName = (id: number) =>
    id === 0 ? t('history.outsideZones') : (zones.find((z) => z.id === id)?.name ?? `#${id}`);
  return (
    <div className="sw-worker-history-floor">
      <TrailsCanvas floor={floor} zones={zones} layerData={layerData} testId="worker-history-canvas" />
      <div className="sw-worker-history-lists">
        <p data-testid="worker-history-path-length">
          {t('history.pathLength', { metres: formatMetres(pathLengthMetres(track)) })}
        </p>
        <h4 className="bp6-heading">{t('history.stops')}</h4>
        {stops.length === 0 && <p className="bp6-text-muted">{t('history.noStops')}</p>}
        <ul>
          {stops.map((stop) => (
            <li key={stop.startMs} data-testid="worker-history-stop">
              {clockTime(stop.startMs, timeZone)}–{clockTime(stop.endMs, timeZone)} ·{' '}
              {duration(stop.durationMs / 1000)} · <bdi>{zoneName(stop.zone)}</bdi>
            </li>
          ))}
        </ul>
        <h4 className="bp6-heading">{t('history.zoneVisits')}</h4>
        {visits.length === 0 && <p className="bp6-text-muted">{t('history.noVisits')}</p>}
        <table className="bp6-html-table bp6-compact">
          <thead>
            <tr>
              <th>{t('history.zone')}</th>
              <th>{t('history.entered')}</th>
              <th>{t('history.left')}</th>
              <th>{t('history.visitDuration')}</th>
            </tr>
          </thead>
          <tbody>
            {visits.map((visit) => (
              <tr key={visit.enteredMs} data-testid="worker-history-visit">
                <td>
                  <bdi>{zoneName(visit.zoneId)}</bdi>
                </td>
                <td>{clockTime(visit.enteredMs, timeZone)}</td>
                <td>{clockTime(visit.leftMs, timeZone)}</td>
                <td>{duration(visit.durationMs / 1000)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
