import { Button, NonIdealState, Spinner, Tag } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import type { Floor } from '../../domain/floor';
import type { Building } from '../../domain/user';
import { ItemActions } from './ItemActions';

interface BuildingListProps {
  buildings: readonly Building[];
  selectedId: number | null;
  loading: boolean;
  onSelect(id: number): void;
}

/** The selected site's buildings; picking one is the same as the header's building picker. */
export function BuildingList({ buildings, selectedId, loading, onSelect }: BuildingListProps) {
  const { t } = useTranslation();
  return (
    <nav className="sw-maps-section" aria-label={t('maps.buildings')} data-testid="building-list">
      <h2 className="sw-maps-heading">{t('maps.buildings')}</h2>
      {loading ? (
        <Spinner size={20} aria-label={t('common.loading')} />
      ) : buildings.length === 0 ? (
        <p className="sw-maps-empty">{t('maps.noBuildings')}</p>
      ) : (
        <ul className="sw-maps-list">
          {buildings.map((building) => (
            <li key={building.id} className="sw-maps-item" data-testid="building-item">
              <button
                type="button"
                className="sw-maps-pick"
                aria-pressed={building.id === selectedId}
                onClick={() => onSelect(building.id)}
              >
                <span className="sw-maps-item-name">{building.name}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </nav>
  );
}

interface FloorListProps {
  floors: readonly Floor[];
  selectedId: number | null;
  loading: boolean;
  canWrite: boolean;
  busyFloorId: number | null;
  onSelect(id: number): void;
  onCreate(): void;
  onEdit(floor: Floor): void;
  onDuplicate(floor: Floor): void;
  onDelete(floor: Floor): void;
}

/** The building's floors, in the order of spec §2 (the fetcher sorts them), with live worker counts. */
export function FloorList(props: FloorListProps) {
  const { floors, selectedId, loading, canWrite, busyFloorId } = props;
  const { t } = useTranslation();
  return (
    <nav className="sw-maps-section" aria-label={t('maps.floors')} data-testid="floor-list">
      <div className="sw-maps-panel-head">
        <h2 className="sw-maps-heading">{t('maps.floors')}</h2>
        {canWrite && (
          <Button
            icon="add"
            size="small"
            intent="primary"
            text={t('maps.newFloor')}
            data-testid="floor-new"
            onClick={props.onCreate}
          />
        )}
      </div>
      {loading ? (
        <Spinner size={20} aria-label={t('common.loading')} />
      ) : floors.length === 0 ? (
        <NonIdealState icon="layers" description={t('maps.noFloors')} />
      ) : (
        <ul className="sw-maps-list">
          {floors.map((floor) => (
            <li
              key={floor.id}
              className="sw-maps-item"
              data-testid="floor-item"
              data-floor-id={floor.id}
              data-selected={floor.id === selectedId || undefined}
            >
              <button
                type="button"
                className="sw-maps-pick"
                aria-pressed={floor.id === selectedId}
                data-testid="floor-select"
                onClick={() => props.onSelect(floor.id)}
              >
                <span className="sw-maps-item-name">{floor.name}</span>
                <span className="sw-maps-item-meta">
                  <span>{t('maps.altitude', { altitude: floor.altitude.toLocaleString('en-US') })}</span>
                  <Tag
                    minimal
                    round
                    icon="person"
                    intent={floor.online_active_worker_count > 0 ? 'success' : 'none'}
                    title={t('maps.onlineWorkers', { count: floor.online_active_worker_count })}
                    data-testid="floor-workers"
                  >
                    {floor.online_active_worker_count.toLocaleString('en-US')}
                  </Tag>
                </span>
              </button>
              {canWrite && (
                <ItemActions
                  actions={[
                    {
                      icon: 'edit',
                      label: `${t('maps.edit')} ${floor.name}`,
                      testId: 'floor-edit',
                      onClick: () => props.onEdit(floor),
                    },
                    {
                      icon: 'duplicate',
                      label: `${t('maps.duplicate')} ${floor.name}`,
                      testId: 'floor-duplicate',
                      loading: busyFloorId === floor.id,
                      onClick: () => props.onDuplicate(floor),
                    },
                    {
                      icon: 'trash',
                      intent: 'danger',
                      label: `${t('maps.delete')} ${floor.name}`,
                      testId: 'floor-delete',
                      onClick: () => props.onDelete(floor),
                    },
                  ]}
                />
              )}
            </li>
          ))}
        </ul>
      )}
    </nav>
  );
}
