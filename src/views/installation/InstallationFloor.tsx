import { Callout, Classes, Spinner } from '@blueprintjs/core';
import { useQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { BehaviorSubject } from 'rxjs';
import { radioSettingsQuery, unapprovedAnchorsQuery } from '../../api/installation';
import { floorNodesNowQuery } from '../../api/nodeMap';
import { can } from '../../domain/access';
import { DEFAULT_APPROVAL_SETTINGS } from '../../domain/anchorApproval';
import type { Floor } from '../../domain/floor';
import { floorTransform, imagePoint } from '../../domain/geo';
import type { ApprovalSettings } from '../../domain/schemas/installation';
import type { Site } from '../../domain/user';
import type { FloorCanvasHandle } from '../canvas/FloorCanvas';
import type { CanvasPointerEvent } from '../canvas/FloorCanvasEngine';
import {
  anchorsLayerDefinition,
  type DrawnNode,
  MAP_NODES,
  type MapNodes,
} from '../canvas/layers/AnchorsLayer';
import { COVERAGE, coverageLayer } from '../canvas/layers/CoverageLayer';
import { layerDataSource } from '../canvas/layers/layerInputs';
import {
  type DrawnPlannedMarker,
  PLANNED_MARKERS,
  PLANNED_RADIUS_PX,
  type PlannedMarker,
  type PlannedMarkers,
  planningAnchorsLayerDefinition,
} from '../canvas/layers/PlanningAnchorsLayer';
import { FLOOR_LAYERS, withLayer } from '../canvas/layers/registry';
import { TrailsCanvas, useFloorZones } from '../canvas/TrailsCanvas';
import { imageToScreen, screenPoint, screenToImage } from '../canvas/viewport';
import { mapNodeOf } from '../maintenance/MaintenanceMapNodes';
import { useApi, useSession } from '../session/SessionProvider';
import { ApprovalPanel } from './ApprovalPanel';
import { CoveragePanel, MeasuredLinks } from './CoveragePanel';
import type { InstallationTab } from './installationTabs';
import { PlanningAnchorsPanel } from './PlanningAnchorsPanel';
import { WorkPermitsTab } from './permits/WorkPermitsTab';
import { type AnchorApproval, useAnchorApproval } from './useAnchorApproval';
import { useCoverage } from './useCoverage';
import { type PlanningAnchors, usePlanningAnchors } from './usePlanningAnchors';
import { useWallDrawing } from './walls/useWallDrawing';
import { WallsPanel } from './walls/WallsPanel';

/** How near (screen pixels) a press must be to a marker's centre to drag it. */
const MARKER_HIT_PX = PLANNED_RADIUS_PX + 6;

/** What a browser test (or a debugger) reads off the installation canvas, with page-relative screen points. */
export interface InstallationDebug {
  readonly planned: readonly (DrawnPlannedMarker & { readonly screenX: number; readonly screenY: number })[];
  readonly installed: readonly (DrawnNode & { readonly screenX: number; readonly screenY: number })[];
  /** The coverage drawn: its floor and covered share, or null. */
  readonly coverage: { readonly floorId: number; readonly coveredPercent: number } | null;
}

export interface InstallationElement extends HTMLElement {
  installationDebug?: () => InstallationDebug;
}

interface InstallationFloorProps {
  floor: Floor;
  site: Site;
  clientId: number;
  tab: InstallationTab;
}

/** One floor of installation mode; waits for the site's approval settings (the evidence's thresholds). */
export function InstallationFloor(props: InstallationFloorProps) {
  const { t } = useTranslation();
  const api = useApi();
  const settings = useQuery(radioSettingsQuery(api, props.site.id));
  if (settings.isPending) return <Spinner aria-label={t('common.loading')} />;
  // Unreadable settings fall back to the defaults: the server checks with its own anyway.
  return <FloorWorkspace {...props} settings={settings.data?.approval ?? DEFAULT_APPROVAL_SETTINGS} />;
}

function FloorWorkspace({
  floor,
  site,
  clientId,
  tab,
  settings,
}: InstallationFloorProps & { settings: ApprovalSettings }) {
  const { t } = useTranslation();
  const api = useApi();
  const { user } = useSession();
  const canWrite = user ? can(user.user_role, 'write', 'installation') : false;
  const zones = useFloorZones(floor.id);
  const planning = usePlanningAnchors(floor.id);
  const nodes = useQuery(floorNodesNowQuery(api, floor.id));
  const unapproved = useQuery({
    ...unapprovedAnchorsQuery(api, site.id, floor.id),
    enabled: tab === 'approval',
  });
  const approval = useAnchorApproval(floor.id, site.id, settings);
  const canvas = useRef<FloorCanvasHandle>(null);
  const walls = useWallDrawing({ floor, canvasRef: canvas, canWrite });
  const floorNodes = nodes.data?.floorId === floor.id ? nodes.data.nodes : NO_NODES;
  const approvedAnchors = useMemo(
    () => floorNodes.filter((node) => node.type === 'anchor' && node.isApproved),
    [floorNodes],
  );

  // The plan the coverage is simulated for: a change marks a shown result out of date.
  const signature = useMemo(
    () =>
      JSON.stringify([
        planning.anchors.map((a) => [a.id, a.metadata.lat, a.metadata.long]),
        approvedAnchors.map((n) => [n.id, n.configured?.lat ?? null, n.configured?.long ?? null]),
        walls.walls.map((w) => [w.id, w.material, w.points]),
      ]),
    [planning.anchors, approvedAnchors, walls.walls],
  );
  const coverage = useCoverage(floor.id, signature);

  const transform = useMemo(() => {
    if (!floor.image_properties) return null;
    try {
      return floorTransform(floor.coordinates, floor.image_properties);
    } catch {
      return null;
    }
  }, [floor.coordinates, floor.image_properties]);

  // ---- the canvas's layers and what they draw
  const drawn = useRef<{ planned: readonly DrawnPlannedMarker[]; installed: readonly DrawnNode[] }>({
    planned: [],
    installed: [],
  });
  const [layers] = useState(() => {
    // Bottom to top: blueprint, zones, coverage, walls, installed anchors, planning anchors, the rest.
    let registry = withLayer(FLOOR_LAYERS, coverageLayer, 'heatmap');
    registry = withLayer(registry, walls.layer, 'heatmap');
    registry = withLayer(
      registry,
      anchorsLayerDefinition((installed) => {
        drawn.current.installed = installed;
      }),
      'workers',
    );
    return withLayer(
      registry,
      planningAnchorsLayerDefinition((planned) => {
        drawn.current.planned = planned;
      }),
      'workers',
    );
  });
  const [markers$] = useState(() => new BehaviorSubject<PlannedMarkers>({ markers: [], selectedKey: null }));
  const [nodes$] = useState(() => new BehaviorSubject<MapNodes>({ nodes: [], selectedKey: null }));
  const [coverage$] = useState(
    () =>
      new BehaviorSubject<{
        floorId: number;
        simulation: NonNullable<typeof coverage.result>['simulation'];
      } | null>(null),
  );
  const [layerData] = useState(() => [
    layerDataSource(PLANNED_MARKERS, markers$),
    layerDataSource(MAP_NODES, nodes$),
    layerDataSource(COVERAGE, coverage$),
    ...walls.layerData,
  ]);

  // A marker being dragged follows the pointer; it is saved when dropped.
  const [drag, setDrag] = useState<{ key: string; lat: number; long: number; moved: boolean } | null>(null);
  const markers = useMemo(
    () =>
      plannedMarkersOf(
        tab,
        planning,
        coverage.round?.suggestions.slice(coverage.round.index) ?? [],
        approval,
        drag,
      ),
    [tab, planning, coverage.round, approval, drag],
  );
  useEffect(() => markers$.next(markers), [markers$, markers]);
  useEffect(() => {
    nodes$.next({
      nodes: floorNodes.map(mapNodeOf),
      selectedKey: tab === 'approval' ? (approval.selected?.inventory_id ?? null) : null,
    });
  }, [nodes$, floorNodes, tab, approval.selected]);
  useEffect(() => {
    const result = coverage.result;
    coverage$.next(result && tab === 'plan' ? { floorId: floor.id, simulation: result.simulation } : null);
  }, [coverage$, coverage.result, floor.id, tab]);

  // ---- the pointer: walls, adding and dragging planning anchors, placing the anchor being approved
  const markerAt = useCallback(
    (event: CanvasPointerEvent, candidates: readonly PlannedMarker[]): PlannedMarker | null => {
      const view = canvas.current?.engine?.getView();
      if (!view || !transform) return null;
      let best: PlannedMarker | null = null;
      let bestDistance = MARKER_HIT_PX;
      for (const marker of candidates) {
        const at = imageToScreen(view, transform.toImage(marker));
        const distance = Math.hypot(at.x - event.screen.x, at.y - event.screen.y);
        if (distance <= bestDistance) {
          best = marker;
          bestDistance = distance;
        }
      }
      return best;
    },
    [transform],
  );
  const press = useRef<{ key: string | null; at: { x: number; y: number } } | null>(null);

  function onPointer(event: CanvasPointerEvent) {
    if (event.type === 'dblclick' || !canWrite) return;
    const point = { lat: event.geo.lat, long: event.geo.long };
    if (tab === 'plan') onPlanPointer(event, point);
    else if (tab === 'approval') onApprovalPointer(event, point);
  }

  function onPlanPointer(event: CanvasPointerEvent, point: { lat: number; long: number }) {
    // A wall being drawn or edited owns the pointer; otherwise the anchors (drawn above the walls) come first.
    const wallsBusy = walls.phase !== 'idle' && walls.phase !== 'selected';
    if (wallsBusy && planning.tool.kind !== 'adding') {
      walls.onPointer(event);
      return;
    }
    if (event.type === 'down') {
      if (event.button !== 0) return;
      if (planning.tool.kind === 'adding') {
        event.claim();
        press.current = { key: null, at: event.screen };
        return;
      }
      const hit = markerAt(
        event,
        markers.markers.filter((m) => m.kind === 'planned'),
      );
      if (!hit) {
        walls.onPointer(event);
        return;
      }
      event.claim();
      press.current = { key: hit.key, at: event.screen };
      if (walls.phase === 'selected') walls.selectWall(null);
      planning.select(Number(hit.key.slice('planned:'.length)));
      setDrag({ key: hit.key, lat: hit.lat, long: hit.long, moved: false });
      return;
    }
    if (event.type === 'move') {
      if (drag && press.current?.key === drag.key) setDrag({ ...drag, ...point, moved: true });
      else walls.onPointer(event);
      return;
    }
    if (event.type === 'up') {
      const pressed = press.current;
      press.current = null;
      if (!pressed) {
        walls.onPointer(event);
        return;
      }
      if (pressed.key === null && planning.tool.kind === 'adding') {
        planning.setTool({ kind: 'naming', at: point, name: planning.proposedName() });
        return;
      }
      if (drag && pressed.key === drag.key) {
        setDrag(null);
        const anchor = planning.anchors.find((a) => `planned:${a.id}` === drag.key);
        if (anchor && drag.moved) planning.move(anchor, point);
      }
    }
  }

  function onApprovalPointer(event: CanvasPointerEvent, point: { lat: number; long: number }) {
    if (!approval.selected) return;
    if (event.type === 'down') {
      if (event.button !== 0 || !approval.canPlace()) return;
      const placement = markers.markers.find((m) => m.kind === 'placement');
      const hit = placement ? markerAt(event, [placement]) : null;
      // Once placed, only its marker is dragged: a press elsewhere pans the floor as usual.
      if (!hit && approval.placement) return;
      event.claim();
      press.current = { key: hit?.key ?? null, at: event.screen };
      if (hit) setDrag({ key: hit.key, lat: hit.lat, long: hit.long, moved: false });
      return;
    }
    if (event.type === 'move') {
      if (drag && press.current?.key === drag.key) setDrag({ ...drag, ...point, moved: true });
      return;
    }
    if (event.type === 'up') {
      const pressed = press.current;
      press.current = null;
      if (!pressed) return;
      setDrag(null);
      // A drop, or a click where the anchor is: either places it there.
      approval.place(point, 'drag');
    }
  }

  // ---- the plan's keys: Escape, Enter (add in the middle of the view), Delete, Ctrl/⌘+Z
  const [deleting, setDeleting] = useState<(typeof planning.anchors)[number] | null>(null);
  const keys = useRef({ planning, canWrite, tab, transform, setDeleting, wallsPhase: walls.phase });
  keys.current = { planning, canWrite, tab, transform, setDeleting, wallsPhase: walls.phase };
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const now = keys.current;
      if (now.tab !== 'plan' || !now.canWrite || isTyping(event.target) || anyDialogOpen()) return;
      // A wall being drawn or edited has the keys (its own Escape, Enter, Backspace and Ctrl+Z).
      if (event.defaultPrevented || now.wallsPhase !== 'idle') return;
      const onButton = event.target instanceof HTMLButtonElement;
      const { planning: plan } = now;
      if (event.key === 'Escape' && plan.tool.kind === 'adding') {
        plan.setTool({ kind: 'idle' });
      } else if (event.key === 'Enter' && plan.tool.kind === 'adding' && !onButton) {
        const centre = viewCentre();
        if (!centre) return;
        event.preventDefault();
        plan.setTool({ kind: 'naming', at: centre, name: plan.proposedName() });
      } else if ((event.key === 'Delete' || event.key === 'Backspace') && plan.selectedId !== null) {
        const anchor = plan.anchors.find((a) => a.id === plan.selectedId);
        if (!anchor) return;
        event.preventDefault();
        now.setDeleting(anchor);
      } else if (event.key === 'z' && (event.ctrlKey || event.metaKey) && !event.shiftKey) {
        event.preventDefault();
        plan.undo();
      }
    };
    const viewCentre = () => {
      const engine = canvas.current?.engine;
      const transformNow = keys.current.transform;
      const host = document.querySelector('[data-testid="installation-canvas"] canvas');
      if (!engine || !transformNow || !host) return null;
      const box = host.getBoundingClientRect();
      const image = screenToImage(engine.getView(), screenPoint(box.width / 2, box.height / 2));
      const geo = transformNow.toGeo(image);
      return { lat: geo.lat, long: geo.long };
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  // ---- the debug hook a browser test reads
  useEffect(() => {
    const element = document.querySelector(
      '[data-testid="installation-screen"]',
    ) as InstallationElement | null;
    if (!element) return;
    element.installationDebug = () => {
      const view = canvas.current?.engine?.getView();
      const host = document.querySelector('[data-testid="installation-canvas"] canvas');
      const box = host?.getBoundingClientRect();
      const onPage = <T extends { x: number; y: number }>(item: T) => {
        const at = view ? imageToScreen(view, imagePoint(item.x, item.y)) : { x: Number.NaN, y: Number.NaN };
        return { ...item, screenX: (box?.left ?? 0) + at.x, screenY: (box?.top ?? 0) + at.y };
      };
      const shown = coverage$.getValue();
      return {
        planned: drawn.current.planned.map(onPage),
        installed: drawn.current.installed.map(onPage),
        coverage: shown ? { floorId: shown.floorId, coveredPercent: shown.simulation.covered_percent } : null,
      };
    };
    return () => {
      element.installationDebug = undefined;
    };
  }, [coverage$]);

  const nameOf = useCallback(
    (id: number) => floorNodes.find((node) => node.id === id)?.nodeId ?? `#${id}`,
    [floorNodes],
  );

  const accepting = planning.busy && coverage.offered !== null;
  const accept = async () => {
    const offered = coverage.offered;
    if (!offered) return;
    const saved = await planning.add(planning.proposedName(), { lat: offered.lat, long: offered.long });
    if (saved) coverage.next();
  };

  return (
    <>
      <div className="sw-install-body" hidden={tab === 'permits'}>
        <div
          className="sw-install-canvas"
          data-tool={tab === 'plan' ? planning.tool.kind : approval.state}
          data-dragging={drag ? true : undefined}
        >
          {!transform && (
            <Callout intent="warning" compact>
              {t('installation.screen.noImage')}
            </Callout>
          )}
          <TrailsCanvas
            ref={canvas}
            floor={floor}
            zones={zones}
            layers={layers}
            layerData={layerData}
            onPointer={onPointer}
            testId="installation-canvas"
          />
        </div>
        <div className="sw-install-side">
          {tab === 'plan' ? (
            <>
              <WallsPanel walls={walls} />
              <PlanningAnchorsPanel
                planning={planning}
                canWrite={canWrite}
                deleting={deleting}
                onDeleting={setDeleting}
              />
              <CoveragePanel
                coverage={coverage}
                canWrite={canWrite}
                onAccept={accept}
                accepting={accepting}
              />
            </>
          ) : tab === 'approval' ? (
            <ApprovalPanel
              floorId={floor.id}
              siteId={site.id}
              canWrite={canWrite}
              approval={approval}
              unapproved={unapproved.data ?? []}
              loading={unapproved.isPending}
              approved={approvedAnchors}
              settings={settings}
            />
          ) : null}
        </div>
      </div>
      {tab === 'plan' && <MeasuredLinks floorId={floor.id} nameOf={nameOf} />}
      {tab === 'permits' && <WorkPermitsTab floor={floor} siteId={site.id} clientId={clientId} />}
    </>
  );
}

const NO_NODES: never[] = [];

/** The markers of the tab shown: the plan (with the suggestions ghosted), or the plan and the approval's placement. */
function plannedMarkersOf(
  tab: InstallationTab,
  planning: PlanningAnchors,
  suggestions: readonly { lat: number; long: number }[],
  approval: AnchorApproval,
  drag: { key: string; lat: number; long: number } | null,
): PlannedMarkers {
  const markers: PlannedMarker[] = planning.anchors.map((anchor) => {
    const key = `planned:${anchor.id}`;
    const at = drag?.key === key ? drag : anchor.metadata;
    return { key, kind: 'planned', label: anchor.anchor_id, lat: at.lat, long: at.long };
  });
  if (tab === 'plan') {
    suggestions.forEach((suggestion, index) => {
      markers.push({
        key: `suggested:${index}`,
        kind: 'suggested',
        label: index === 0 ? '?' : '',
        lat: suggestion.lat,
        long: suggestion.long,
      });
    });
    return { markers, selectedKey: planning.selectedId === null ? null : `planned:${planning.selectedId}` };
  }
  const selected = approval.selected;
  if (tab === 'approval' && selected) {
    const key = `placement:${selected.inventory_id}`;
    const at = drag?.key === key ? drag : (approval.placement ?? selected.computed);
    if (at)
      markers.push({ key, kind: 'placement', label: selected.wnt_inventory_id, lat: at.lat, long: at.long });
    return {
      markers,
      selectedKey: selected.planning_anchor ? `planned:${selected.planning_anchor.id}` : null,
    };
  }
  return { markers, selectedKey: null };
}

function isTyping(target: EventTarget | null): boolean {
  return (
    target instanceof HTMLElement &&
    (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName))
  );
}

/** A dialog or alert is open (toasts are overlays too, and do not count): its own keys come first. */
function anyDialogOpen(): boolean {
  return document.querySelector(`.${Classes.DIALOG}`) !== null;
}
