import { Button, Callout, Dialog, DialogBody, DialogFooter, FormGroup, InputGroup } from '@blueprintjs/core';
import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { createDeviceToken } from '../../api/deviceTokens';
import { messages } from '../../domain/messages';
import { nameProblem } from '../../domain/nameRule';
import type { CreatedDeviceToken } from '../../domain/schemas/ingest';
import { serverProblem } from '../forms/serverProblem';
import { notify } from '../notify';
import { useApi } from '../session/SessionProvider';
import { DeviceTokenCredentials } from './DeviceTokenCredentials';

interface NewDeviceTokenDialogProps {
  siteId: number;
  onCreated(): void;
  onClose(): void;
}

/**
 * A new device token: its label, then (once created) its credentials, shown this once. The secret
 * lives only in this dialog's state and is gone when it closes.
 */
export function NewDeviceTokenDialog({ siteId, onCreated, onClose }: NewDeviceTokenDialogProps) {
  const { t } = useTranslation();
  const api = useApi();
  const id = useId();
  const [label, setLabel] = useState('');
  const [submitted, setSubmitted] = useState(false);
  const [created, setCreated] = useState<CreatedDeviceToken | null>(null);
  const mutation = useMutation({
    mutationFn: (value: string) => createDeviceToken(api, siteId, value),
    onSuccess: (token) => {
      setCreated(token);
      void notify({ message: messages.created('Device token'), intent: 'success' });
      onCreated();
    },
  });
  const problem = submitted ? nameProblem('Label', label) : null;
  const server = serverProblem(mutation.error, t('common.somethingWentWrong'));
  const error = problem ?? server.fields.label ?? server.fields.name ?? null;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    if (mutation.isPending || nameProblem('Label', label)) return;
    mutation.mutate(label.trim());
  };

  if (created) {
    return (
      <Dialog
        isOpen
        onClose={onClose}
        title={t('deviceTokens.once.title', { label: created.label })}
        className="sw-device-tokens-dialog"
      >
        <DialogBody>
          <DeviceTokenCredentials token={created} />
        </DialogBody>
        <DialogFooter
          actions={
            <Button
              intent="primary"
              text={t('deviceTokens.once.done')}
              data-testid="device-token-done"
              onClick={onClose}
            />
          }
        />
      </Dialog>
    );
  }
  return (
    <Dialog
      isOpen
      onClose={() => !mutation.isPending && onClose()}
      title={t('deviceTokens.new')}
      className="sw-device-tokens-dialog"
    >
      <form onSubmit={submit} noValidate data-testid="device-token-form">
        <DialogBody>
          {server.general && (
            <Callout intent="danger" compact>
              {server.general}
            </Callout>
          )}
          <FormGroup
            label={t('deviceTokens.label')}
            labelFor={`${id}-label`}
            helperText={error ?? t('deviceTokens.labelHint')}
            intent={error ? 'danger' : 'none'}
          >
            <InputGroup
              id={`${id}-label`}
              name="label"
              autoFocus
              value={label}
              intent={error ? 'danger' : 'none'}
              data-testid="device-token-label-input"
              onValueChange={(value) => {
                setLabel(value);
                mutation.reset();
              }}
            />
          </FormGroup>
        </DialogBody>
        <DialogFooter
          actions={
            <>
              <Button text={t('common.cancel')} disabled={mutation.isPending} onClick={onClose} />
              <Button
                type="submit"
                intent="primary"
                text={t('common.create')}
                loading={mutation.isPending}
                data-testid="device-token-create"
              />
            </>
          }
        />
      </form>
    </Dialog>
  );
}
