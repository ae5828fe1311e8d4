import './floorCanvas.css';
import { Button, ButtonGroup } from '@blueprintjs/core';
import { type Ref, useEffect, useImperativeHandle, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Observable } from 'rxjs';
import type { Floor, LongLat, Zone } from '../../domain/floor';
import type { WorkerOnMap } from '../../domain/inventory';
import type { WorkerMap } from '../../streams/workerMapState';
import {
  type CanvasDebugState,
  type CanvasPointerEvent,
  type CanvasStatus,
  FloorCanvasEngine,
  type WorkerHover,
} from './FloorCanvasEngine';
import type { LayerDataSource } from './layers/layerInputs';
import type { LayerRegistry } from './layers/registry';
import type { MarkerColour } from './scene';
import { WorkerDetails } from './WorkerDetails';
import { WorkerTooltip } from './WorkerTooltip';

/**
 * The canvas's element carries a way to read what it drew, as the maps canvas carries its
 * renderer and selection in data attributes: end-to-end tests read marker positions through it.
 */
export interface FloorCanvasElement extends HTMLDivElement {
  floorCanvasDebug?: () => CanvasDebugState | null;
}

export interface FloorCanvasHandle {
  zoomIn(): void;
  zoomOut(): void;
  fitToFloor(): void;
  /** The engine, once mounted: for what the props do not cover (view state, streams). */
  readonly engine: FloorCanvasEngine | null;
}

export interface FloorCanvasProps {
  floor: Floor;
  /** The decoded blueprint; the screen fetches it with the bearer token. */
  blueprint: CanvasImageSource | null;
  zones$: Observable<readonly Zone[]>;
  /** When given, the canvas follows it; clicks and keys still report through onSelectZone. */
  selectedZoneId?: number | null;
  onSelectZone?(id: number | null): void;
  /** A polygon being drawn, as [long, lat] vertices; the rubber band to the pointer is the canvas's. */
  draft?: readonly LongLat[] | null;
  onPointer?(event: CanvasPointerEvent): void;
  /** The helmets to show (the merged live stream); the canvas samples it once per frame. */
  workers$?: Observable<WorkerMap>;
  /** A marker's colour when not its connection status (the evacuation colours); keep it stable. */
  markerColour?: MarkerColour;
  /** A marker was picked (its details open beside the canvas) or the details closed (null). */
  onSelectWorker?(worker: WorkerOnMap | null): void;
  /** Data of layers beyond the scene's (walls, anchors, …), each from its stream; keep the array stable. */
  layerData?: readonly LayerDataSource[];
  /** The layers to draw (FLOOR_LAYERS unless a screen adds its own with `withLayer`); read once per mount. */
  layers?: LayerRegistry;
  /**
   * The floor's name with its building's (useFloorPlace), for the worker's tooltip and details:
   * two blocks' "Level 2" must read apart. The floor's own name when not given.
   */
  floorPlace?: string;
  /** The renderer once picked, and what could not be drawn (a broken blueprint, bad corners). */
  onStatus?(status: CanvasStatus): void;
  className?: string;
  ref?: Ref<FloorCanvasHandle>;
}

/**
 * The floor canvas: React renders the host element and the zoom buttons; the engine (one Pixi
 * application, created once per mount) draws everything else. No zone ever becomes a React element.
 */
export function FloorCanvas(props: FloorCanvasProps) {
  const { floor, blueprint, zones$, selectedZoneId, draft, className, ref } = props;
  const { t } = useTranslation();
  const hostRef = useRef<HTMLDivElement>(null);
  const [engine, setEngine] = useState<FloorCanvasEngine | null>(null);
  const [status, setStatus] = useState<CanvasStatus>({ renderer: null, errors: {} });
  const [selected, setSelected] = useState<Zone | null>(null);
  const [hover, setHover] = useState<WorkerHover | null>(null);
  const [worker, setWorker] = useState<WorkerOnMap | null>(null);
  const elementRef = useRef<FloorCanvasElement>(null);
  const engineRef = useRef<FloorCanvasEngine | null>(null);
  const latest = useRef(props);
  latest.current = props;
  const label = t('canvas.label', { name: floor.name });
  const { workers$, markerColour, layerData } = props;
  const floorPlace = props.floorPlace ?? floor.name;
  // A marker's floor is the canvas's; a helmet still listed from another floor keeps its own name.
  const placeOf = (shown: WorkerOnMap) =>
    shown.blueprint_id === null || shown.blueprint_id === floor.id ? floorPlace : shown.blueprint_name;

  // One engine per mounted view; later prop changes are handed to it, never a new one.
  // biome-ignore lint/correctness/useExhaustiveDependencies: created once; the effects below pass on changes.
  useEffect(() => {
    const created = new FloorCanvasEngine(hostRef.current!, {
      floor: latest.current.floor,
      label,
      layers: latest.current.layers,
    });
    created.ready.catch(() => {
      // Reported through status$ (errors.renderer).
    });
    let reported: number | null = null;
    let reportedWorker: number | null = null;
    engineRef.current = created;
    const subscriptions = [
      created.status$.subscribe((s) => {
        setStatus(s);
        latest.current.onStatus?.(s);
      }),
      created.selection$.subscribe((zone) => {
        setSelected(zone);
        const id = zone?.id ?? null;
        if (id === reported) return;
        reported = id;
        latest.current.onSelectZone?.(id);
      }),
      created.pointer$.subscribe((event) => latest.current.onPointer?.(event)),
      created.workerHover$.subscribe(setHover),
      created.workerSelection$.subscribe((picked) => {
        setWorker(picked);
        const id = picked?.inventory_id ?? null;
        if (id === reportedWorker) return;
        reportedWorker = id;
        latest.current.onSelectWorker?.(picked);
      }),
      // Written straight to the element: a count that changes every batch must not re-render React.
      created.workerCount$.subscribe((count) =>
        elementRef.current?.setAttribute('data-worker-count', String(count)),
      ),
    ];
    setEngine(created);
    return () => {
      for (const s of subscriptions) s.unsubscribe();
      created.destroy();
      engineRef.current = null;
      setEngine(null);
    };
  }, []);

  useEffect(() => engine?.setFloor(floor), [engine, floor]);
  useEffect(() => engine?.setLabel(label), [engine, label]);
  useEffect(() => engine?.setBlueprint(blueprint), [engine, blueprint]);
  useEffect(() => engine?.setZones(zones$), [engine, zones$]);
  useEffect(() => engine?.setDraft(draft ?? null), [engine, draft]);
  useEffect(() => engine?.setWorkers$(workers$ ?? null), [engine, workers$]);
  useEffect(() => engine?.setMarkerColour(markerColour ?? null), [engine, markerColour]);
  useEffect(() => {
    if (!engine || !layerData) return;
    for (const { data, source$ } of layerData) engine.bindLayerData(data, source$);
    return () => {
      for (const { data } of layerData) engine.bindLayerData(data, null);
    };
  }, [engine, layerData]);
  useEffect(() => {
    const element = elementRef.current;
    if (element) element.floorCanvasDebug = () => engineRef.current?.debugState() ?? null;
  }, []);
  useEffect(() => {
    if (selectedZoneId !== undefined) engine?.select(selectedZoneId);
  }, [engine, selectedZoneId]);

  useImperativeHandle(
    ref,
    () => ({
      zoomIn: () => engine?.zoomIn(),
      zoomOut: () => engine?.zoomOut(),
      fitToFloor: () => engine?.fitToFloor(),
      engine,
    }),
    [engine],
  );

  return (
    <div
      ref={elementRef}
      className={className ? `sw-floor-canvas ${className}` : 'sw-floor-canvas'}
      data-testid="floor-canvas"
      data-renderer={status.renderer ?? undefined}
      data-selected-zone-id={selected?.id ?? undefined}
      data-selected-worker-id={worker?.inventory_id ?? undefined}
      data-error={Object.keys(status.errors).join(' ') || undefined}
    >
      <div ref={hostRef} className="sw-floor-canvas__host" />
      <ButtonGroup vertical className="sw-floor-canvas__controls">
        <Button icon="zoom-in" aria-label={t('canvas.zoomIn')} onClick={() => engine?.zoomIn()} />
        <Button icon="zoom-out" aria-label={t('canvas.zoomOut')} onClick={() => engine?.zoomOut()} />
        <Button icon="zoom-to-fit" aria-label={t('canvas.fit')} onClick={() => engine?.fitToFloor()} />
      </ButtonGroup>
      {hover && hover.worker.inventory_id !== worker?.inventory_id && (
        <WorkerTooltip hover={hover} floorPlace={placeOf(hover.worker)} />
      )}
      {worker && (
        <WorkerDetails
          worker={worker}
          floorPlace={placeOf(worker)}
          onClose={() => engine?.selectWorker(null)}
        />
      )}
      <div className="sw-floor-canvas__live" aria-live="polite" data-testid="floor-canvas-selection">
        {selected?.name ?? ''}
      </div>
    </div>
  );
}
