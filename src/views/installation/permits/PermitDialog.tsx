import { Button, Callout, Classes, Dialog, FormGroup, HTMLSelect, InputGroup } from '@blueprintjs/core';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { PermitHolders } from '../../../api/workPermits';
import type { LongLat } from '../../../domain/floor';
import type { WorkPermitBody } from '../../../domain/schemas/workPermits';
import {
  INITIAL_PERMIT_STATUSES,
  PERMIT_TYPES,
  type PermitStatus,
  type PermitType,
  type WorkPermit,
} from '../../../domain/workPermits';

/** What the dialog edits: a new permit over a drawn area, or an existing permit. */
export type PermitDialogTarget = { mode: 'create'; area: LongLat[] } | { mode: 'edit'; permit: WorkPermit };

interface PermitDialogProps {
  target: PermitDialogTarget;
  holders: PermitHolders | undefined;
  busy: boolean;
  /** The server's refusal: its message and its field messages. */
  error: { message: string; fields: Record<string, string> } | null;
  onSubmit(body: WorkPermitBody): void;
  onCancel(): void;
}

/** datetime-local's value, in the browser's time: what the inputs show and take. */
const LOCAL_FORMAT = 'YYYY-MM-DDTHH:mm';

const holderValue = (permit: WorkPermit) =>
  permit.holder_crew_id !== null
    ? `crew:${permit.holder_crew_id}`
    : `subcontractor:${permit.holder_subcontractor_id}`;

/** The permit's fields; the server checks them all (src/domain/workPermits.ts) and its words are shown. */
export function PermitDialog({ target, holders, busy, error, onSubmit, onCancel }: PermitDialogProps) {
  const { t } = useTranslation();
  const editing = target.mode === 'edit' ? target.permit : null;
  const [number, setNumber] = useState(editing?.number ?? '');
  const [type, setType] = useState<PermitType>(editing?.type ?? 'hotWork');
  const [holder, setHolder] = useState(editing ? holderValue(editing) : '');
  const [validFrom, setValidFrom] = useState(
    dayjs(editing?.valid_from ?? undefined)
      .startOf('hour')
      .format(LOCAL_FORMAT),
  );
  const [validTo, setValidTo] = useState(
    editing
      ? dayjs(editing.valid_to).format(LOCAL_FORMAT)
      : dayjs().startOf('hour').add(8, 'hour').format(LOCAL_FORMAT),
  );
  const [status, setStatus] = useState<PermitStatus>(editing?.status ?? 'draft');
  const fields = error?.fields ?? {};

  function submit() {
    const [kind, id] = holder.split(':');
    const holderId = id ? Number(id) : null;
    onSubmit({
      number,
      type,
      area: target.mode === 'create' ? target.area : target.permit.area,
      holder_crew_id: kind === 'crew' ? holderId : null,
      holder_subcontractor_id: kind === 'subcontractor' ? holderId : null,
      valid_from: dayjs(validFrom).toISOString(),
      valid_to: dayjs(validTo).toISOString(),
      ...(target.mode === 'create' ? { status } : {}),
    });
  }

  const field = (name: string) =>
    fields[name] ? { intent: 'danger' as const, helperText: fields[name] } : {};
  return (
    <Dialog
      isOpen
      onClose={onCancel}
      title={
        editing ? t('permits.dialog.editTitle', { number: editing.number }) : t('permits.dialog.createTitle')
      }
    >
      <form
        data-testid="permit-dialog"
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        <div className={Classes.DIALOG_BODY}>
          {error && Object.keys(fields).length === 0 && (
            <Callout intent="danger" compact data-testid="permit-dialog-error">
              {error.message}
            </Callout>
          )}
          {editing?.grid_ref && (
            <p data-testid="permit-dialog-grid">{t('permits.dialog.gridRef', { ref: editing.grid_ref })}</p>
          )}
          <FormGroup label={t('permits.dialog.number')} labelFor="permit-number" {...field('number')}>
            <InputGroup
              id="permit-number"
              data-testid="permit-number"
              value={number}
              dir="ltr"
              onChange={(event) => setNumber(event.currentTarget.value)}
            />
          </FormGroup>
          <FormGroup label={t('permits.dialog.type')} labelFor="permit-type" {...field('type')}>
            <HTMLSelect
              id="permit-type"
              data-testid="permit-type"
              value={type}
              onChange={(event) => setType(event.currentTarget.value as PermitType)}
              options={PERMIT_TYPES.map((value) => ({ value, label: t(`permits.type.${value}`) }))}
            />
          </FormGroup>
          <FormGroup label={t('permits.dialog.holder')} labelFor="permit-holder" {...field('holder')}>
            <HTMLSelect
              id="permit-holder"
              data-testid="permit-holder"
              value={holder}
              onChange={(event) => setHolder(event.currentTarget.value)}
            >
              <option value="">{t('permits.dialog.chooseHolder')}</option>
              <optgroup label={t('permits.dialog.crews')}>
                {(holders?.crews ?? []).map((crew) => (
                  <option key={crew.id} value={`crew:${crew.id}`}>
                    {crew.name}
                  </option>
                ))}
              </optgroup>
              <optgroup label={t('permits.dialog.subcontractors')}>
                {(holders?.subcontractors ?? []).map((subcontractor) => (
                  <option key={subcontractor.id} value={`subcontractor:${subcontractor.id}`}>
                    {subcontractor.name}
                  </option>
                ))}
              </optgroup>
            </HTMLSelect>
          </FormGroup>
          <FormGroup
            label={t('permits.dialog.validFrom')}
            labelFor="permit-valid-from"
            {...field('valid_from')}
          >
            <InputGroup
              id="permit-valid-from"
              data-testid="permit-valid-from"
              type="datetime-local"
              value={validFrom}
              onChange={(event) => setValidFrom(event.currentTarget.value)}
            />
          </FormGroup>
          <FormGroup label={t('permits.dialog.validTo')} labelFor="permit-valid-to" {...field('valid_to')}>
            <InputGroup
              id="permit-valid-to"
              data-testid="permit-valid-to"
              type="datetime-local"
              value={validTo}
              onChange={(event) => setValidTo(event.currentTarget.value)}
            />
          </FormGroup>
          {target.mode === 'create' && (
            <FormGroup label={t('permits.dialog.status')} labelFor="permit-status" {...field('status')}>
              <HTMLSelect
                id="permit-status"
                data-testid="permit-status"
                value={status}
                onChange={(event) => setStatus(event.currentTarget.value as PermitStatus)}
                options={INITIAL_PERMIT_STATUSES.map((value) => ({
                  value,
                  label: t(`permits.status.${value}`),
                }))}
              />
            </FormGroup>
          )}
          {fields.area && (
            <Callout intent="danger" compact data-testid="permit-area-error">
              {fields.area}
            </Callout>
          )}
        </div>
        <div className={Classes.DIALOG_FOOTER}>
          <div className={Classes.DIALOG_FOOTER_ACTIONS}>
            <Button text={t('permits.dialog.cancel')} onClick={onCancel} disabled={busy} />
            <Button
              type="submit"
              intent="primary"
              text={t('permits.dialog.save')}
              loading={busy}
              data-testid="permit-save"
            />
          </div>
        </div>
      </form>
    </Dialog>
  );
}
