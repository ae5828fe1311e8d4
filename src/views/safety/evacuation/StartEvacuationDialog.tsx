import {
  Button,
  Callout,
  Checkbox,
  Dialog,
  DialogBody,
  DialogFooter,
  FormGroup,
  HTMLSelect,
} from '@blueprintjs/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { EVACUATION_MESSAGES, type EvacuationScope } from '../../../domain/evacuation';
import { evacuationScopeProblem } from '../../../domain/evacuationRules';
import type { Floor, Zone } from '../../../domain/floor';
import { floorPlaceNames } from '../../../domain/placeNames';
import type { Building } from '../../../domain/user';

export interface NetworkOption {
  id: number;
  name: string;
}

interface StartEvacuationDialogProps {
  isOpen: boolean;
  buildings: readonly Building[];
  /** The site's floors, highest first. */
  floors: readonly Floor[];
  zones: readonly Zone[];
  /** The site's networks; empty when unknown (the gateway stays optional). */
  networks: readonly NetworkOption[];
  busy: boolean;
  /** The service's refusal of the last start. */
  error: string | null;
  /** Where the dialog renders: inside the wall, so it shows in full screen too. */
  portalContainer?: HTMLElement;
  onStart(scope: EvacuationScope): void;
  onClose(): void;
}

function toggle(ids: readonly number[], id: number, on: boolean): number[] {
  return on ? [...new Set([...ids, id])] : ids.filter((other) => other !== id);
}

/** What to evacuate and where people are safe; assembly zones are chosen already. */
export function StartEvacuationDialog(props: StartEvacuationDialogProps) {
  const { isOpen, buildings, floors, zones, networks, busy, error, portalContainer, onStart, onClose } =
    props;
  const { t } = useTranslation();
  const assembly = zones.filter((zone) => zone.kind === 'assembly');
  const others = zones.filter((zone) => zone.kind !== 'assembly');
  const [floorIds, setFloorIds] = useState<number[]>([]);
  const [zoneIds, setZoneIds] = useState<number[]>([]);
  const [assemblyZoneIds, setAssemblyZoneIds] = useState<number[] | null>(null);
  const [safeZone, setSafeZone] = useState<number | null>(null);
  const [gateWayId, setGateWayId] = useState<number | null>(null);
  // Until the officer changes them, the assembly zones are every assembly zone of the site.
  const chosenAssembly = assemblyZoneIds ?? assembly.map((zone) => zone.id);
  const scope: EvacuationScope = { floorIds, zoneIds, assemblyZoneIds: chosenAssembly, safeZone, gateWayId };
  const problem = evacuationScopeProblem(scope);
  const placeOf = floorPlaceNames(floors, buildings);
  const floorName = (id: number) => placeOf(id) ?? '';

  return (
    <Dialog
      isOpen={isOpen}
      onClose={onClose}
      title={t('evacuation.start.title')}
      icon="warning-sign"
      className="sw-evac-dialog"
      canOutsideClickClose={!busy}
      portalContainer={portalContainer}
    >
      <form
        onSubmit={(event) => {
          event.preventDefault();
          if (problem === null && !busy) onStart(scope);
        }}
      >
        <DialogBody>
          {error && (
            <Callout intent="danger" icon="error" data-testid="start-evacuation-error">
              {error}
            </Callout>
          )}
          <fieldset className="sw-evac-fieldset" data-testid="start-floors">
            <legend>{t('evacuation.start.floors')}</legend>
            {buildings.map((building) => {
              const own = floors.filter((floor) => floor.building_id === building.id);
              if (own.length === 0) return null;
              const all = own.every((floor) => floorIds.includes(floor.id));
              return (
                <div key={building.id} className="sw-evac-building">
                  <Checkbox
                    checked={all}
                    indeterminate={!all && own.some((floor) => floorIds.includes(floor.id))}
                    label={building.name}
                    onChange={(event) => {
                      const on = event.currentTarget.checked;
                      setFloorIds((ids) => own.reduce((next, floor) => toggle(next, floor.id, on), ids));
                    }}
                  />
                  <div className="sw-evac-floors">
                    {own.map((floor) => (
                      <Checkbox
                        key={floor.id}
                        checked={floorIds.includes(floor.id)}
                        label={floor.name}
                        data-floor-id={floor.id}
                        onChange={(event) => {
                          const on = event.currentTarget.checked;
                          setFloorIds((ids) => toggle(ids, floor.id, on));
                        }}
                      />
                    ))}
                  </div>
                </div>
              );
            })}
          </fieldset>
          {others.length > 0 && (
            <fieldset className="sw-evac-fieldset" data-testid="start-zones">
              <legend>{t('evacuation.start.zones')}</legend>
              {others.map((zone) => (
                <Checkbox
                  key={zone.id}
                  checked={zoneIds.includes(zone.id)}
                  labelElement={
                    <>
                      <bdi>{zone.name}</bdi>{' '}
                      <span className="sw-evac-muted">({floorName(zone.floor_id)})</span>
                    </>
                  }
                  onChange={(event) => {
                    const on = event.currentTarget.checked;
                    setZoneIds((ids) => toggle(ids, zone.id, on));
                  }}
                />
              ))}
            </fieldset>
          )}
          <fieldset className="sw-evac-fieldset" data-testid="start-assembly">
            <legend>{t('evacuation.start.assemblyZones')}</legend>
            {assembly.length === 0 && <p className="sw-evac-muted">{t('evacuation.start.noAssembly')}</p>}
            {assembly.map((zone) => (
              <Checkbox
                key={zone.id}
                checked={chosenAssembly.includes(zone.id)}
                data-zone-id={zone.id}
                labelElement={
                  <>
                    <bdi>{zone.name}</bdi> <span className="sw-evac-muted">({floorName(zone.floor_id)})</span>
                  </>
                }
                onChange={(event) => {
                  const on = event.currentTarget.checked;
                  setAssemblyZoneIds(toggle(chosenAssembly, zone.id, on));
                }}
              />
            ))}
          </fieldset>
          <FormGroup label={t('evacuation.start.safeZone')} labelFor="sw-evac-safe-zone">
            <HTMLSelect
              id="sw-evac-safe-zone"
              fill
              value={safeZone ?? ''}
              onChange={(event) =>
                setSafeZone(event.currentTarget.value ? Number(event.currentTarget.value) : null)
              }
              options={[
                { value: '', label: t('evacuation.start.none') },
                ...zones.map((zone) => ({
                  value: zone.id,
                  label: `${zone.name} (${floorName(zone.floor_id)})`,
                })),
              ]}
            />
          </FormGroup>
          <FormGroup
            label={t('evacuation.start.gateway')}
            labelFor="sw-evac-gateway"
            helperText={t('evacuation.start.gatewayHelp')}
          >
            <HTMLSelect
              id="sw-evac-gateway"
              fill
              value={gateWayId ?? ''}
              onChange={(event) =>
                setGateWayId(event.currentTarget.value ? Number(event.currentTarget.value) : null)
              }
              options={[
                { value: '', label: t('evacuation.start.none') },
                ...networks.map((network) => ({ value: network.id, label: network.name })),
              ]}
            />
          </FormGroup>
          {problem && (
            <Callout intent="warning" compact data-testid="start-evacuation-problem">
              {t(
                `evacuation.start.problem.${problem === EVACUATION_MESSAGES.emptyScope ? 'emptyScope' : 'noAssembly'}`,
              )}
            </Callout>
          )}
        </DialogBody>
        <DialogFooter
          actions={
            <>
              <Button text={t('evacuation.start.cancel')} onClick={onClose} disabled={busy} />
              <Button
                type="submit"
                intent="danger"
                icon="warning-sign"
                text={t('evacuation.start.submit')}
                loading={busy}
                disabled={problem !== null}
                data-testid="start-evacuation-submit"
              />
            </>
          }
        />
      </form>
    </Dialog>
  );
}
