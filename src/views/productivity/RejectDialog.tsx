import { Button, Callout, Dialog, DialogBody, DialogFooter, FormGroup, TextArea } from '@blueprintjs/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Activity } from '../../domain/schemas/productivity';
import { serverText } from '../shared/serverMessage';

interface RejectDialogProps {
  activity: Activity;
  pending: boolean;
  error: string | null;
  onReject(reason: string): void;
  onClose(): void;
}

/** Sending an activity back to in progress, with the reason its crew will read. */
export function RejectDialog({ activity, pending, error, onReject, onClose }: RejectDialogProps) {
  const { t } = useTranslation();
  const [reason, setReason] = useState('');
  return (
    <Dialog isOpen title={t('productivity.reject.title', { name: activity.name })} onClose={onClose}>
      <DialogBody>
        <FormGroup label={t('productivity.reject.reason')} labelFor="reject-reason" labelInfo="*">
          <TextArea
            id="reject-reason"
            fill
            autoFocus
            required
            data-testid="reject-reason"
            value={reason}
            onChange={(event) => setReason(event.currentTarget.value)}
          />
        </FormGroup>
        {error ? (
          <Callout intent="danger" data-testid="reject-error">
            {serverText(error, t)}
          </Callout>
        ) : null}
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button text={t('productivity.reject.cancel')} onClick={onClose} />
            <Button
              intent="danger"
              text={t('productivity.reject.confirm')}
              disabled={reason.trim() === ''}
              loading={pending}
              data-testid="reject-confirm"
              onClick={() => onReject(reason.trim())}
            />
          </>
        }
      />
    </Dialog>
  );
}
