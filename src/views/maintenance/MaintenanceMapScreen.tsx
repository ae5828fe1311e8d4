import './MaintenanceMap.css';
import { Callout, HTMLSelect, NonIdealState, Spinner } from '@blueprintjs/core';
import { useQuery } from '@tanstack/react-query';
import { useActorRef, useSelector } from '@xstate/react';
import { type KeyboardEvent, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { BehaviorSubject, map } from 'rxjs';
import { useSearchParams } from 'wouter';
import { siteFloorsQuery } from '../../api/inventory';
import { floorNodesNowQuery } from '../../api/nodeMap';
import { siteNodesQuery } from '../../api/nodes';
import type { Floor } from '../../domain/floor';
import { imagePoint } from '../../domain/geo';
import { compareHealthWorstFirst } from '../../domain/nodeHealth';
import { floorPlaceNames } from '../../domain/placeNames';
import type { Site } from '../../domain/user';
import {
  type ClockControlEvent,
  type MaintenanceMapEvent,
  maintenanceMapMachine,
  mapViewOf,
  pressedModes,
  selectClock,
  selectRange,
} from '../../machines/maintenanceMap.machine';
import { isPlaybackTicking, type PlaybackRange } from '../../machines/playback.machine';
import type { PlaybackProgress } from '../../streams/playback.stream';
import { playbackTicks$ } from '../../streams/playbackClock';
import type { FloorCanvasHandle } from '../canvas/FloorCanvas';
import type { CanvasPointerEvent } from '../canvas/FloorCanvasEngine';
import {
  ANCHOR_GRAPH,
  type AnchorGraph,
  anchorGraphLayerDefinition,
  type DrawnGraph,
} from '../canvas/layers/AnchorGraphLayer';
import {
  anchorsLayerDefinition,
  type DrawnNode,
  MAP_NODES,
  type MapNodes,
  NODE_RADIUS_PX,
} from '../canvas/layers/AnchorsLayer';
import { layerDataSource } from '../canvas/layers/layerInputs';
import { FLOOR_LAYERS, withLayer } from '../canvas/layers/registry';
import { TrailsCanvas, useFloorZones } from '../canvas/TrailsCanvas';
import { centreOn, imageToScreen } from '../canvas/viewport';
import { ScreenTitle } from '../screens/ScreenTitle';
import { useApi } from '../session/SessionProvider';
import { formatCount, formatFullDate } from '../shared/nodeFormat';
import { useSelection } from '../shell/selection';
import { MaintenanceMapDetails, MaintenanceMapLegend, type NodeDetails } from './MaintenanceMapDetails';
import { liveMapOf, replayedMapOf } from './MaintenanceMapNodes';
import {
  DEFAULT_PRESET,
  MaintenanceMapPlayer,
  MaintenanceMapRange,
  presetRange,
  type RangePreset,
  stepMs,
} from './MaintenanceMapPlayer';
import { clockSnapshots$, nodeReplay$, nodeWindowFetcher } from './MaintenanceMapReplay';
import { MaintenanceMapToolbar, MODE_BUTTONS } from './MaintenanceMapToolbar';

/** /maintenance/map: the selected site's maintenance map (spec §2 Map View). */
export function MaintenanceMapScreen() {
  const { t } = useTranslation();
  const { site, loading } = useSelection();
  if (!site) {
    return (
      <section className="sw-mmap" data-testid="maintenance-map">
        <ScreenTitle>{t('screen.maintenanceMap')}</ScreenTitle>
        {loading.clients || loading.sites ? (
          <Spinner aria-label={t('common.loading')} />
        ) : (
          <NonIdealState icon="office" title={t('maintenance.map.noSite')} />
        )}
      </section>
    );
  }
  // Keyed by site: another site starts with its own floors, modes and replay.
  return <MaintenanceMap key={site.id} site={site} />;
}

/** What a test (or a debugger) reads off the map: what the two layers drew, and where on the page. */
export interface MaintenanceMapDebug {
  readonly nodes: readonly (DrawnNode & { readonly screenX: number; readonly screenY: number })[];
  readonly graph: DrawnGraph | null;
  /** The replayed instant handed to the layers last (drawn on the next animation frame); null live. */
  readonly replayedAt: number | null;
}

export interface MaintenanceMapElement extends HTMLElement {
  maintenanceMapDebug?: () => MaintenanceMapDebug;
}

/** Where full screen came from: the Fullscreen API, or the full-viewport class when it was refused. */
type FullscreenKind = 'api' | 'css';

/** How near (screen pixels) the pointer must be to a node's centre to hover or pick it. */
const NODE_HIT_PX = NODE_RADIUS_PX + 4;

function MaintenanceMap({ site }: { site: Site }) {
  const { t, i18n } = useTranslation();
  const api = useApi();
  const { buildings } = useSelection();
  const [params, setParams] = useSearchParams();
  const urlFloorId = Number(params.get('floorId')) || null;
  const urlNodeId = params.get('nodeId');
  const timeZone = site.timezone;

  // ---- the floor: the link's, else the worst node's, else the first floor
  const floors = useQuery(siteFloorsQuery(api, site.id));
  const siteNodes = useQuery({ ...siteNodesQuery(api, site.id), enabled: urlFloorId === null });
  const allFloors = floors.data ?? NO_FLOORS;
  const floorPlace = useMemo(() => floorPlaceNames(allFloors, buildings), [allFloors, buildings]);
  // Without a link: the floor of the node in the worst health, where there is most to see.
  const nodeFloorId = useMemo(() => {
    const placed = (siteNodes.data?.nodes ?? []).filter((node) => node.floorId !== null);
    placed.sort((a, b) => compareHealthWorstFirst(a.health, b.health));
    return placed[0]?.floorId ?? null;
  }, [siteNodes.data]);
  const floor =
    allFloors.find((f) => f.id === urlFloorId) ??
    allFloors.find((f) => f.id === nodeFloorId) ??
    allFloors[0] ??
    null;
  const floorId = floor?.id ?? null;
  const zones = useFloorZones(floorId);
  const pickFloor = (id: number) => setParams({ floorId: String(id) }, { replace: true });

  // ---- the modes, and the clock the playback mode owns
  const section = useRef<MaintenanceMapElement>(null);
  const [fullscreenKind, setFullscreenKind] = useState<FullscreenKind>('api');
  const machine = useMemo(
    () =>
      maintenanceMapMachine.provide({
        actions: {
          enterFullscreen: () => {
            const element = section.current;
            if (!element?.requestFullscreen || !document.fullscreenEnabled) {
              setFullscreenKind('css');
              return;
            }
            setFullscreenKind('api');
            element.requestFullscreen().catch(() => setFullscreenKind('css'));
          },
          leaveFullscreen: () => {
            if (document.fullscreenElement) void document.exitFullscreen().catch(() => {});
          },
        },
      }),
    [],
  );
  const [openedAt] = useState(() => Date.now());
  const actor = useActorRef(machine, { input: { range: presetRange('h24', openedAt) } });
  const pressed = useSelector(actor, pressedModes, shallowEqual);
  const view = useSelector(actor, mapViewOf);
  const canReset = useSelector(actor, (s) => s.can({ type: 'mode.reset' }));
  const clock = useSelector(actor, selectClock);
  const range = useSelector(actor, selectRange);
  const [preset, setPreset] = useState<RangePreset>(DEFAULT_PRESET);
  const send = useCallback((event: MaintenanceMapEvent) => actor.send(event), [actor]);
  const sendToClock = useCallback((event: ClockControlEvent) => actor.send(event), [actor]);

  const onMode = (type: MaintenanceMapEvent['type']) => {
    // A preset replays up to now: its range is taken afresh when the replay starts.
    if (type === 'mode.playback' && view !== 'playback' && preset !== 'custom') {
      send({ type: 'range.set', range: presetRange(preset, Date.now()) });
    }
    send({ type } as MaintenanceMapEvent);
  };
  const onPreset = (next: RangePreset) => {
    setPreset(next);
    if (next !== 'custom') send({ type: 'range.set', range: presetRange(next, Date.now()) });
  };
  const onRange = (next: PlaybackRange) => send({ type: 'range.set', range: next });

  // The browser leaving full screen by itself (Esc, F11): the machine follows.
  useEffect(() => {
    const changed = () => {
      if (!document.fullscreenElement && actor.getSnapshot().matches({ fullscreen: 'on' })) {
        actor.send({ type: 'fullscreen.exited' });
      }
    };
    document.addEventListener('fullscreenchange', changed);
    return () => document.removeEventListener('fullscreenchange', changed);
  }, [actor]);
  // Leaving the screen leaves full screen.
  useEffect(
    () => () => {
      if (document.fullscreenElement) void document.exitFullscreen().catch(() => {});
    },
    [],
  );

  // ---- what the layers draw
  const [nodes$] = useState(() => new BehaviorSubject<MapNodes>({ nodes: [], selectedKey: null }));
  const [graph$] = useState(() => new BehaviorSubject<AnchorGraph | null>(null));
  const [layerData] = useState(() => [
    layerDataSource(MAP_NODES, nodes$),
    layerDataSource(ANCHOR_GRAPH, graph$),
  ]);
  const drawn = useRef<{ nodes: readonly DrawnNode[]; graph: DrawnGraph | null }>({ nodes: [], graph: null });
  const [drawnCounts, setDrawnCounts] = useState<{ links: number; isolated: number } | null>(null);
  const [layers] = useState(() =>
    withLayer(
      withLayer(
        FLOOR_LAYERS,
        anchorGraphLayerDefinition((graph) => {
          drawn.current.graph = graph;
          const links = graph.links.ok + graph.links.warning + graph.links.bad;
          setDrawnCounts((old) =>
            old?.links === links && old.isolated === graph.isolated.length
              ? old
              : { links, isolated: graph.isolated.length },
          );
        }),
        'workers',
      ),
      anchorsLayerDefinition((nodes) => {
        drawn.current.nodes = nodes;
      }),
      'workers',
    ),
  );
  const canvas = useRef<FloorCanvasHandle>(null);
  const [selectedKey, setSelectedKey] = useState<number | null>(null);
  const links = pressed.graph || pressed.playback;
  // The map shown (live or replayed) lives outside React's state: a replay at speed makes a new
  // one every animation frame, and only the node list, the counts and the picked node's details
  // are React's (each set only when it changed).
  const shown = useRef<{ map: ShownMap | null; selectedKey: number | null; links: boolean }>({
    map: null,
    selectedKey,
    links,
  });
  const [nodeList, setNodeList] = useState<readonly NodeChoice[]>([]);
  const [selected, setSelected] = useState<NodeDetails | null>(null);
  const [hovered, setHovered] = useState<{ details: NodeDetails; x: number; y: number } | null>(null);
  const draw = useCallback(() => {
    const { map: next, selectedKey: key, links: withLinks } = shown.current;
    nodes$.next({ nodes: next?.graph.nodes ?? [], selectedKey: key });
    graph$.next(withLinks && next ? next.graph : null);
    setSelected((old) => sameDetails(old, key === null ? null : (next?.details.get(key) ?? null)));
  }, [nodes$, graph$]);
  const show = useCallback(
    (next: ShownMap | null) => {
      shown.current.map = next;
      setNodeList((old) => sameChoices(old, next));
      draw();
    },
    [draw],
  );
  useEffect(() => {
    shown.current.selectedKey = selectedKey;
    shown.current.links = links;
    draw();
  }, [selectedKey, links, draw]);

  // The live floor, polled while the map is not replaying.
  const live = useQuery({
    ...floorNodesNowQuery(api, floorId ?? 0),
    enabled: floorId !== null && view !== 'playback',
  });
  useEffect(() => {
    if (view === 'playback') return;
    if (!live.data || live.data.floorId !== floorId) {
      show(null);
      return;
    }
    const details = new Map<number, NodeDetails>(
      live.data.nodes.map((node) => [node.id, { kind: 'live', node }]),
    );
    show({ graph: liveMapOf(live.data.nodes), details, replayedAt: null });
  }, [live.data, view, floorId, show]);

  // The replay: frames of the clock's range over the floor's node reports.
  const [progress, setProgress] = useState<PlaybackProgress | null>(null);
  const fetchWindow = useMemo(
    () => (floorId === null ? null : nodeWindowFetcher(api, floorId)),
    [api, floorId],
  );
  useEffect(() => {
    if (!clock || !fetchWindow) return;
    show(null);
    const subscription = nodeReplay$(clock, fetchWindow, sendToClock).subscribe((event) => {
      if (event.kind === 'idle') setProgress(null);
      else if (event.kind === 'progress') setProgress(event.progress);
      else {
        const details = new Map<number, NodeDetails>(
          event.nodes.map((node) => [node.key, { kind: 'replay', node }]),
        );
        show({ graph: replayedMapOf(event.nodes), details, replayedAt: event.playheadMs });
      }
    });
    return () => {
      subscription.unsubscribe();
      setProgress(null);
    };
  }, [clock, fetchWindow, sendToClock, show]);
  // The replay's clock runs on animation frames while playing.
  useEffect(() => {
    if (!clock) return;
    const ticks = playbackTicks$(clockSnapshots$(clock).pipe(map(isPlaybackTicking))).subscribe((elapsedMs) =>
      actor.send({ type: 'clock.tick', elapsedMs }),
    );
    return () => ticks.unsubscribe();
  }, [actor, clock]);

  // The canvas grows or shrinks with presentation and full screen: the floor fitted to it again.
  const fitted = useRef({ presentation: pressed.presentation, fullscreen: pressed.fullscreen });
  useEffect(() => {
    const before = fitted.current;
    fitted.current = { presentation: pressed.presentation, fullscreen: pressed.fullscreen };
    if (before.presentation === pressed.presentation && before.fullscreen === pressed.fullscreen) return;
    // After the layout and the canvas's resize have happened.
    const frame = requestAnimationFrame(() =>
      requestAnimationFrame(() => canvas.current?.engine?.fitToFloor()),
    );
    return () => cancelAnimationFrame(frame);
  }, [pressed.presentation, pressed.fullscreen]);

  // ---- picking a node: the link's, a click or the node list; centred when picked from outside
  const [centreOn$] = useState(() => ({ key: null as number | null }));
  const centreNode = useCallback(
    (key: number) => {
      centreOn$.key = key;
      let frames = 120;
      const attempt = () => {
        const engine = canvas.current?.engine;
        const host = section.current?.querySelector('.sw-mmap-canvas canvas');
        const at = drawn.current.nodes.find((node) => node.key === key);
        if (engine && host && at) {
          engine.setView(
            centreOn(engine.getView(), imagePoint(at.x, at.y), {
              width: host.clientWidth,
              height: host.clientHeight,
            }),
          );
          return;
        }
        if (--frames > 0 && centreOn$.key === key) requestAnimationFrame(attempt);
      };
      requestAnimationFrame(attempt);
    },
    [centreOn$],
  );
  const linkedNode = useRef<string | null>(null);
  useEffect(() => {
    if (!urlNodeId || linkedNode.current === urlNodeId) return;
    const node = nodeList.find((candidate) => candidate.nodeId === urlNodeId);
    if (!node) return;
    linkedNode.current = urlNodeId;
    setSelectedKey(node.key);
    centreNode(node.key);
  }, [urlNodeId, nodeList, centreNode]);
  const pickNode = (key: number | null) => {
    setSelectedKey(key);
    const node = key === null ? undefined : nodeList.find((candidate) => candidate.key === key);
    const next: Record<string, string> = floorId === null ? {} : { floorId: String(floorId) };
    if (node) next.nodeId = node.nodeId;
    linkedNode.current = node?.nodeId ?? null;
    setParams(next, { replace: true });
  };

  // Hover and click on the canvas: the nearest drawn node within reach.
  const nodeAt = (event: CanvasPointerEvent): DrawnNode | null => {
    const engine = canvas.current?.engine;
    if (!engine) return null;
    const scale = engine.getView().scale;
    let best: DrawnNode | null = null;
    let bestDistance = NODE_HIT_PX;
    for (const node of drawn.current.nodes) {
      const distance = Math.hypot(node.x - event.image.x, node.y - event.image.y) * scale;
      if (distance <= bestDistance) {
        best = node;
        bestDistance = distance;
      }
    }
    return best;
  };
  const onPointer = (event: CanvasPointerEvent) => {
    if (event.type === 'move') {
      const node = nodeAt(event);
      const details = node ? shown.current.map?.details.get(node.key) : undefined;
      setHovered((old) =>
        !details
          ? null
          : old?.details.node.nodeId === details.node.nodeId
            ? old
            : { details, x: event.screen.x, y: event.screen.y },
      );
    } else if (event.type === 'down' && event.button === 0) {
      const node = nodeAt(event);
      if (!node) return;
      event.claim();
      pickNode(node.key);
    }
  };

  // The debug hook: what the layers drew, with where each node is on the page.
  useEffect(() => {
    const element = section.current;
    if (!element) return;
    element.maintenanceMapDebug = () => {
      const engine = canvas.current?.engine;
      const host = element.querySelector('.sw-mmap-canvas canvas')?.getBoundingClientRect();
      const viewState = engine?.getView();
      return {
        replayedAt: shown.current.map?.replayedAt ?? null,
        graph: drawn.current.graph,
        nodes: drawn.current.nodes.map((node) => {
          const screen = viewState ? imageToScreen(viewState, imagePoint(node.x, node.y)) : { x: 0, y: 0 };
          return { ...node, screenX: (host?.left ?? 0) + screen.x, screenY: (host?.top ?? 0) + screen.y };
        }),
      };
    };
  }, []);

  // ---- the keyboard: the modes' shortcuts, Esc to reset, and the player's in a replay
  const onKeyDown = (event: KeyboardEvent) => {
    const target = event.target as HTMLElement;
    if (event.defaultPrevented || target.closest('input, select, textarea')) return;
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const shortcut = MODE_BUTTONS.find((button) => button.code === event.code);
    if (shortcut) {
      event.preventDefault();
      onMode(shortcut.event);
    } else if (event.key === 'Escape' && canReset) {
      event.preventDefault();
      send({ type: 'mode.reset' });
    } else if (view === 'playback' && event.key === ' ' && !target.closest('button')) {
      event.preventDefault();
      send({ type: 'playback.toggle' });
    } else if (view === 'playback' && (event.key === 'ArrowLeft' || event.key === 'ArrowRight')) {
      event.preventDefault();
      const speed = clock?.getSnapshot().context.speed ?? 1;
      send({ type: 'playback.step', direction: event.key === 'ArrowRight' ? 1 : -1, ms: stepMs(speed) });
    }
  };

  const names = useMemo(() => new Map(nodeList.map((node) => [node.key, node.nodeId])), [nodeList]);
  const nodeOptions = useMemo(
    () => [...nodeList].sort((a, b) => a.nodeId.localeCompare(b.nodeId)),
    [nodeList],
  );
  const fullscreenOn = pressed.fullscreen;
  const className = [
    'sw-mmap',
    pressed.presentation ? 'sw-mmap--presentation' : '',
    fullscreenOn ? 'sw-mmap--fullscreen' : '',
    fullscreenOn && fullscreenKind === 'css' ? 'sw-mmap--fullscreen-css' : '',
  ]
    .filter(Boolean)
    .join(' ');

  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: the map's shortcuts (F, P, G, R, Esc, the player's) for the whole screen.
    <section
      ref={section}
      className={className}
      data-testid="maintenance-map"
      data-view={view}
      data-fullscreen={fullscreenOn ? fullscreenKind : undefined}
      data-presentation={pressed.presentation || undefined}
      tabIndex={-1}
      onKeyDown={onKeyDown}
    >
      <div className="sw-mmap-chrome">
        <ScreenTitle>{t('screen.maintenanceMap')}</ScreenTitle>
        <div className="sw-mmap-pickers">
          <div className="sw-history-field">
            <label htmlFor="mmap-floor">{t('maintenance.map.floor')}</label>
            <HTMLSelect
              id="mmap-floor"
              value={floorId ?? ''}
              disabled={allFloors.length === 0}
              onChange={(e) => pickFloor(Number(e.currentTarget.value))}
              data-testid="mmap-floor"
              options={allFloors.map((f) => ({ value: f.id, label: floorPlace(f.id) ?? f.name }))}
            />
          </div>
          <div className="sw-history-field">
            <label htmlFor="mmap-node">{t('maintenance.map.node')}</label>
            <HTMLSelect
              id="mmap-node"
              value={selectedKey ?? ''}
              disabled={nodeOptions.length === 0}
              onChange={(e) => {
                const key = e.currentTarget.value ? Number(e.currentTarget.value) : null;
                pickNode(key);
                if (key !== null) centreNode(key);
              }}
              data-testid="mmap-node"
              options={[
                { value: '', label: t('maintenance.map.pickNode') },
                ...nodeOptions.map((node) => ({ value: node.key, label: node.nodeId })),
              ]}
            />
          </div>
        </div>
      </div>
      <div className="sw-mmap-bar">
        <MaintenanceMapToolbar pressed={pressed} canReset={canReset} onMode={onMode} />
        <output className="sw-mmap-status" data-testid="mmap-status">
          {nodeList.length > 0 && links && drawnCounts
            ? [
                t('maintenance.map.counts', {
                  nodes: formatCount(nodeList.length),
                  links: formatCount(drawnCounts.links),
                }),
                drawnCounts.isolated > 0
                  ? t('maintenance.map.isolated', { number: formatCount(drawnCounts.isolated) })
                  : '',
              ]
                .filter(Boolean)
                .join(' · ')
            : view !== 'playback' && live.dataUpdatedAt > 0
              ? t('maintenance.map.updated', {
                  time: formatFullDate(live.dataUpdatedAt, timeZone, i18n.language),
                })
              : ''}
        </output>
      </div>
      {view === 'playback' && (
        <div className="sw-mmap-replay">
          <div className="sw-mmap-chrome">
            <MaintenanceMapRange
              preset={preset}
              range={range}
              timeZone={timeZone}
              onPreset={onPreset}
              onRange={onRange}
            />
          </div>
          {clock && (
            <MaintenanceMapPlayer clock={clock} send={sendToClock} progress={progress} timeZone={timeZone} />
          )}
        </div>
      )}
      {live.isError && view !== 'playback' && (
        <Callout intent="danger" compact icon="error" data-testid="mmap-error">
          {t('maintenance.map.loadError')}
        </Callout>
      )}
      <div className="sw-mmap-body">
        <div className="sw-mmap-canvas" data-testid="mmap-canvas">
          {floor ? (
            <TrailsCanvas
              ref={canvas}
              floor={floor}
              zones={zones}
              layers={layers}
              layerData={layerData}
              onPointer={onPointer}
              testId="mmap-floor-canvas"
            />
          ) : floors.isPending ? (
            <Spinner aria-label={t('common.loading')} />
          ) : (
            <NonIdealState icon="map" description={t('maintenance.map.noFloors')} />
          )}
          {hovered && (
            <div
              className="sw-mmap-tooltip"
              role="tooltip"
              data-testid="mmap-tooltip"
              style={{ left: hovered.x + 12, top: hovered.y + 12 }}
            >
              <strong dir="ltr">{hovered.details.node.nodeId}</strong> ·{' '}
              {t(`nodes.type.${hovered.details.node.type}`)}
            </div>
          )}
          {pressed.presentation && (
            <button
              type="button"
              className="sw-mmap-exit"
              onClick={() => send({ type: 'mode.presentation' })}
              data-testid="mmap-exit-presentation"
            >
              {t('maintenance.map.exitPresentation')}
            </button>
          )}
        </div>
        <aside className="sw-mmap-side sw-mmap-chrome">
          {shown.current.map && nodeList.length === 0 && (
            <Callout compact icon="info-sign" data-testid="mmap-no-nodes">
              {t('maintenance.map.noNodes')}
            </Callout>
          )}
          {selected && (
            <MaintenanceMapDetails
              details={selected}
              names={names}
              timeZone={timeZone}
              onClose={() => pickNode(null)}
            />
          )}
          <MaintenanceMapLegend links={links} />
        </aside>
      </div>
    </section>
  );
}

const NO_FLOORS: readonly Floor[] = [];

/** The map on screen, live or replayed, with what the details show of each node. */
interface ShownMap {
  readonly graph: AnchorGraph;
  readonly details: ReadonlyMap<number, NodeDetails>;
  /** The replay's playhead it shows; null for the live floor. */
  readonly replayedAt: number | null;
}

interface NodeChoice {
  readonly key: number;
  readonly nodeId: string;
}

/** The node list again only when its nodes changed (a replay's frames rarely change it). */
function sameChoices(old: readonly NodeChoice[], next: ShownMap | null): readonly NodeChoice[] {
  const nodes = next?.graph.nodes ?? [];
  if (old.length === nodes.length && nodes.every((node, i) => old[i].key === node.key)) return old;
  return nodes.map((node) => ({ key: node.key, nodeId: node.nodeId }));
}

/** The old details while they say the same (same node, same report), so the panel does not re-render. */
function sameDetails(old: NodeDetails | null, next: NodeDetails | null): NodeDetails | null {
  if (old === null || next === null || old.kind !== next.kind || old.node.nodeId !== next.node.nodeId)
    return next;
  const stamp = (details: NodeDetails) =>
    details.kind === 'live'
      ? `${details.node.reading?.ts}|${details.node.health.state}|${details.node.health.problems.length}`
      : `${details.node.reading?.tsMs}`;
  return stamp(old) === stamp(next) ? old : next;
}

function shallowEqual<T extends object>(a: T, b: T): boolean {
  return (Object.keys(a) as (keyof T)[]).every((key) => a[key] === b[key]);
}
