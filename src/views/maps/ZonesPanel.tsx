import { Button, Callout, FormGroup, HTMLSelect, InputGroup, NonIdealState, Tag } from '@blueprintjs/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { deleteZone, renameZone, zonesQuery } from '../../api/floors';
import { type Floor, type LongLat, ZONE_KINDS, type Zone, type ZoneKind } from '../../domain/floor';
import { cornerRing } from '../../domain/floorValidation';
import { notify } from '../notify';
import { useApi } from '../session/SessionProvider';
import { DrawingCallout, NamingButtons, type ShapeDrawingTexts } from '../shared/ShapeDrawingControls';
import { ConfirmDeleteAlert } from './ConfirmDeleteAlert';
import { ItemActions } from './ItemActions';
import { errorMessageOf, reportError } from './mapsErrors';
import type { ZoneDrawing } from './useZoneDrawing';
import { filterZones } from './zoneSearch';

interface ZonesPanelProps {
  floor: Floor;
  zones: readonly Zone[];
  loading: boolean;
  canWrite: boolean;
  selectedZoneId: number | null;
  onSelectZone(id: number | null): void;
  drawing: ZoneDrawing;
}

/** The selected floor's zones: search, select, rename and delete, and drawing a new one. */
export function ZonesPanel({
  floor,
  zones,
  loading,
  canWrite,
  selectedZoneId,
  onSelectZone,
  drawing,
}: ZonesPanelProps) {
  const { t } = useTranslation();
  const api = useApi();
  const queryClient = useQueryClient();
  const searchId = useId();
  const [query, setQuery] = useState('');
  const [renaming, setRenaming] = useState<{ zone: Zone; name: string } | null>(null);
  const [deleting, setDeleting] = useState<Zone | null>(null);
  const zonesKey = zonesQuery(api, floor.id).queryKey;

  const rename = useMutation({
    mutationFn: ({ zone, name }: { zone: Zone; name: string }) => renameZone(api, zone, name),
    onSuccess: (zone) => {
      queryClient.setQueryData(zonesKey, (known) =>
        known?.map((item) => (item.id === zone.id ? zone : item)),
      );
      void notify({ message: t('maps.toast.zoneRenamed'), intent: 'success' });
      setRenaming(null);
    },
  });
  const remove = useMutation({
    mutationFn: (zone: Zone) => deleteZone(api, zone.floor_id, zone.id),
    onSuccess: (_, zone) => {
      queryClient.setQueryData(zonesKey, (known) => known?.filter((item) => item.id !== zone.id));
      void queryClient.invalidateQueries({ queryKey: zonesKey });
      void notify({ message: t('maps.toast.zoneDeleted'), intent: 'success' });
      if (selectedZoneId === zone.id) onSelectZone(null);
      setDeleting(null);
    },
    onError: (error) => {
      reportError(error, t('common.somethingWentWrong'));
      setDeleting(null);
    },
  });

  const shown = filterZones(zones, query);
  const editing = drawing.phase !== 'idle';

  function submitRename(event: FormEvent) {
    event.preventDefault();
    if (!renaming || renaming.name.trim() === '' || rename.isPending) return;
    rename.mutate({ zone: renaming.zone, name: renaming.name });
  }

  return (
    <aside className="sw-maps-zones" data-testid="zones-panel" aria-label={t('maps.zones')}>
      <div className="sw-maps-panel-head">
        <h2 className="sw-maps-heading">{t('maps.zones')}</h2>
        {canWrite && (
          <Button
            icon="draw"
            intent="primary"
            size="small"
            text={t('maps.zone.draw')}
            disabled={!drawing.canStart}
            data-testid="zone-draw"
            onClick={() => {
              onSelectZone(null);
              drawing.send({ type: 'draw.start', floor: floorRing(floor) });
            }}
          />
        )}
      </div>

      {canWrite && editing && <DrawingControls drawing={drawing} />}

      <FormGroup label={t('maps.zone.search')} labelFor={searchId} className="sw-maps-search">
        <InputGroup
          id={searchId}
          type="search"
          leftIcon="search"
          value={query}
          onValueChange={setQuery}
          data-testid="zone-search"
        />
      </FormGroup>

      {shown.length === 0 && !loading ? (
        <NonIdealState
          icon="polygon-filter"
          description={zones.length === 0 ? t('maps.zone.noZones') : t('maps.zone.noMatch')}
        />
      ) : (
        <ul className="sw-maps-list" data-testid="zone-list">
          {shown.map((zone) => (
            <li
              key={zone.id}
              className="sw-maps-item"
              data-testid="zone-item"
              data-zone-id={zone.id}
              data-selected={zone.id === selectedZoneId || undefined}
            >
              {renaming?.zone.id === zone.id ? (
                <form className="sw-maps-rename" onSubmit={submitRename}>
                  <InputGroup
                    autoFocus
                    size="small"
                    value={renaming.name}
                    aria-label={t('maps.zone.newName', { name: zone.name })}
                    intent={rename.error ? 'danger' : 'none'}
                    data-testid="zone-rename-input"
                    onValueChange={(name) => {
                      rename.reset();
                      setRenaming({ zone, name });
                    }}
                    onKeyDown={(event) => {
                      if (event.key === 'Escape') setRenaming(null);
                    }}
                  />
                  <Button
                    type="submit"
                    size="small"
                    intent="primary"
                    icon="tick"
                    aria-label={t('maps.save')}
                    loading={rename.isPending}
                    disabled={renaming.name.trim() === ''}
                    data-testid="zone-rename-save"
                  />
                  <Button
                    size="small"
                    icon="cross"
                    aria-label={t('common.cancel')}
                    onClick={() => setRenaming(null)}
                  />
                  {rename.error && (
                    <span className="sw-maps-error" role="alert">
                      {errorMessageOf(rename.error, t('common.somethingWentWrong'))}
                    </span>
                  )}
                </form>
              ) : (
                <>
                  <button
                    type="button"
                    className="sw-maps-pick"
                    aria-pressed={zone.id === selectedZoneId}
                    data-testid="zone-select"
                    onClick={() => onSelectZone(zone.id === selectedZoneId ? null : zone.id)}
                  >
                    <span className="sw-maps-item-name">{zone.name}</span>
                    <Tag minimal className={`sw-zone-kind sw-zone-kind--${zone.kind}`}>
                      {t(`maps.zone.kinds.${zone.kind}`)}
                    </Tag>
                  </button>
                  {canWrite && (
                    <ItemActions
                      actions={[
                        {
                          icon: 'edit',
                          label: `${t('maps.zone.rename')} ${zone.name}`,
                          testId: 'zone-rename',
                          onClick: () => {
                            rename.reset();
                            setRenaming({ zone, name: zone.name });
                          },
                        },
                        {
                          icon: 'trash',
                          intent: 'danger',
                          label: `${t('maps.delete')} ${zone.name}`,
                          testId: 'zone-delete',
                          onClick: () => setDeleting(zone),
                        },
                      ]}
                    />
                  )}
                </>
              )}
            </li>
          ))}
        </ul>
      )}

      <ConfirmDeleteAlert
        label={deleting?.name ?? null}
        busy={remove.isPending}
        onCancel={() => setDeleting(null)}
        onConfirm={() => deleting && remove.mutate(deleting)}
      />
    </aside>
  );
}

/** The floor's corner ring a → b → c → d in [long, lat]: the drawing machine keeps vertices inside. */
function floorRing(floor: Floor): LongLat[] {
  return cornerRing(floor.coordinates).map(([long, lat]): LongLat => [long, lat]);
}

/** While drawing: undo, finish and cancel; while naming: the name and kind, then save. */
const ZONE_DRAWING_TEXTS: ShapeDrawingTexts = {
  keyPrefix: 'maps.zone',
  saveKey: 'maps.zone.saveZone',
  testId: 'zone',
  className: 'sw-maps-drawing',
  buttonsClassName: 'sw-maps-buttons',
};

function DrawingControls({ drawing }: { drawing: ZoneDrawing }) {
  const { t } = useTranslation();
  const nameId = useId();
  const kindId = useId();
  const { phase, send } = drawing;

  if (phase === 'drawing') {
    return (
      <DrawingCallout
        texts={ZONE_DRAWING_TEXTS}
        points={drawing.vertices.length}
        canUndo={drawing.canUndo}
        canFinish={drawing.canClose}
        onUndo={() => send({ type: 'draw.undo' })}
        onFinish={() => send({ type: 'draw.close' })}
        onCancel={() => send({ type: 'draw.cancel' })}
      />
    );
  }

  const submit = (event: FormEvent) => {
    event.preventDefault();
    send({ type: 'name.submit' });
  };
  return (
    <form className="sw-maps-drawing" onSubmit={submit} data-testid="zone-naming">
      {drawing.error && (
        <Callout intent="danger" compact data-testid="zone-naming-error">
          {drawing.error}
        </Callout>
      )}
      <FormGroup label={t('maps.zone.name')} labelFor={nameId}>
        <InputGroup
          id={nameId}
          autoFocus
          value={drawing.name}
          disabled={drawing.busy}
          data-testid="zone-name-input"
          onValueChange={(name) => send({ type: 'name.change', name })}
        />
      </FormGroup>
      <FormGroup label={t('maps.zone.kind')} labelFor={kindId}>
        <HTMLSelect
          id={kindId}
          fill
          value={drawing.kind}
          disabled={drawing.busy}
          data-testid="zone-kind-select"
          onChange={(event) => send({ type: 'kind.change', kind: event.currentTarget.value as ZoneKind })}
          options={ZONE_KINDS.map((kind) => ({ value: kind, label: t(`maps.zone.kinds.${kind}`) }))}
        />
      </FormGroup>
      <NamingButtons
        texts={ZONE_DRAWING_TEXTS}
        busy={drawing.busy}
        canSubmit={drawing.canSubmit}
        onBack={() => send({ type: 'draw.resume' })}
        onCancel={() => send({ type: 'draw.cancel' })}
      />
    </form>
  );
}
