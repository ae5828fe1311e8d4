import {
  Button,
  ButtonGroup,
  Callout,
  HTMLSelect,
  InputGroup,
  NonIdealState,
  Switch,
} from '@blueprintjs/core';
import { useQuery } from '@tanstack/react-query';
import { useActorRef, useSelector } from '@xstate/react';
import { type KeyboardEvent, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { BehaviorSubject, map } from 'rxjs';
import { queryKeys } from '../../api/queryKeys';
import type { AllWorkersParams } from '../../api/queryParams';
import { fetchAllWorkers } from '../../api/workers/workerList';
import { can } from '../../domain/access';
import type { Floor } from '../../domain/floor';
import { floorTransform, imagePoint } from '../../domain/geo';
import { clockTime, siteDayRange, siteDayValue, siteInstant } from '../../domain/siteClock';
import {
  isPlaybackRunning,
  isPlaybackTicking,
  PLAYBACK_SPEEDS,
  type PlaybackEvent,
  playbackMachine,
  playbackStateOf,
  selectPlaybackSpeed,
  selectPlayheadMs,
} from '../../machines/playback.machine';
import type { PlaybackFrame as StreamFrame } from '../../streams/playback.stream';
import { playbackTicks$ } from '../../streams/playbackClock';
import type { WorkerMap } from '../../streams/workerMapState';
import type { FloorCanvasHandle } from '../canvas/FloorCanvas';
import { HEATMAP } from '../canvas/layers/HeatmapLayer';
import type { HeatmapCells } from '../canvas/layers/heatmapCells';
import { layerDataSource } from '../canvas/layers/layerInputs';
import { TRAILS, type TrailsData, trailColour } from '../canvas/layers/TrailsLayer';
import { worldSize } from '../canvas/scene';
import {
  HistoryDayField,
  PlaybackFloorPicker,
  PlaybackProgress,
  TrailsCanvas,
  useBuildingFloor,
  useFloorZones,
} from '../canvas/TrailsCanvas';
import { centreOn } from '../canvas/viewport';
import { ScreenTitle } from '../screens/ScreenTitle';
import { useApi, useSession } from '../session/SessionProvider';
import { useSelection } from '../shell/selection';
import {
  HEAT_WINDOW_MS,
  type HistoryPayload,
  MARKER_STALE_MS,
  markersOf,
  playbackGrid,
  slidingHeatmap,
  TRAIL_WINDOW_MS,
  trailsOf,
  type WorkerLabel,
} from './PlaybackFrame';
import { historyPlayer$, historyWindows, type PlayerEvent, snapshots$ } from './PlaybackPlayer';
import { ZoneTimeline } from './ZoneTimeline';

/** The sliding heatmap is summed again at most this often while playing. */
const HEAT_EVERY_MS = 250;

/** The names of the replayed workers, by name (the roles that may read workers only). */
const WORKER_NAMES: AllWorkersParams = { sort: { field: 'name', direction: 'asc' } };

/** "16:00", "16:00:30" → seconds after midnight, or null. */
export function parseClockTime(text: string): number | null {
  const match = /^\s*(\d{1,2}):(\d{2})(?::(\d{2}))?\s*$/.exec(text);
  if (!match) return null;
  const [h, m, s] = [Number(match[1]), Number(match[2]), Number(match[3] ?? 0)];
  if (h > 23 || m > 59 || s > 59) return null;
  return h * 3600 + m * 60 + s;
}

type Progress = Extract<PlayerEvent, { kind: 'progress' }>;

/**
 * /analytics/playback: a floor's day (the site's day) replayed. One clock (the playback machine)
 * drives the history player (src/streams/playback.stream.ts), whose frames move the markers (the
 * live canvas's colours and tooltips), the trails of the last minutes and, when on, a sliding
 * heatmap; history is fetched a window at a time around and ahead of the playhead, never the whole
 * day first. The zone-occupancy timeline under the canvas comes from the analytics gateway.
 */
export function PlaybackScreen() {
  const { t, i18n } = useTranslation();
  const api = useApi();
  const role = useSession().user?.user_role;
  const { site } = useSelection();
  const siteId = site?.id ?? 0;
  const timeZone = site?.timezone ?? 'UTC';
  const { floors, floor, pick } = useBuildingFloor();
  const zones = useFloorZones(floor?.id ?? null);
  const [openedAt] = useState(() => Date.now());
  const [pickedDay, setDay] = useState<string | null>(null);
  const day = pickedDay ?? siteDayValue(openedAt, timeZone);
  const [jump, setJump] = useState('');
  const [jumpInvalid, setJumpInvalid] = useState(false);
  const [heatOn, setHeatOn] = useState(false);
  const [follow, setFollow] = useState<number | null>(null);
  const canvas = useRef<FloorCanvasHandle>(null);
  const wrapper = useRef<HTMLDivElement>(null);

  const dayRange = useMemo(() => siteDayRange(day, timeZone), [day, timeZone]);
  const fromMs = dayRange.fromMs;
  // Today ends now (a minute on, for what is arriving); fixed per day so the range is stable.
  const toMs = useMemo(
    () => Math.min(dayRange.toMs, Math.max(Date.now() + 60_000, dayRange.fromMs + 60_000)),
    [dayRange],
  );
  const live = toMs < dayRange.toMs;
  const floorId = floor?.id ?? null;
  const request = useMemo(
    () =>
      floorId !== null && Number.isFinite(fromMs) && Number.isFinite(toMs) && toMs > fromMs
        ? { floorId, fromMs, toMs }
        : null,
    [floorId, fromMs, toMs],
  );

  // Names only for the roles that may read workers.
  const mayReadWorkers = role !== undefined && can(role, 'open', 'workers');
  const workers = useQuery({
    queryKey: queryKeys.workers.every(siteId, WORKER_NAMES),
    queryFn: ({ signal }) => fetchAllWorkers(api, siteId, WORKER_NAMES, { signal }),
    enabled: site !== null && mayReadWorkers,
  });
  const labels = useMemo(
    () =>
      new Map<number, WorkerLabel>(
        (workers.data ?? []).map((w) => [w.id, { ...w, role_name: w.worker_role_name }]),
      ),
    [workers.data],
  );
  const zoneNames = useMemo(() => new Map(zones.map((z) => [z.id, z.name])), [zones]);

  const actor = useActorRef(playbackMachine);
  const snapshot = useSelector(actor, (s) => s);
  const playheadMs = useSelector(actor, selectPlayheadMs);
  const speed = useSelector(actor, selectPlaybackSpeed);
  const running = useSelector(actor, isPlaybackRunning);
  const send = (event: PlaybackEvent) => actor.send(event);
  const allowed = (event: PlaybackEvent) => snapshot.can(event);

  // The history windows of the floor, kept across players of one range (the heatmap's switch).
  const windows = useMemo(() => (floorId === null ? null : historyWindows(api, floorId)), [api, floorId]);
  const [progress, setProgress] = useState<Progress | null>(null);
  // The helmets met so far (helmet → its worker), for "follow".
  const [seen, setSeen] = useState<ReadonlyMap<number, number | null>>(new Map());

  // Markers, trails and heat follow the player's frames, outside React's renders.
  const [workers$] = useState(() => new BehaviorSubject<WorkerMap>(new Map()));
  const [trails$] = useState(() => new BehaviorSubject<TrailsData>({ trails: [] }));
  const [heat$] = useState(() => new BehaviorSubject<HeatmapCells | null>(null));
  const [layerData] = useState(() => [layerDataSource(TRAILS, trails$), layerDataSource(HEATMAP, heat$)]);
  const grid = useMemo(() => (floor ? playbackGrid(floor, floor.cellSizeMetres) : null), [floor]);
  const transform = useMemo(() => {
    if (!floor) return null;
    try {
      return floorTransform(floor.coordinates, worldSize(floor, null));
    } catch {
      return null;
    }
  }, [floor]);

  // What a frame is drawn with, read at each frame (refs: a new name does not restart the player).
  const drawn = useRef<{
    floor: Floor | null;
    labels: ReadonlyMap<number, WorkerLabel>;
    zoneNames: ReadonlyMap<number, string>;
    heatOn: boolean;
    running: boolean;
    follow: number | null;
  }>({ floor, labels, zoneNames, heatOn, running, follow });
  drawn.current = { floor, labels, zoneNames, heatOn, running, follow };
  const lastFrame = useRef<StreamFrame<HistoryPayload> | null>(null);
  /** How far back the last frame's windows reach (its player's lookback). */
  const lastLookback = useRef(0);
  const lastHeat = useRef(0);
  const colours = useRef(new Map<number, number>());
  const met = useRef(new Map<number, number | null>());
  const view = useRef({ grid, transform });
  view.current = { grid, transform };

  const draw = useRef((frame: StreamFrame<HistoryPayload>, exact: boolean) => {
    const { floor, labels, zoneNames, heatOn, running, follow } = drawn.current;
    if (!floor) return;
    const markers = markersOf(frame.entities, floor, labels, zoneNames);
    workers$.next(markers);
    const colourOf = (helmet: number) => {
      let index = colours.current.get(helmet);
      if (index === undefined) {
        index = colours.current.size;
        colours.current.set(helmet, index);
      }
      return trailColour(index);
    };
    trails$.next({ trails: trailsOf(frame.trail, colourOf) });
    const { grid, transform } = view.current;
    const now = performance.now();
    if (!heatOn || !grid) heat$.next(null);
    // A frame of the player before the heatmap was switched on does not reach 15 minutes back.
    else if (lastLookback.current < HEAT_WINDOW_MS) heat$.next(null);
    else if (exact || !running || now - lastHeat.current >= HEAT_EVERY_MS) {
      lastHeat.current = now;
      heat$.next(slidingHeatmap(frame.windows, grid, floor.id, frame.playheadMs));
    }
    let news = false;
    for (const [helmet, marker] of markers) {
      if (met.current.has(helmet)) continue;
      met.current.set(helmet, marker.id);
      news = true;
    }
    if (news) setSeen(new Map(met.current));
    const engine = canvas.current?.engine;
    const host = wrapper.current?.querySelector('canvas');
    const followed = follow === null ? undefined : markers.get(follow);
    if (engine && followed?.coordinates && transform && host) {
      const p = transform.toImage(followed.coordinates);
      engine.setView(
        centreOn(engine.getView(), imagePoint(p.x, p.y), {
          width: host.clientWidth,
          height: host.clientHeight,
        }),
      );
    }
  });

  // A new floor or day: a new range, held until the history at the playhead is in.
  useEffect(() => {
    colours.current = new Map();
    met.current = new Map();
    setSeen(new Map());
    lastFrame.current = null;
    workers$.next(new Map());
    trails$.next({ trails: [] });
    heat$.next(null);
    if (!request) {
      actor.send({ type: 'playback.unload' });
      return;
    }
    actor.send({ type: 'playback.load', range: { fromMs: request.fromMs, toMs: request.toMs } });
  }, [actor, request, workers$, trails$, heat$]);

  // The player: frames of the machine's range, its buffering sent back to the machine. The
  // heatmap reaches further back, so switching it makes a new player over the windows kept.
  useEffect(() => {
    if (!windows) return;
    const lookbackMs = heatOn ? HEAT_WINDOW_MS : TRAIL_WINDOW_MS;
    const subscription = historyPlayer$(actor, {
      windows,
      trailMs: TRAIL_WINDOW_MS,
      lookbackMs,
      staleMs: MARKER_STALE_MS,
    }).subscribe((event) => {
      if (event.kind === 'idle') setProgress(null);
      else if (event.kind === 'progress') setProgress(event);
      else {
        lastFrame.current = event.frame;
        lastLookback.current = lookbackMs;
        draw.current(event.frame, false);
      }
    });
    return () => subscription.unsubscribe();
  }, [actor, windows, heatOn]);

  // Names, zones, the followed worker, the heatmap's switch or a pause: the frame drawn again.
  // biome-ignore lint/correctness/useExhaustiveDependencies: each is read through `drawn` when drawing.
  useEffect(() => {
    if (!heatOn) heat$.next(null);
    if (lastFrame.current) draw.current(lastFrame.current, true);
  }, [labels, zoneNames, follow, heatOn, running, grid, transform, heat$]);

  // The clock: animation frames while playing (the shared ticker; a hidden tab does not jump ahead).
  useEffect(() => {
    const ticks = playbackTicks$(snapshots$(actor).pipe(map(isPlaybackTicking))).subscribe((elapsedMs) =>
      actor.send({ type: 'clock.tick', elapsedMs }),
    );
    return () => ticks.unsubscribe();
  }, [actor]);

  const jumpTo = () => {
    const seconds = parseClockTime(jump);
    setJumpInvalid(seconds === null);
    if (seconds === null) return;
    send({ type: 'playback.seek', ms: siteInstant(day, seconds, timeZone) });
  };
  const onKeyDown = (event: KeyboardEvent) => {
    const target = event.target as HTMLElement;
    if (target.closest('input, select, textarea')) return;
    // A focused button takes its own space (a click); the screen's shortcut is for the rest.
    if (event.key === ' ' && !target.closest('button')) {
      event.preventDefault();
      send({ type: 'playback.toggle' });
    } else if (event.key === 'ArrowLeft' || event.key === 'ArrowRight') {
      event.preventDefault();
      // The player and its timeline run left to right in Arabic too (media controls are not mirrored).
      send({ type: 'playback.step', direction: event.key === 'ArrowRight' ? 1 : -1 });
    }
  };
  const trackLabel = (workerId: number | null, inventoryItemId: number) =>
    (workerId !== null ? labels.get(workerId)?.name : undefined) ??
    t('history.helmet', { id: inventoryItemId });
  const state = playbackStateOf(snapshot);

  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: the player's shortcuts (space, arrows) for the whole screen.
    <section
      className="sw-history sw-playback"
      data-testid="playback-screen"
      data-state={state}
      // Focusable, so the shortcuts work once the user has clicked anywhere on the player.
      tabIndex={-1}
      onKeyDown={onKeyDown}
    >
      <ScreenTitle>{t('screen.analyticsPlayback')}</ScreenTitle>
      <div className="sw-history-controls">
        <PlaybackFloorPicker floors={floors} floor={floor} onPick={pick} testId="playback-floor" />
        <HistoryDayField day={day} onChange={setDay} testId="playback-day" />
        <div className="sw-history-field">
          <label htmlFor="playback-jump">{t('history.jumpTo')}</label>
          <InputGroup
            id="playback-jump"
            value={jump}
            placeholder="16:00:00"
            intent={jumpInvalid ? 'danger' : 'none'}
            onValueChange={setJump}
            onKeyDown={(e) => e.key === 'Enter' && jumpTo()}
            data-testid="playback-jump"
            rightElement={
              <Button
                variant="minimal"
                icon={i18n.dir() === 'rtl' ? 'arrow-left' : 'arrow-right'}
                aria-label={t('history.jump')}
                onClick={jumpTo}
                disabled={!allowed({ type: 'playback.seek', ms: fromMs })}
                data-testid="playback-jump-go"
              />
            }
          />
        </div>
        <div className="sw-history-field">
          <label htmlFor="playback-follow">{t('history.follow')}</label>
          <HTMLSelect
            id="playback-follow"
            value={follow ?? ''}
            onChange={(e) => setFollow(e.currentTarget.value ? Number(e.currentTarget.value) : null)}
            data-testid="playback-follow"
            options={[
              { value: '', label: t('history.followNobody') },
              ...[...seen]
                .sort((a, b) => a[0] - b[0])
                .map(([helmet, workerId]) => ({ value: helmet, label: trackLabel(workerId, helmet) })),
            ]}
          />
        </div>
        <Switch
          checked={heatOn}
          label={t('history.heatmap')}
          onChange={(e) => setHeatOn(e.currentTarget.checked)}
          data-testid="playback-heat"
        />
      </div>
      {progress && (
        <PlaybackProgress
          fetched={Math.max(progress.fetched, progress.progress.windowsLoaded)}
          total={progress.progress.windowsTotal}
          buffering={{ loaded: progress.progress.neededLoaded, total: progress.progress.neededTotal }}
          testId="playback-progress"
        />
      )}
      {progress?.progress.error && (
        <Callout intent="danger" compact icon="error" data-testid="playback-error">
          {progress.progress.error}
        </Callout>
      )}
      <div className="sw-playback-player">
        <ButtonGroup>
          <Button
            icon="step-backward"
            aria-label={t('history.stepBack')}
            disabled={!allowed({ type: 'playback.step', direction: -1 })}
            onClick={() => send({ type: 'playback.step', direction: -1 })}
            data-testid="playback-step-back"
          />
          <Button
            icon={running ? 'pause' : 'play'}
            aria-label={running ? t('history.pause') : t('history.play')}
            disabled={!allowed({ type: 'playback.toggle' })}
            onClick={() => send({ type: 'playback.toggle' })}
            data-testid="playback-toggle"
          />
          <Button
            icon="step-forward"
            aria-label={t('history.stepForward')}
            disabled={!allowed({ type: 'playback.step', direction: 1 })}
            onClick={() => send({ type: 'playback.step', direction: 1 })}
            data-testid="playback-step-forward"
          />
        </ButtonGroup>
        <HTMLSelect
          aria-label={t('history.speed')}
          value={speed}
          onChange={(e) => send({ type: 'playback.speed', speed: Number(e.currentTarget.value) })}
          data-testid="playback-speed"
          options={PLAYBACK_SPEEDS.map((s) => ({ value: s, label: `${s}×` }))}
        />
        <input
          type="range"
          className="sw-playback-scrub"
          aria-label={t('history.scrub')}
          min={fromMs}
          max={toMs}
          step={1000}
          value={playheadMs}
          disabled={!allowed({ type: 'playback.seek', ms: fromMs })}
          onChange={(e) => send({ type: 'playback.seek', ms: Number(e.currentTarget.value) })}
          data-testid="playback-scrub"
        />
        <output className="sw-playback-clock" data-testid="playback-clock" data-ms={playheadMs}>
          {clockTime(playheadMs, timeZone)}
        </output>
      </div>
      <div ref={wrapper}>
        {floor ? (
          <TrailsCanvas
            ref={canvas}
            floor={floor}
            zones={zones}
            layerData={layerData}
            workers$={workers$}
            testId="playback-canvas"
          />
        ) : (
          <NonIdealState icon="map" description={t('history.noFloor')} />
        )}
      </div>
      {floorId !== null && Number.isFinite(fromMs) && (
        <ZoneTimeline
          floorId={floorId}
          zones={zones}
          fromMs={fromMs}
          toMs={toMs}
          timeZone={timeZone}
          playheadMs={playheadMs}
          live={live}
          onSeek={(ms) => send({ type: 'playback.seek', ms })}
        />
      )}
    </section>
  );
}
