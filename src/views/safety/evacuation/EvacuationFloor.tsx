import { Callout, FormGroup, HTMLSelect, Spinner } from '@blueprintjs/core';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { BehaviorSubject, type Observable } from 'rxjs';
import { blueprintQuery, zonesQuery } from '../../../api/floors';
import { EVACUATION_COLOURS, EVACUATION_STATUSES, type EvacuationWorker } from '../../../domain/evacuation';
import type { Floor, Zone } from '../../../domain/floor';
import type { WorkerOnMap } from '../../../domain/inventory';
import { evacuationMarkers$, isEvacuationMarker } from '../../../streams/evacuation.stream';
import type { WorkerMap } from '../../../streams/workerMapState';
import { FloorCanvas } from '../../canvas/FloorCanvas';
import { connectionColour } from '../../canvas/scene';
import { useApi } from '../../session/SessionProvider';
import { browserStorage, readToken } from '../../session/storedSession';
import { cssColour } from './evacuationFormat';

const BLUEPRINT_SOURCE = { baseUrl: '/api', getToken: () => readToken(browserStorage()) };

/** Included workers in their evacuation colour; every other helmet as on the dashboard. */
function evacuationColour(worker: WorkerOnMap): number {
  return isEvacuationMarker(worker) ? EVACUATION_COLOURS[worker.status] : connectionColour(worker);
}

interface EvacuationFloorProps {
  /** The site's floors, highest first. */
  floors: readonly Floor[];
  /** Shown first until another floor is picked: the evacuated floors while one runs. */
  preferredFloorIds: readonly number[];
  siteLive$: Observable<WorkerMap>;
  included$: Observable<ReadonlyMap<number, EvacuationWorker>>;
  /** While an evacuation runs the markers take its colours, and the legend explains them. */
  inEvacuation: boolean;
}

/** The live floor canvas of one chosen floor, markers in evacuation colours, with a legend. */
export function EvacuationFloor({
  floors,
  preferredFloorIds,
  siteLive$,
  included$,
  inEvacuation,
}: EvacuationFloorProps) {
  const { t } = useTranslation();
  const [pickedId, setPickedId] = useState<number | null>(null);
  const floor =
    floors.find((f) => f.id === pickedId) ??
    floors.find((f) => preferredFloorIds.includes(f.id)) ??
    floors[0] ??
    null;
  return (
    <section
      className="sw-evac-floor"
      data-testid="evacuation-floor"
      aria-label={t('evacuation.floor.label')}
    >
      <div className="sw-evac-floor__bar">
        <FormGroup label={t('evacuation.floor.picker')} labelFor="sw-evac-floor-picker" inline>
          <HTMLSelect
            id="sw-evac-floor-picker"
            data-testid="evacuation-floor-picker"
            value={floor?.id ?? ''}
            disabled={floors.length === 0}
            onChange={(event) => setPickedId(Number(event.currentTarget.value))}
            options={floors.map((f) => ({ value: f.id, label: f.name }))}
          />
        </FormGroup>
        {/* Outside an evacuation the markers have their usual colours: this legend would mislead. */}
        {inEvacuation && (
          <ul className="sw-evac-legend" aria-label={t('evacuation.floor.legend')}>
            {EVACUATION_STATUSES.map((status) => (
              <li key={status}>
                <span
                  className="sw-evac-swatch"
                  style={{ background: cssColour(EVACUATION_COLOURS[status]) }}
                />
                {t(`evacuation.status.${status}`)}
              </li>
            ))}
          </ul>
        )}
      </div>
      {floor ? (
        <FloorPlan key={floor.id} floor={floor} siteLive$={siteLive$} included$={included$} />
      ) : (
        <p className="sw-evac-empty">{t('evacuation.floor.none')}</p>
      )}
    </section>
  );
}

function FloorPlan({
  floor,
  siteLive$,
  included$,
}: {
  floor: Floor;
  siteLive$: Observable<WorkerMap>;
  included$: Observable<ReadonlyMap<number, EvacuationWorker>>;
}) {
  const { t } = useTranslation();
  const api = useApi();
  const blueprint = useQuery({
    ...blueprintQuery(BLUEPRINT_SOURCE, floor),
    enabled: floor.media_url !== null,
  });
  const zones = useQuery(zonesQuery(api, floor.id));
  const [zones$] = useState(() => new BehaviorSubject<readonly Zone[]>([]));
  useEffect(() => zones$.next(zones.data ?? []), [zones$, zones.data]);
  const workers$ = useMemo(
    () => evacuationMarkers$(floor.id, siteLive$, included$),
    [floor.id, siteLive$, included$],
  );

  return (
    <div className="sw-evac-canvas" data-testid="evacuation-canvas">
      {blueprint.isError && (
        <Callout intent="danger" compact icon="error">
          {t('maps.blueprintError')}
        </Callout>
      )}
      {blueprint.isPending && floor.media_url !== null && (
        <Spinner className="sw-evac-canvas-loading" size={20} aria-label={t('maps.blueprintLoading')} />
      )}
      <FloorCanvas
        className="sw-evac-floor-canvas"
        floor={floor}
        blueprint={blueprint.data ?? null}
        zones$={zones$}
        workers$={workers$}
        markerColour={evacuationColour}
      />
    </div>
  );
}
