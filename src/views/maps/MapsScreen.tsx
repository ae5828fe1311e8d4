import './maps.css';
import { NonIdealState, Spinner, Tag } from '@blueprintjs/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type Observable, of } from 'rxjs';
import { deleteFloor, duplicateFloor, floorsQuery, zonesQuery } from '../../api/floors';
import { can } from '../../domain/access';
import { compareFloors, type Floor } from '../../domain/floor';
import type { Building } from '../../domain/user';
import type { WorkerMap } from '../../streams/workerMapState';
import { useLiveWorkers } from '../canvas/useLiveWorkers';
import { notify } from '../notify';
import { ScreenTitle } from '../screens/ScreenTitle';
import { useApi, useSession } from '../session/SessionProvider';
import { useSelection } from '../shell/selection';
import { ConfirmDeleteAlert } from './ConfirmDeleteAlert';
import { FloorDialog } from './FloorDialog';
import { BuildingList, FloorList } from './FloorList';
import { FloorView } from './FloorView';
import { reportError } from './mapsErrors';
import { useLiveWorkersShown } from './useLiveWorkersShown';
import { useZoneDrawing, type ZoneDrawing } from './useZoneDrawing';
import { ZoneDetails } from './ZoneDetails';
import { ZonesPanel } from './ZonesPanel';

const NO_ZONES: never[] = [];
/** With the live workers hidden the canvas gets an empty map, which clears the markers drawn. */
const NO_WORKERS$: Observable<WorkerMap> = of(new Map());

/** Maps & Zones (/maps): buildings, their floors and each floor's zones on the canvas. */
export function MapsScreen() {
  const { t } = useTranslation();
  const { user } = useSession();
  const canWrite = user ? can(user.user_role, 'write', 'maps') : false;
  const { site, buildings, building, loading, selectBuilding } = useSelection();

  const buildingList = (
    <BuildingList
      buildings={buildings}
      selectedId={building?.id ?? null}
      loading={loading.buildings}
      onSelect={selectBuilding}
    />
  );

  return (
    <section className="sw-maps" data-testid="maps-screen">
      <div className="sw-maps-title">
        <ScreenTitle>{t('screen.maps')}</ScreenTitle>
        {!canWrite && (
          <Tag minimal icon="eye-open" data-testid="maps-read-only">
            {t('maps.viewOnly')}
          </Tag>
        )}
      </div>
      {!site ? (
        loading.clients || loading.sites ? (
          <Spinner aria-label={t('common.loading')} />
        ) : (
          <NonIdealState icon="office" description={t('maps.noSite')} />
        )
      ) : (
        // A building's floors and the picked floor start afresh with each building.
        <BuildingMaps
          key={building?.id ?? 'none'}
          building={building}
          canWrite={canWrite}
          side={buildingList}
        />
      )}
    </section>
  );
}

interface BuildingMapsProps {
  building: Building | null;
  canWrite: boolean;
  side: ReactNode;
}

function BuildingMaps({ building, canWrite, side }: BuildingMapsProps) {
  const { t } = useTranslation();
  const api = useApi();
  const queryClient = useQueryClient();
  const buildingId = building?.id ?? 0;
  const floorsKey = floorsQuery(api, buildingId).queryKey;
  const floors = useQuery({ ...floorsQuery(api, buildingId), enabled: building !== null });
  const [pickedFloorId, setPickedFloorId] = useState<number | null>(null);
  const [dialog, setDialog] = useState<{ floor: Floor | null } | null>(null);
  const [deleting, setDeleting] = useState<Floor | null>(null);

  const list = floors.data ?? [];
  const floor = list.find((item) => item.id === pickedFloorId) ?? list[0] ?? null;

  const remember = (saved: Floor) =>
    queryClient.setQueryData(floorsKey, (known) =>
      [...(known ?? []).filter((item) => item.id !== saved.id), saved].sort(compareFloors),
    );

  const duplicate = useMutation({
    mutationFn: (source: Floor) => duplicateFloor(api, buildingId, source.id),
    onSuccess: (copy) => {
      remember(copy);
      setPickedFloorId(copy.id);
      void notify({ message: t('maps.toast.floorDuplicated'), intent: 'success' });
    },
    onError: (error) => reportError(error, t('common.somethingWentWrong')),
  });

  const remove = useMutation({
    mutationFn: (target: Floor) => deleteFloor(api, buildingId, target.id),
    onSuccess: (remaining, target) => {
      // Spec §4: the first remaining floor becomes the selected one.
      queryClient.setQueryData(floorsKey, remaining);
      queryClient.removeQueries({ queryKey: zonesQuery(api, target.id).queryKey });
      setPickedFloorId(remaining[0]?.id ?? null);
      setDeleting(null);
      void notify({ message: t('maps.toast.floorDeleted'), intent: 'success' });
    },
    onError: (error) => {
      setDeleting(null);
      reportError(error, t('common.somethingWentWrong'));
    },
  });

  return (
    <div className="sw-maps-layout">
      <div className="sw-maps-side">
        {side}
        {building && (
          <FloorList
            floors={list}
            selectedId={floor?.id ?? null}
            loading={floors.isPending}
            canWrite={canWrite}
            busyFloorId={duplicate.isPending ? (duplicate.variables?.id ?? null) : null}
            onSelect={setPickedFloorId}
            onCreate={() => setDialog({ floor: null })}
            onEdit={(target) => setDialog({ floor: target })}
            onDuplicate={(target) => duplicate.mutate(target)}
            onDelete={setDeleting}
          />
        )}
      </div>
      {floor ? (
        <FloorWorkspace key={floor.id} floor={floor} canWrite={canWrite} />
      ) : (
        <div className="sw-maps-main">
          <NonIdealState
            icon="layers"
            description={building ? t('maps.noFloorSelected') : t('maps.noBuildings')}
          />
        </div>
      )}
      {dialog && building && (
        <FloorDialog
          buildingId={building.id}
          floor={dialog.floor}
          onClose={() => setDialog(null)}
          onSaved={(saved) => {
            remember(saved);
            setPickedFloorId(saved.id);
            setDialog(null);
          }}
        />
      )}
      <ConfirmDeleteAlert
        label={deleting?.name ?? null}
        busy={remove.isPending}
        onCancel={() => setDeleting(null)}
        onConfirm={() => deleting && remove.mutate(deleting)}
      />
    </div>
  );
}

/** One floor: the canvas with its live workers, its zones panel and the selected zone's details. */
function FloorWorkspace({ floor, canWrite }: { floor: Floor; canWrite: boolean }) {
  const api = useApi();
  const { site } = useSelection();
  const [liveShown, setLiveShown] = useLiveWorkersShown();
  // Hidden, the floor's feed is left: no socket traffic nor poll for markers nobody sees.
  const live = useLiveWorkers(site?.id ?? null, floor.id, liveShown);
  const zones = useQuery(zonesQuery(api, floor.id));
  const [selectedZoneId, setSelectedZoneId] = useState<number | null>(null);
  const drawing = useZoneDrawing(floor, (zone) => setSelectedZoneId(zone.id));
  useDrawingKeys(drawing);

  const list = zones.data ?? NO_ZONES;
  const selected =
    drawing.phase === 'idle' ? (list.find((zone) => zone.id === selectedZoneId) ?? null) : null;

  return (
    <>
      <div className="sw-maps-main">
        <FloorView
          floor={floor}
          zones={list}
          selectedZoneId={selectedZoneId}
          onSelectZone={setSelectedZoneId}
          drawing={drawing}
          workers$={liveShown ? live.workers$ : NO_WORKERS$}
          liveShown={liveShown}
          onLiveShown={setLiveShown}
        />
      </div>
      <ZonesPanel
        floor={floor}
        zones={list}
        loading={zones.isPending}
        canWrite={canWrite}
        selectedZoneId={selectedZoneId}
        onSelectZone={setSelectedZoneId}
        drawing={drawing}
      />
      <ZoneDetails zone={selected} onClose={() => setSelectedZoneId(null)} />
    </>
  );
}

function isTyping(target: EventTarget | null): boolean {
  return (
    target instanceof HTMLElement &&
    (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT', 'BUTTON'].includes(target.tagName))
  );
}

/** Escape discards the drawing; while drawing, Enter finishes and Ctrl/⌘+Z or Backspace undoes. */
function useDrawingKeys({ phase, send }: ZoneDrawing) {
  useEffect(() => {
    if (phase === 'idle') return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        send({ type: 'draw.cancel' });
        return;
      }
      if (phase !== 'drawing' || isTyping(event.target)) return;
      if (event.key === 'Enter') {
        event.preventDefault();
        send({ type: 'draw.close' });
      } else if (event.key === 'Backspace' || (event.key === 'z' && (event.ctrlKey || event.metaKey))) {
        event.preventDefault();
        send({ type: 'draw.undo' });
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [phase, send]);
}
