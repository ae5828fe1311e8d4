import { Callout, Spinner } from '@blueprintjs/core';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { BehaviorSubject, type Observable } from 'rxjs';
import { blueprintQuery, zonesQuery } from '../../api/floors';
import type { Floor, Zone } from '../../domain/floor';
import type { WorkerMap } from '../../streams/workerMapState';
import { useApi, useTokenSource } from '../session/SessionProvider';
import { FloorCanvas, type FloorCanvasProps } from './FloorCanvas';
import { useFloorPlace } from './useFloorPlace';

interface LiveFloorPlanProps {
  floor: Floor;
  workers$: Observable<WorkerMap>;
  markerColour?: FloorCanvasProps['markerColour'];
  /** The screen's class prefix: `${prefix}-canvas`, `${prefix}-canvas-loading`, `${prefix}-floor-canvas`. */
  classPrefix: string;
  testId: string;
}

/** A floor's blueprint and zones, loaded, under its live worker markers. */
export function LiveFloorPlan({ floor, workers$, markerColour, classPrefix, testId }: LiveFloorPlanProps) {
  const { t } = useTranslation();
  const api = useApi();
  const tokenSource = useTokenSource();
  const blueprint = useQuery({
    ...blueprintQuery(tokenSource, floor),
    enabled: floor.media_url !== null,
  });
  const zones = useQuery(zonesQuery(api, floor.id));
  const floorPlace = useFloorPlace(floor);
  const [zones$] = useState(() => new BehaviorSubject<readonly Zone[]>([]));
  useEffect(() => zones$.next(zones.data ?? []), [zones$, zones.data]);

  return (
    <div className={`${classPrefix}-canvas`} data-testid={testId}>
      {blueprint.isError && (
        <Callout intent="danger" compact icon="error" data-testid="blueprint-error">
          {t('maps.blueprintError')}
        </Callout>
      )}
      {blueprint.isPending && floor.media_url !== null && (
        <Spinner
          className={`${classPrefix}-canvas-loading`}
          size={20}
          aria-label={t('maps.blueprintLoading')}
        />
      )}
      <FloorCanvas
        className={`${classPrefix}-floor-canvas`}
        floor={floor}
        floorPlace={floorPlace}
        blueprint={blueprint.data ?? null}
        zones$={zones$}
        workers$={workers$}
        markerColour={markerColour}
      />
    </div>
  );
}
