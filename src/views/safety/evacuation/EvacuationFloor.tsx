import { FormGroup, HTMLSelect } from '@blueprintjs/core';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Observable } from 'rxjs';
import { EVACUATION_COLOURS, EVACUATION_STATUSES, type EvacuationWorker } from '../../../domain/evacuation';
import type { Floor } from '../../../domain/floor';
import type { WorkerOnMap } from '../../../domain/inventory';
import { floorPlaceNames, type NamedBuilding } from '../../../domain/placeNames';
import { evacuationMarkers$, isEvacuationMarker } from '../../../streams/evacuation.stream';
import type { WorkerMap } from '../../../streams/workerMapState';
import { LiveFloorPlan } from '../../canvas/LiveFloorPlan';
import { connectionColour } from '../../canvas/scene';
import { cssColour } from './evacuationFormat';

/** Included workers in their evacuation colour; every other helmet as on the dashboard. */
function evacuationColour(worker: WorkerOnMap): number {
  return isEvacuationMarker(worker) ? EVACUATION_COLOURS[worker.status] : connectionColour(worker);
}

interface EvacuationFloorProps {
  /** The site's floors, highest first. */
  floors: readonly Floor[];
  /** Their buildings, to name each floor with its own. */
  buildings: readonly NamedBuilding[];
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
  buildings,
  preferredFloorIds,
  siteLive$,
  included$,
  inEvacuation,
}: EvacuationFloorProps) {
  const { t } = useTranslation();
  const [pickedId, setPickedId] = useState<number | null>(null);
  const placeOf = floorPlaceNames(floors, buildings);
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
            options={floors.map((f) => ({ value: f.id, label: placeOf(f.id) ?? f.name }))}
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
  const workers$ = useMemo(
    () => evacuationMarkers$(floor.id, siteLive$, included$),
    [floor.id, siteLive$, included$],
  );
  return (
    <LiveFloorPlan
      floor={floor}
      workers$={workers$}
      markerColour={evacuationColour}
      classPrefix="sw-evac"
      testId="evacuation-canvas"
    />
  );
}
