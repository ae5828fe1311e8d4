import { Card, FormGroup, HTMLSelect, Spinner } from '@blueprintjs/core';
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import type { Observable } from 'rxjs';
import type { Floor } from '../../domain/floor';
import type { Building } from '../../domain/user';
import type { WorkerMap } from '../../streams/workerMapState';
import { importWhenOnline } from '../shared/importWhenOnline';

// The canvas (and Pixi with it) is a chunk of its own: the dashboard's counts show without waiting for it.
const LiveFloorPlan = lazy(async () => ({
  default: (await importWhenOnline(() => import('../canvas/LiveFloorPlan'))).LiveFloorPlan,
}));

interface LiveFloorProps {
  buildings: readonly Building[];
  building: Building | null;
  floors: readonly Floor[];
  floor: Floor | null;
  onSelectBuilding(id: number): void;
  onSelectFloor(id: number): void;
  workers$: Observable<WorkerMap>;
}

/** The floor picker (building, then floor) and the chosen floor's live canvas. */
export function LiveFloor(props: LiveFloorProps) {
  const { buildings, building, floors, floor, workers$ } = props;
  const { t } = useTranslation();
  const own = building ? floors.filter((f) => f.building_id === building.id) : [];
  return (
    <Card className="sw-dashboard-panel sw-dashboard-live-floor" data-testid="dashboard-live-floor">
      <div className="sw-dashboard-floor-picker">
        <FormGroup label={t('screen.dashboard.floorPicker.building')} inline>
          <HTMLSelect
            data-testid="dashboard-building-picker"
            value={building?.id ?? ''}
            onChange={(e) => props.onSelectBuilding(Number(e.currentTarget.value))}
            options={buildings.map((b) => ({ value: b.id, label: b.name }))}
          />
        </FormGroup>
        <FormGroup label={t('screen.dashboard.floorPicker.floor')} inline>
          <HTMLSelect
            data-testid="dashboard-floor-picker"
            value={floor?.id ?? ''}
            disabled={own.length === 0}
            onChange={(e) => props.onSelectFloor(Number(e.currentTarget.value))}
            options={own.map((f) => ({ value: f.id, label: f.name }))}
          />
        </FormGroup>
      </div>
      {floor ? (
        <Suspense fallback={<Spinner aria-label={t('common.loading')} />}>
          <LiveFloorPlan
            floor={floor}
            workers$={workers$}
            classPrefix="sw-dashboard"
            testId="dashboard-canvas"
          />
        </Suspense>
      ) : (
        <p className="sw-dashboard-empty">{t('screen.dashboard.noFloors')}</p>
      )}
    </Card>
  );
}
