import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { BehaviorSubject } from 'rxjs';
import type { ActorRefFrom } from 'xstate';
import { blueprintQuery } from '../../../api/floors';
import type { Floor, Zone } from '../../../domain/floor';
import { toLongLat } from '../../../domain/geo';
import type { zoneDrawingMachine } from '../../../machines/zoneDrawing.machine';
import { FloorCanvas } from '../../canvas/FloorCanvas';
import type { CanvasPointerEvent } from '../../canvas/FloorCanvasEngine';
import { layerDataSource } from '../../canvas/layers/layerInputs';
import { PERMIT_SHAPES, type PermitShapes, permitsLayer } from '../../canvas/layers/PermitsLayer';
import { FLOOR_LAYERS, withLayer } from '../../canvas/layers/registry';
import { useFloorPlace } from '../../canvas/useFloorPlace';
import { useTokenSource } from '../../session/SessionProvider';

/** The permits above the zones and under the markers, the draft on top (registry order). */
const PERMIT_LAYERS = withLayer(FLOOR_LAYERS, permitsLayer, 'workers');
const NO_ZONES = new BehaviorSubject<readonly Zone[]>([]);

interface PermitCanvasProps {
  floor: Floor;
  shapes: PermitShapes;
  drawing: ActorRefFrom<typeof zoneDrawingMachine>;
  /** The area being drawn, or null. */
  draft: readonly [number, number][] | null;
}

/**
 * The floor with its permits' areas (PermitsLayer) and, while an area is drawn, the canvas's
 * pointer turned into the zone drawing machine's events: a click adds a corner, a double-click
 * closes the ring.
 */
export function PermitCanvas({ floor, shapes, drawing, draft }: PermitCanvasProps) {
  const floorPlace = useFloorPlace(floor);
  const tokenSource = useTokenSource();
  const blueprint = useQuery({ ...blueprintQuery(tokenSource, floor), enabled: floor.media_url !== null });
  const [shapes$] = useState(() => new BehaviorSubject<PermitShapes>(shapes));
  useEffect(() => shapes$.next(shapes), [shapes$, shapes]);
  const [layerData] = useState(() => [layerDataSource(PERMIT_SHAPES, shapes$)]);
  const pressed = useRef(false);

  function onPointer(event: CanvasPointerEvent) {
    if (!drawing.getSnapshot().matches('drawing')) {
      pressed.current = false;
      return;
    }
    switch (event.type) {
      case 'down':
        if (event.button !== 0) return;
        // Drawing owns the press: the canvas neither pans nor selects under it.
        event.claim();
        pressed.current = true;
        return;
      case 'up':
        if (pressed.current) drawing.send({ type: 'pointer.click', point: toLongLat(event.geo) });
        pressed.current = false;
        return;
      case 'dblclick':
        drawing.send({ type: 'pointer.dblclick' });
        return;
      default:
        return;
    }
  }

  return (
    <div
      className="sw-permits-canvas"
      data-testid="permits-canvas"
      data-drawing={draft !== null || undefined}
    >
      <FloorCanvas
        floor={floor}
        floorPlace={floorPlace}
        blueprint={blueprint.data ?? null}
        zones$={NO_ZONES}
        layers={PERMIT_LAYERS}
        layerData={layerData}
        draft={draft}
        onPointer={onPointer}
      />
    </div>
  );
}
