import {
  Button,
  Card,
  Checkbox,
  FormGroup,
  H4,
  H5,
  HTMLSelect,
  HTMLTable,
  InputGroup,
  ProgressBar,
  Tag,
} from '@blueprintjs/core';
import { type FormEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useElectricalRoomWrites } from '../../api/electricalRooms';
import { checklistProgress, stepWords } from '../../domain/electricalRoomChecklist';
import { LIMITS } from '../../domain/limits';
import type {
  ElectricalRoom,
  ElectricalRoomDevice,
  ElectricalRoomStepState,
  SiteElectricalRooms,
} from '../../domain/schemas/electricalRooms';
import type { Site } from '../../domain/user';
import { ConfirmDeleteAlert } from '../maps/ConfirmDeleteAlert';
import { notify } from '../notify';
import { useApi } from '../session/SessionProvider';
import { failureText, serverText } from '../shared/serverMessage';
import { siteTimeText } from '../shared/siteTime';
import { CONNECTION_INTENT, POWER_INTENT } from './electricalRmFormat';

interface ElectricalRoomCardProps {
  site: Site;
  room: ElectricalRoom;
  floors: SiteElectricalRooms['buildings'][number]['floors'];
  available: SiteElectricalRooms['available'];
}

/** What a device select's value says: `sink:<inventory id>` or `gateway:<network id>`. */
function deviceBody(value: string): { inventory_id: number } | { network_id: number } | null {
  const [kind, id] = value.split(':');
  const number = Number(id);
  if (!Number.isInteger(number) || number <= 0) return null;
  return kind === 'sink' ? { inventory_id: number } : { network_id: number };
}

/** One electrical room: its name and floor, its progress, its devices with their status, its checklist. */
export function ElectricalRoomCard({ site, room, floors, available }: ElectricalRoomCardProps) {
  const { t } = useTranslation();
  const api = useApi();
  const writes = useElectricalRoomWrites(api, site.id);
  const [deleting, setDeleting] = useState(false);
  const [editing, setEditing] = useState(false);
  const progress = checklistProgress(room.steps.filter((step) => step.done).map((step) => step.step));
  const failed = (error: unknown) =>
    void notify({ message: failureText(error, t('common.somethingWentWrong'), t), intent: 'danger' });
  const succeeded = (reply: { message: string }) => {
    if (reply.message) void notify({ message: serverText(reply.message, t), intent: 'success' });
  };

  return (
    <Card className="sw-erm-room" data-testid="erm-room" data-room-id={room.id} data-room-name={room.name}>
      <div className="sw-erm-room-head">
        {editing ? (
          <RoomEditForm
            room={room}
            floors={floors}
            busy={writes.editRoom.isPending}
            onCancel={() => setEditing(false)}
            onSave={(body) =>
              writes.editRoom.mutate(
                { roomId: room.id, body },
                {
                  onSuccess: (reply) => {
                    succeeded(reply);
                    setEditing(false);
                  },
                  onError: failed,
                },
              )
            }
          />
        ) : (
          <>
            <div>
              <H4 className="sw-erm-room-name" data-testid="erm-room-name">
                {room.name}
              </H4>
              <span className="bp6-text-muted" data-testid="erm-room-floor">
                {room.floor_name ?? t('electricalRm.room.noFloor')}
              </span>
            </div>
            <div className="sw-erm-room-actions">
              <Button
                icon="edit"
                variant="minimal"
                data-testid="erm-room-rename"
                text={t('electricalRm.room.rename')}
                onClick={() => setEditing(true)}
              />
              <Button
                icon="trash"
                variant="minimal"
                intent="danger"
                data-testid="erm-room-delete"
                text={t('electricalRm.room.delete')}
                onClick={() => setDeleting(true)}
              />
            </div>
          </>
        )}
      </div>
      <div className="sw-erm-progress" data-testid="erm-room-progress" data-done={progress.done}>
        <ProgressBar
          value={progress.done / progress.total}
          stripes={false}
          animate={false}
          intent={progress.done === progress.total ? 'success' : 'primary'}
          aria-label={t('electricalRm.room.progressLabel', { room: room.name })}
        />
        <span>{t('electricalRm.room.progress', { done: progress.done, total: progress.total })}</span>
      </div>
      <DeviceTable
        site={site}
        room={room}
        busy={writes.removeDevice.isPending}
        onRemove={(device) =>
          writes.removeDevice.mutate(
            { roomId: room.id, deviceId: device.id },
            { onSuccess: succeeded, onError: failed },
          )
        }
      />
      <AddDeviceForm
        available={available}
        busy={writes.addDevice.isPending}
        onAdd={(body, done) =>
          writes.addDevice.mutate(
            { roomId: room.id, body },
            {
              onSuccess: (reply) => {
                succeeded(reply);
                done();
              },
              onError: failed,
            },
          )
        }
      />
      <Checklist
        site={site}
        steps={room.steps}
        onToggle={(step, done) =>
          writes.setStep.mutate({ roomId: room.id, step: step.step, done }, { onError: failed })
        }
      />
      <ConfirmDeleteAlert
        label={deleting ? t('electricalRm.room.deleteLabel', { room: room.name }) : null}
        busy={writes.deleteRoom.isPending}
        onCancel={() => setDeleting(false)}
        onConfirm={() =>
          // Awaited rather than mutate's callbacks: the card is gone once the list is refreshed.
          writes.deleteRoom.mutateAsync(room.id).then(succeeded, (error: unknown) => {
            failed(error);
            setDeleting(false);
          })
        }
      />
    </Card>
  );
}

function RoomEditForm({
  room,
  floors,
  busy,
  onSave,
  onCancel,
}: {
  room: ElectricalRoom;
  floors: ElectricalRoomCardProps['floors'];
  busy: boolean;
  onSave(body: { name: string; floor_id: number | null }): void;
  onCancel(): void;
}) {
  const { t } = useTranslation();
  const id = useId();
  const [name, setName] = useState(room.name);
  const [floor, setFloor] = useState(room.floor_id === null ? '' : String(room.floor_id));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSave({ name, floor_id: floor === '' ? null : Number(floor) });
  };
  return (
    <form className="sw-erm-room-form" data-testid="erm-room-edit" onSubmit={submit}>
      <FormGroup label={t('electricalRm.room.name')} labelFor={`${id}-name`}>
        <InputGroup
          id={`${id}-name`}
          autoFocus
          value={name}
          maxLength={LIMITS.nameMax}
          onChange={(event) => setName(event.currentTarget.value)}
          onKeyDown={(event) => {
            if (event.key === 'Escape') onCancel();
          }}
        />
      </FormGroup>
      <FloorSelect id={`${id}-floor`} floors={floors} value={floor} onChange={setFloor} />
      <Button type="submit" intent="primary" loading={busy} text={t('electricalRm.room.save')} />
      <Button text={t('electricalRm.room.cancel')} onClick={onCancel} />
    </form>
  );
}

export function FloorSelect({
  id,
  floors,
  value,
  onChange,
}: {
  id: string;
  floors: ElectricalRoomCardProps['floors'];
  value: string;
  onChange(value: string): void;
}) {
  const { t } = useTranslation();
  return (
    <FormGroup label={t('electricalRm.room.floor')} labelFor={id}>
      <HTMLSelect id={id} value={value} onChange={(event) => onChange(event.currentTarget.value)}>
        <option value="">{t('electricalRm.room.noFloor')}</option>
        {floors.map((floor) => (
          <option key={floor.id} value={floor.id}>
            {floor.name}
          </option>
        ))}
      </HTMLSelect>
    </FormGroup>
  );
}

function DeviceTable({
  site,
  room,
  busy,
  onRemove,
}: {
  site: Site;
  room: ElectricalRoom;
  busy: boolean;
  onRemove(device: ElectricalRoomDevice): void;
}) {
  const { t, i18n } = useTranslation();
  if (room.devices.length === 0)
    return (
      <p className="bp6-text-muted" data-testid="erm-no-devices">
        {t('electricalRm.devices.none')}
      </p>
    );
  return (
    <HTMLTable className="sw-erm-devices" compact striped data-testid="erm-devices">
      <caption className="sw-erm-caption">{t('electricalRm.devices.title')}</caption>
      <thead>
        <tr>
          <th scope="col">{t('electricalRm.devices.name')}</th>
          <th scope="col">{t('electricalRm.devices.kind')}</th>
          <th scope="col">{t('electricalRm.devices.power')}</th>
          <th scope="col">{t('electricalRm.devices.connection')}</th>
          <th scope="col">{t('electricalRm.devices.lastReport')}</th>
          <th scope="col">
            <span className="sw-erm-visually-hidden">{t('electricalRm.devices.remove')}</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {room.devices.map((device) => (
          <tr key={device.id} data-testid="erm-device" data-device-name={device.name} data-kind={device.kind}>
            <td>
              <strong>{device.name}</strong>
            </td>
            <td>{t(`electricalRm.devices.kindName.${device.kind}`)}</td>
            <td data-testid="erm-device-power">
              {device.kind === 'sink' ? (
                <Tag minimal intent={POWER_INTENT[device.power]} data-power={device.power}>
                  {t(`electricalRm.devices.powerState.${device.power}`)}
                  {device.supply_voltage !== null &&
                    ` · ${t('electricalRm.devices.supplyVoltage', {
                      volts: device.supply_voltage.toLocaleString(i18n.language, {
                        minimumFractionDigits: 2,
                        maximumFractionDigits: 2,
                      }),
                    })}`}
                </Tag>
              ) : (
                <span className="bp6-text-muted">—</span>
              )}
            </td>
            <td data-testid="erm-device-connection">
              <Tag minimal intent={CONNECTION_INTENT[device.connection]} data-connection={device.connection}>
                {t(`electricalRm.devices.connectionState.${device.connection}`)}
              </Tag>
            </td>
            <td>
              {device.last_report_at
                ? siteTimeText(device.last_report_at, site.timezone, i18n.language)
                : t('electricalRm.devices.never')}
            </td>
            <td>
              <Button
                icon="cross"
                variant="minimal"
                disabled={busy}
                data-testid="erm-device-remove"
                aria-label={t('electricalRm.devices.removeLabel', { device: device.name })}
                title={t('electricalRm.devices.removeLabel', { device: device.name })}
                onClick={() => onRemove(device)}
              />
            </td>
          </tr>
        ))}
      </tbody>
    </HTMLTable>
  );
}

function AddDeviceForm({
  available,
  busy,
  onAdd,
}: {
  available: SiteElectricalRooms['available'];
  busy: boolean;
  onAdd(body: { inventory_id: number } | { network_id: number }, done: () => void): void;
}) {
  const { t } = useTranslation();
  const id = useId();
  const [value, setValue] = useState('');
  const body = deviceBody(value);
  if (available.sinks.length === 0 && available.networks.length === 0)
    return (
      <p className="bp6-text-muted" data-testid="erm-no-available">
        {t('electricalRm.devices.noneAvailable')}
      </p>
    );
  return (
    <form
      className="sw-erm-add-device"
      onSubmit={(event) => {
        event.preventDefault();
        if (body) onAdd(body, () => setValue(''));
      }}
    >
      <HTMLSelect
        id={id}
        aria-label={t('electricalRm.devices.add')}
        data-testid="erm-device-select"
        value={value}
        onChange={(event) => setValue(event.currentTarget.value)}
      >
        <option value="">{t('electricalRm.devices.pick')}</option>
        {available.networks.length > 0 && (
          <optgroup label={t('electricalRm.devices.gateways')}>
            {available.networks.map((network) => (
              <option key={network.id} value={`gateway:${network.id}`}>
                {network.name}
              </option>
            ))}
          </optgroup>
        )}
        {available.sinks.length > 0 && (
          <optgroup label={t('electricalRm.devices.sinks')}>
            {available.sinks.map((sink) => (
              <option key={sink.id} value={`sink:${sink.id}`}>
                {sink.name}
              </option>
            ))}
          </optgroup>
        )}
      </HTMLSelect>
      <Button
        type="submit"
        icon="add"
        disabled={!body}
        loading={busy}
        data-testid="erm-device-add"
        text={t('electricalRm.devices.add')}
      />
    </form>
  );
}

function Checklist({
  site,
  steps,
  onToggle,
}: {
  site: Site;
  steps: ElectricalRoomStepState[];
  onToggle(step: ElectricalRoomStepState, done: boolean): void;
}) {
  const { t, i18n } = useTranslation();
  return (
    <fieldset className="sw-erm-checklist" data-testid="erm-checklist">
      <legend>
        <H5>{t('electricalRm.checklist.title')}</H5>
      </legend>
      <ol>
        {steps.map((step) => {
          const words = stepWords(step.step, i18n.language);
          const when = step.completed_at
            ? siteTimeText(step.completed_at, site.timezone, i18n.language)
            : null;
          return (
            <li key={step.step} data-testid="erm-step" data-step={step.step} data-done={step.done}>
              <Checkbox
                checked={step.done}
                onChange={(event) => onToggle(step, event.currentTarget.checked)}
                labelElement={<strong>{words.title}</strong>}
              />
              <div className="sw-erm-step-detail bp6-text-muted">{words.detail}</div>
              {when && (
                <div className="sw-erm-step-done" data-testid="erm-step-done">
                  {step.completed_by
                    ? t('electricalRm.checklist.doneBy', { name: step.completed_by.name, when })
                    : t('electricalRm.checklist.doneByUnknown', { when })}
                </div>
              )}
            </li>
          );
        })}
      </ol>
    </fieldset>
  );
}
