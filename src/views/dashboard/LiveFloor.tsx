import { Callout, Card, FormGroup, HTMLSelect, Spinner } from '@blueprintjs/core';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { BehaviorSubject, type Observable } from 'rxjs';
import { blueprintQuery, zonesQuery } from '../../api/floors';
import type { Floor, Zone } from '../../domain/floor';
import type { Building } from '../../domain/user';
import type { WorkerMap } from '../../streams/workerMapState';
import { FloorCanvas } from '../canvas/FloorCanvas';
import { useApi } from '../session/SessionProvider';
import { browserStorage, readToken } from '../session/storedSession';

const BLUEPRINT_SOURCE = { baseUrl: '/api', getToken: () => readToken(browserStorage()) };

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
        <FloorPlan floor={floor} workers$={workers$} />
      ) : (
        <p className="sw-dashboard-empty">{t('screen.dashboard.noFloors')}</p>
      )}
    </Card>
  );
}

function FloorPlan({ floor, workers$ }: { floor: Floor; workers$: Observable<WorkerMap> }) {
  const { t } = useTranslation();
  const api = useApi();
  const blueprint = useQuery({
    ...blueprintQuery(BLUEPRINT_SOURCE, floor),
    enabled: floor.media_url !== null,
  });
  const zones = useQuery(zonesQuery(api, floor.id));
  const [zones$] = useState(() => new BehaviorSubject<readonly Zone[]>([]));
  useEffect(() => zones$.next(zones.data ?? []), [zones$, zones.data]);

  return (
    <div className="sw-dashboard-canvas" data-testid="dashboard-canvas">
      {blueprint.isError && (
        <Callout intent="danger" compact icon="error" data-testid="blueprint-error">
          {t('maps.blueprintError')}
        </Callout>
      )}
      {blueprint.isPending && floor.media_url !== null && (
        <Spinner className="sw-dashboard-canvas-loading" size={20} aria-label={t('maps.blueprintLoading')} />
      )}
      <FloorCanvas
        className="sw-dashboard-floor-canvas"
        floor={floor}
        blueprint={blueprint.data ?? null}
        zones$={zones$}
        workers$={workers$}
      />
    </div>
  );
}
