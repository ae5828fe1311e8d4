import { Callout, Spinner, Switch } from '@blueprintjs/core';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { BehaviorSubject, type Observable } from 'rxjs';
import { blueprintQuery } from '../../api/floors';
import type { Floor, LongLat, Zone } from '../../domain/floor';
import { floorTransform, fromLongLat, toLongLat } from '../../domain/geo';
import type { WorkerMap } from '../../streams/workerMapState';
import { FloorCanvas, type FloorCanvasHandle } from '../canvas/FloorCanvas';
import type { CanvasPointerEvent } from '../canvas/FloorCanvasEngine';
import { useFloorPlace } from '../canvas/useFloorPlace';
import { imageToScreen } from '../canvas/viewport';
import { useTokenSource } from '../session/SessionProvider';
import type { ZoneDrawing } from './useZoneDrawing';

/** How near (CSS pixels) a press must be to a vertex to drag it rather than add one. */
const VERTEX_GRAB_PX = 8;

interface FloorViewProps {
  floor: Floor;
  zones: readonly Zone[];
  selectedZoneId: number | null;
  onSelectZone(id: number | null): void;
  drawing: ZoneDrawing;
  /** The floor's live helmets (an empty map while they are hidden). */
  workers$: Observable<WorkerMap>;
  liveShown: boolean;
  onLiveShown(shown: boolean): void;
}

/**
 * The selected floor on the canvas: its blueprint (fetched with the token), its zones, the live
 * workers unless switched off, and while a zone is drawn, the canvas's pointer turned into
 * drawing machine events (a press on a marker then adds a point: drawing claims it first).
 */
export function FloorView(props: FloorViewProps) {
  const { floor, zones, selectedZoneId, onSelectZone, drawing, workers$, liveShown, onLiveShown } = props;
  const { t } = useTranslation();
  const floorPlace = useFloorPlace(floor);
  const canvas = useRef<FloorCanvasHandle>(null);
  const tokenSource = useTokenSource();
  const blueprint = useQuery({
    ...blueprintQuery(tokenSource, floor),
    enabled: floor.media_url !== null,
  });

  // One stream per view; the canvas subscribes once and hears every new list.
  const [zones$] = useState(() => new BehaviorSubject<readonly Zone[]>(zones));
  useEffect(() => zones$.next(zones), [zones$, zones]);

  const transform = useMemo(() => {
    if (!floor.image_properties) return null;
    try {
      return floorTransform(floor.coordinates, floor.image_properties);
    } catch {
      return null;
    }
  }, [floor.coordinates, floor.image_properties]);

  // The press being handled: a new vertex on release, or the vertex being dragged.
  const press = useRef<{ dragging: number | null } | null>(null);
  const { actor } = drawing;

  function nearestVertex(event: CanvasPointerEvent, vertices: readonly LongLat[]): number | null {
    const view = canvas.current?.engine?.getView();
    if (!view || !transform) return null;
    let best: number | null = null;
    let bestDistance = VERTEX_GRAB_PX;
    vertices.forEach((vertex, index) => {
      const at = imageToScreen(view, transform.toImage(fromLongLat(vertex)));
      const distance = Math.hypot(at.x - event.screen.x, at.y - event.screen.y);
      if (distance <= bestDistance) {
        best = index;
        bestDistance = distance;
      }
    });
    return best;
  }

  function onPointer(event: CanvasPointerEvent) {
    const snapshot = actor.getSnapshot();
    if (!snapshot.matches('drawing')) {
      press.current = null;
      return;
    }
    const point = toLongLat(event.geo);
    switch (event.type) {
      case 'down':
        if (event.button !== 0) return;
        // Drawing owns the press: the canvas neither pans nor selects under it.
        event.claim();
        press.current = { dragging: nearestVertex(event, snapshot.context.vertices) };
        return;
      case 'move':
        if (press.current?.dragging != null) {
          actor.send({ type: 'vertex.drag', index: press.current.dragging, point });
        }
        return;
      case 'up':
        if (press.current && press.current.dragging === null) actor.send({ type: 'pointer.click', point });
        press.current = null;
        return;
      case 'dblclick':
        actor.send({ type: 'pointer.dblclick' });
        return;
    }
  }

  const drawingNow = drawing.phase !== 'idle';
  return (
    <div className="sw-maps-canvas" data-testid="maps-canvas" data-drawing={drawingNow || undefined}>
      {blueprint.isError && (
        <Callout intent="danger" compact icon="error" data-testid="blueprint-error">
          {t('maps.blueprintError')}
        </Callout>
      )}
      <div className="sw-maps-canvas-toolbar">
        <Switch
          className="sw-maps-live-switch"
          data-testid="maps-live-workers"
          label={t('maps.liveWorkers')}
          checked={liveShown}
          onChange={(event) => onLiveShown(event.currentTarget.checked)}
        />
      </div>
      {blueprint.isPending && floor.media_url !== null && (
        <div className="sw-maps-canvas-loading">
          <Spinner size={20} aria-label={t('maps.blueprintLoading')} />
        </div>
      )}
      <FloorCanvas
        ref={canvas}
        className="sw-maps-floor-canvas"
        floor={floor}
        floorPlace={floorPlace}
        blueprint={blueprint.data ?? null}
        zones$={zones$}
        workers$={workers$}
        selectedZoneId={selectedZoneId}
        onSelectZone={(id) => {
          if (!drawingNow) onSelectZone(id);
        }}
        draft={drawingNow ? drawing.vertices : null}
        onPointer={onPointer}
      />
    </div>
  );
}
