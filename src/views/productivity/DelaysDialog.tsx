import {
  Button,
  Callout,
  Dialog,
  DialogBody,
  DialogFooter,
  FormGroup,
  HTMLSelect,
  HTMLTable,
  InputGroup,
  TextArea,
} from '@blueprintjs/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatHoursOrNA } from '../../domain/numberFormat';
import type { Activity, DelayCode, NewDelay } from '../../domain/schemas/productivity';
import { serverText } from '../shared/serverMessage';

interface DelaysDialogProps {
  activity: Activity;
  delayCodes: readonly DelayCode[];
  /** Adding and removing: false for read-only roles and activities no longer bookable. */
  canEdit: boolean;
  pending: boolean;
  /** The server's word on the last change of this row. */
  error: string | null;
  onAdd(delay: NewDelay): Promise<boolean>;
  onRemove(delayId: number): void;
  onClose(): void;
}

/** An activity's delays (code, hours lost, notes): listed, removed, and a new one booked. */
export function DelaysDialog({
  activity,
  delayCodes,
  canEdit,
  pending,
  error,
  onAdd,
  onRemove,
  onClose,
}: DelaysDialogProps) {
  const { t } = useTranslation();
  const [codeId, setCodeId] = useState('');
  const [hours, setHours] = useState('');
  const [notes, setNotes] = useState('');
  const hoursValue = Number(hours.trim());
  const ready = codeId !== '' && hours.trim() !== '' && Number.isFinite(hoursValue);

  const add = async () => {
    const added = await onAdd({
      delay_code_id: Number(codeId),
      hours_lost: hoursValue,
      notes: notes.trim() === '' ? null : notes.trim(),
    });
    if (added) {
      setCodeId('');
      setHours('');
      setNotes('');
    }
  };

  return (
    <Dialog isOpen title={t('productivity.delays.title', { name: activity.name })} onClose={onClose}>
      <DialogBody>
        <div data-testid="delays-dialog">
          {activity.delays.length === 0 ? (
            <p>{t('productivity.delays.none')}</p>
          ) : (
            <HTMLTable compact striped className="sw-productivity-delay-list" data-testid="delay-list">
              <thead>
                <tr>
                  <th>{t('productivity.delays.code')}</th>
                  <th>{t('productivity.delays.hoursLost')}</th>
                  <th>{t('productivity.delays.notes')}</th>
                  {canEdit ? <th aria-label={t('productivity.delays.remove')} /> : null}
                </tr>
              </thead>
              <tbody>
                {activity.delays.map((delay) => (
                  <tr key={delay.id} data-testid="delay-row">
                    <td>
                      <span dir="ltr">{delay.delay_code.code}</span> {delay.delay_code.name}
                    </td>
                    <td dir="ltr">{formatHoursOrNA(delay.hours_lost)}</td>
                    <td>{delay.notes ?? '—'}</td>
                    {canEdit ? (
                      <td>
                        <Button
                          small
                          minimal
                          intent="danger"
                          icon="trash"
                          text={t('productivity.delays.remove')}
                          disabled={pending}
                          data-testid="delay-remove"
                          onClick={() => onRemove(delay.id)}
                        />
                      </td>
                    ) : null}
                  </tr>
                ))}
              </tbody>
            </HTMLTable>
          )}
          <p data-testid="delay-total">
            {t('productivity.delays.total', { hours: formatHoursOrNA(activity.delay_lost_hours) })}
          </p>
          {canEdit ? (
            <div className="sw-productivity-delay-form">
              <FormGroup label={t('productivity.delays.code')} labelFor="delay-code">
                <HTMLSelect
                  id="delay-code"
                  data-testid="delay-code"
                  value={codeId}
                  onChange={(event) => setCodeId(event.currentTarget.value)}
                >
                  <option value="">{t('productivity.delays.pickCode')}</option>
                  {delayCodes.map((code) => (
                    <option key={code.id} value={code.id}>
                      {code.code} — {code.name}
                    </option>
                  ))}
                </HTMLSelect>
              </FormGroup>
              <FormGroup label={t('productivity.delays.hoursLost')} labelFor="delay-hours">
                <InputGroup
                  id="delay-hours"
                  dir="ltr"
                  inputMode="decimal"
                  data-testid="delay-hours"
                  value={hours}
                  onValueChange={setHours}
                />
              </FormGroup>
              <FormGroup label={t('productivity.delays.notes')} labelFor="delay-notes">
                <TextArea
                  id="delay-notes"
                  fill
                  data-testid="delay-notes"
                  value={notes}
                  onChange={(event) => setNotes(event.currentTarget.value)}
                />
              </FormGroup>
            </div>
          ) : null}
          {error ? (
            <Callout intent="danger" data-testid="delay-error">
              {serverText(error, t)}
            </Callout>
          ) : null}
        </div>
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button text={t('productivity.delays.close')} data-testid="delay-close" onClick={onClose} />
            {canEdit ? (
              <Button
                intent="primary"
                text={t('productivity.delays.add')}
                disabled={!ready}
                loading={pending}
                data-testid="delay-add"
                onClick={() => void add()}
              />
            ) : null}
          </>
        }
      />
    </Dialog>
  );
}
