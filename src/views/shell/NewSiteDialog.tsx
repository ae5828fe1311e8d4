import {
  Button,
  Callout,
  Dialog,
  DialogBody,
  DialogFooter,
  FormGroup,
  HTMLSelect,
  InputGroup,
} from '@blueprintjs/core';
import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError, isCancelled } from '../../api/apiError';
import { createSite } from '../../api/sites';
import { LIMITS } from '../../domain/limits';
import { canonicalTimezone, TIMEZONES } from '../../domain/timezones';
import type { Client, Site } from '../../domain/user';
import { notify } from '../notify';
import { useApi } from '../session/SessionProvider';

interface NewSiteDialogProps {
  isOpen: boolean;
  client: Client;
  /** Preselected zone: the current site's, as a client's sites usually share one. */
  defaultTimezone?: string;
  onClose(): void;
  onCreated(site: Site): void;
}

function browserTimezone(): string {
  try {
    return canonicalTimezone(Intl.DateTimeFormat().resolvedOptions().timeZone) ?? 'UTC';
  } catch {
    return 'UTC';
  }
}

/** What to say about a failed create: the server's text (409 duplicate, 422 field), never a cancel. */
function serverMessageOf(error: unknown, fallback: string): string | null {
  if (!error || isCancelled(error)) return null;
  if (!isApiError(error)) return fallback;
  return Object.values(error.fieldErrors)[0] ?? (error.message || fallback);
}

/** Creates a site under the selected client; the new site then becomes the selected one. */
export function NewSiteDialog({ isOpen, client, defaultTimezone, onClose, onCreated }: NewSiteDialogProps) {
  const { t } = useTranslation();
  const api = useApi();
  const nameId = useId();
  const timezoneId = useId();
  const [name, setName] = useState('');
  const [timezone, setTimezone] = useState(
    () => (defaultTimezone && canonicalTimezone(defaultTimezone)) || browserTimezone(),
  );
  const [touched, setTouched] = useState(false);

  const mutation = useMutation({
    mutationFn: (body: { name: string; timezone: string }) =>
      createSite(api, { client_id: client.id, name: body.name, timezone: body.timezone }),
    onSuccess: (site) => {
      void notify({ message: t('shell.siteCreated'), intent: 'success' });
      onCreated(site);
    },
  });

  const trimmed = name.trim();
  const nameError =
    trimmed.length === 0
      ? t('shell.siteNameRequired')
      : trimmed.length > LIMITS.siteNameMax
        ? t('shell.siteNameTooLong', { limit: LIMITS.siteNameMax })
        : null;
  const showNameError = touched && nameError !== null;
  const serverError = serverMessageOf(mutation.error, t('common.somethingWentWrong'));

  function submit(event: FormEvent) {
    event.preventDefault();
    setTouched(true);
    if (nameError || mutation.isPending) return;
    mutation.mutate({ name: trimmed, timezone });
  }

  function close() {
    if (!mutation.isPending) onClose();
  }

  return (
    <Dialog isOpen={isOpen} onClose={close} title={`${t('shell.newSite')} · ${client.name}`} icon="office">
      <form onSubmit={submit} noValidate data-testid="new-site-form">
        <DialogBody>
          {serverError && (
            <Callout intent="danger" compact>
              {serverError}
            </Callout>
          )}
          <FormGroup
            label={t('shell.siteName')}
            labelFor={nameId}
            intent={showNameError ? 'danger' : 'none'}
            helperText={showNameError ? nameError : undefined}
          >
            <InputGroup
              id={nameId}
              name="name"
              autoFocus
              value={name}
              maxLength={LIMITS.siteNameMax + 1}
              intent={showNameError ? 'danger' : 'none'}
              onValueChange={(value) => setName(value)}
              // The dialog takes focus as it opens, which blurs the field before anyone typed:
              // an untouched empty name waits for the submit to be called missing.
              onBlur={() => name !== '' && setTouched(true)}
            />
          </FormGroup>
          <FormGroup label={t('shell.timezone')} labelFor={timezoneId}>
            <HTMLSelect
              id={timezoneId}
              name="timezone"
              fill
              value={timezone}
              onChange={(event) => setTimezone(event.currentTarget.value)}
              options={TIMEZONES}
            />
          </FormGroup>
        </DialogBody>
        <DialogFooter
          actions={
            <>
              <Button text={t('common.cancel')} onClick={close} disabled={mutation.isPending} />
              <Button type="submit" intent="primary" text={t('common.create')} loading={mutation.isPending} />
            </>
          }
        />
      </form>
    </Dialog>
  );
}
