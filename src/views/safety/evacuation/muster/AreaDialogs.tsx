import { Button, Checkbox, Dialog, DialogBody, DialogFooter, FormGroup, HTMLSelect } from '@blueprintjs/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Evacuation } from '../../../../domain/evacuation';
import type { Floor, Zone } from '../../../../domain/floor';
import { zonePlaceName } from '../../../../domain/placeNames';

interface AreaDialogProps {
  isOpen: boolean;
  evacuation: Evacuation;
  floors: readonly Floor[];
  zones: readonly Zone[];
  floorPlace(floorId: number | null): string | null;
  busy: boolean;
  portalContainer?: HTMLElement;
  onClose(): void;
}

const zoneLabel = (zone: Zone, floorPlace: (id: number) => string | null) =>
  zonePlaceName(zone.name, floorPlace(zone.floor_id));

/** Phased evacuation: floors and zones not yet evacuated, added to the running one. */
export function ExtendAreaDialog(
  props: AreaDialogProps & { onExtend(area: { floorIds: number[]; zoneIds: number[] }): void },
) {
  const { isOpen, evacuation, floors, zones, floorPlace, busy, portalContainer, onClose, onExtend } = props;
  const { t } = useTranslation();
  const [floorIds, setFloorIds] = useState<number[]>([]);
  const [zoneIds, setZoneIds] = useState<number[]>([]);
  const freeFloors = floors.filter((floor) => !evacuation.floorIds.includes(floor.id));
  const freeZones = zones.filter(
    (zone) =>
      zone.kind !== 'assembly' &&
      !evacuation.zoneIds.includes(zone.id) &&
      !evacuation.floorIds.includes(zone.floor_id),
  );
  const toggle = (ids: number[], id: number, on: boolean) =>
    on ? [...ids, id] : ids.filter((x) => x !== id);
  return (
    <Dialog
      isOpen={isOpen}
      title={t('evacuation.marshal.extendTitle')}
      onClose={onClose}
      portalContainer={portalContainer}
      className="sw-evac-dialog"
    >
      <form
        data-testid="extend-area-dialog"
        onSubmit={(event) => {
          event.preventDefault();
          onExtend({ floorIds, zoneIds });
          setFloorIds([]);
          setZoneIds([]);
        }}
      >
        <DialogBody>
          <fieldset className="sw-evac-fieldset">
            <legend>{t('evacuation.start.floors')}</legend>
            {freeFloors.map((floor) => (
              <Checkbox
                key={floor.id}
                checked={floorIds.includes(floor.id)}
                label={floorPlace(floor.id) ?? floor.name}
                data-floor-id={floor.id}
                onChange={(event) => {
                  const on = event.currentTarget.checked;
                  setFloorIds((ids) => toggle(ids, floor.id, on));
                }}
              />
            ))}
          </fieldset>
          <fieldset className="sw-evac-fieldset">
            <legend>{t('evacuation.start.zones')}</legend>
            {freeZones.map((zone) => (
              <Checkbox
                key={zone.id}
                checked={zoneIds.includes(zone.id)}
                label={zoneLabel(zone, floorPlace)}
                onChange={(event) => {
                  const on = event.currentTarget.checked;
                  setZoneIds((ids) => toggle(ids, zone.id, on));
                }}
              />
            ))}
          </fieldset>
        </DialogBody>
        <DialogFooter
          actions={
            <>
              <Button text={t('evacuation.marshal.cancel')} onClick={onClose} />
              <Button
                type="submit"
                intent="danger"
                icon="warning-sign"
                text={t('evacuation.marshal.extendSubmit')}
                disabled={floorIds.length === 0 && zoneIds.length === 0}
                loading={busy}
                data-testid="extend-area-submit"
              />
            </>
          }
        />
      </form>
    </Dialog>
  );
}

/** An assembly zone found unsafe: its people are sent to another zone (a command to their helmets). */
export function RedirectDialog(
  props: AreaDialogProps & {
    onRedirect(zones: { unsafeZoneId: number; redirectZoneId: number; zoneName: string }): void;
  },
) {
  const { isOpen, evacuation, zones, floorPlace, busy, portalContainer, onClose, onRedirect } = props;
  const { t } = useTranslation();
  const assembly = zones.filter((zone) => evacuation.assemblyZoneIds.includes(zone.id));
  const [unsafe, setUnsafe] = useState<number | null>(null);
  const [target, setTarget] = useState<number | null>(null);
  const unsafeZoneId = unsafe ?? assembly[0]?.id ?? null;
  // Other assembly zones first (the usual answer), then any zone outside the evacuated area.
  const targets = [
    ...zones.filter((zone) => zone.kind === 'assembly' && zone.id !== unsafeZoneId),
    ...zones.filter(
      (zone) =>
        zone.kind !== 'assembly' &&
        !evacuation.floorIds.includes(zone.floor_id) &&
        !evacuation.zoneIds.includes(zone.id),
    ),
  ].filter((zone) => !evacuation.unsafeAssemblyZoneIds.includes(zone.id));
  const redirectZoneId = target ?? targets[0]?.id ?? null;
  const targetZone = targets.find((zone) => zone.id === redirectZoneId);
  return (
    <Dialog
      isOpen={isOpen}
      title={t('evacuation.marshal.redirectTitle')}
      onClose={onClose}
      portalContainer={portalContainer}
      className="sw-evac-dialog"
    >
      <form
        data-testid="redirect-dialog"
        onSubmit={(event) => {
          event.preventDefault();
          if (unsafeZoneId === null || redirectZoneId === null || !targetZone) return;
          onRedirect({ unsafeZoneId, redirectZoneId, zoneName: zoneLabel(targetZone, floorPlace) });
        }}
      >
        <DialogBody>
          <FormGroup label={t('evacuation.marshal.unsafeZone')} labelFor="sw-redirect-unsafe">
            <HTMLSelect
              id="sw-redirect-unsafe"
              fill
              large
              value={unsafeZoneId ?? ''}
              onChange={(event) => setUnsafe(Number(event.currentTarget.value))}
              options={assembly.map((zone) => ({ value: zone.id, label: zoneLabel(zone, floorPlace) }))}
              data-testid="redirect-unsafe"
            />
          </FormGroup>
          <FormGroup label={t('evacuation.marshal.redirectZone')} labelFor="sw-redirect-target">
            <HTMLSelect
              id="sw-redirect-target"
              fill
              large
              value={redirectZoneId ?? ''}
              onChange={(event) => setTarget(Number(event.currentTarget.value))}
              options={targets.map((zone) => ({ value: zone.id, label: zoneLabel(zone, floorPlace) }))}
              data-testid="redirect-target"
            />
          </FormGroup>
        </DialogBody>
        <DialogFooter
          actions={
            <>
              <Button text={t('evacuation.marshal.cancel')} onClick={onClose} />
              <Button
                type="submit"
                intent="danger"
                icon="flows"
                text={t('evacuation.marshal.redirectSubmit')}
                disabled={unsafeZoneId === null || redirectZoneId === null}
                loading={busy}
                data-testid="redirect-submit"
              />
            </>
          }
        />
      </form>
    </Dialog>
  );
}
