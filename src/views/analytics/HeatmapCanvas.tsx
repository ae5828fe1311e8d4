import { Callout } from '@blueprintjs/core';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { BehaviorSubject } from 'rxjs';
import { blueprintQuery, zonesQuery } from '../../api/floors';
import type { Floor, Zone } from '../../domain/floor';
import { FloorCanvas } from '../canvas/FloorCanvas';
import type { CanvasPointerEvent, RendererName } from '../canvas/FloorCanvasEngine';
import { HEATMAP } from '../canvas/layers/HeatmapLayer';
import { type HeatmapCells, heatmapSecondsAt } from '../canvas/layers/heatmapCells';
import { layerDataSource } from '../canvas/layers/layerInputs';
import type { ScreenPoint } from '../canvas/viewport';
import { useApi, useTokenSource } from '../session/SessionProvider';
import { formatWorkerSeconds } from './analyticsFormat';

interface HeatmapCanvasProps {
  floor: Floor;
  /** The floor's cells, or null while none are known (the canvas shows the floor alone). */
  cells: HeatmapCells | null;
}

interface Hover {
  readonly screen: ScreenPoint;
  readonly seconds: number;
  /** The cells it was read from: new cells hide it until the pointer moves again. */
  readonly of: HeatmapCells;
}

/**
 * The floor's blueprint and zones on the canvas with the heatmap layer over them, and the
 * hovered cell's worker-hours beside the pointer. The canvas is mounted once per screen: a new
 * floor or new cells are handed to it, so it never blanks while the next heatmap loads.
 */
export function HeatmapCanvas({ floor, cells }: HeatmapCanvasProps) {
  const { t } = useTranslation();
  const api = useApi();
  const tokenSource = useTokenSource();
  const blueprint = useQuery({ ...blueprintQuery(tokenSource, floor), enabled: floor.media_url !== null });
  const zones = useQuery(zonesQuery(api, floor.id));
  const [zones$] = useState(() => new BehaviorSubject<readonly Zone[]>([]));
  useEffect(() => zones$.next(zones.data ?? []), [zones$, zones.data]);

  const [cells$] = useState(() => new BehaviorSubject<HeatmapCells | null>(null));
  useEffect(() => cells$.next(cells), [cells$, cells]);
  // A stable array: the canvas binds the stream once.
  const [layerData] = useState(() => [layerDataSource(HEATMAP, cells$)]);

  const [renderer, setRenderer] = useState<RendererName | null>(null);
  const [hover, setHover] = useState<Hover | null>(null);

  function onPointer(event: CanvasPointerEvent) {
    if (event.type !== 'move') return;
    const current = cells$.value;
    const seconds = current ? heatmapSecondsAt(current, event.geo) : null;
    setHover(seconds === null || !current ? null : { screen: event.screen, seconds, of: current });
  }

  return (
    <div
      className="sw-heatmap-canvas"
      data-testid="heatmap-canvas"
      data-renderer={renderer ?? undefined}
      onPointerLeave={() => setHover(null)}
    >
      {blueprint.isError && (
        <Callout intent="danger" compact icon="error" data-testid="blueprint-error">
          {t('maps.blueprintError')}
        </Callout>
      )}
      <FloorCanvas
        className="sw-heatmap-floor-canvas"
        floor={floor}
        blueprint={blueprint.data ?? null}
        zones$={zones$}
        layerData={layerData}
        onPointer={onPointer}
        onStatus={(status) => setRenderer(status.renderer)}
      />
      {hover && hover.of === cells && (
        <div
          className="sw-worker-tooltip sw-heatmap-tooltip"
          role="tooltip"
          data-testid="heatmap-tooltip"
          data-seconds={hover.seconds}
          // The canvas never mirrors, so the tooltip is placed in its (left-to-right) pixels.
          style={{ left: hover.screen.x + 12, top: hover.screen.y + 12 }}
        >
          {t('analytics.heatmap.hover', { hours: formatWorkerSeconds(hover.seconds) })}
        </div>
      )}
    </div>
  );
}
