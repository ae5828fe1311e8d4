import './settings.css';
import {
  Button,
  Callout,
  Dialog,
  DialogBody,
  DialogFooter,
  FormGroup,
  HTMLSelect,
  InputGroup,
  Spinner,
  TextArea,
} from '@blueprintjs/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type ApiClient, isApiError } from '../../../api/client';
import { queryKeys } from '../../../api/queryKeys';
import { safetySettingsQuery, saveSafetySettings } from '../../../api/safety/safetySettings';
import {
  ESCALATION_CONTACTS,
  type SafetySettings,
  type SettingsErrors,
  validateSafetySettings,
} from '../../../domain/escalation';
import type { Site } from '../../../domain/user';
import { notify } from '../../notify';
import { escalationFailure, escalationText } from '../incidents/escalationText';
import {
  canAddLevel,
  draftOf,
  type LevelDraft,
  newLevel,
  type SettingsDraft,
  settingsOf,
} from './settingsDraft';

interface SafetySettingsDialogProps {
  api: ApiClient;
  site: Site;
  onClose(): void;
}

/** The site's escalation levels and the possibly-inside hours, loaded, edited, checked and saved. */
export function SafetySettingsDialog({ api, site, onClose }: SafetySettingsDialogProps) {
  const { t } = useTranslation();
  const settings = useQuery(safetySettingsQuery(api, site.id));
  return (
    <Dialog
      isOpen
      onClose={onClose}
      title={`${t('safety.settings.title')} · ${site.name}`}
      icon="cog"
      style={{ width: 640 }}
    >
      {settings.isPending ? (
        <DialogBody>
          <Spinner aria-label={t('common.loading')} />
        </DialogBody>
      ) : settings.isError ? (
        <DialogBody>
          <Callout intent="danger">
            {escalationFailure(settings.error, t('common.somethingWentWrong'), t)}
          </Callout>
        </DialogBody>
      ) : (
        <SettingsForm api={api} site={site} saved={settings.data} onClose={onClose} />
      )}
    </Dialog>
  );
}

function SettingsForm({ api, site, saved, onClose }: SafetySettingsDialogProps & { saved: SafetySettings }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const hoursId = useId();
  const [draft, setDraft] = useState<SettingsDraft>(() => draftOf(saved));
  const [errors, setErrors] = useState<SettingsErrors>({});
  const save = useMutation({
    mutationFn: (settings: SafetySettings) => saveSafetySettings(api, site.id, settings),
    onSuccess: (reply) => {
      queryClient.setQueryData(queryKeys.safety.settings(site.id), reply.data);
      void queryClient.invalidateQueries({ queryKey: queryKeys.safety.allIncidents });
      void notify({ message: t('safety.settings.saved'), intent: 'success' });
      onClose();
    },
    onError: (error) => {
      if (isApiError(error) && Object.keys(error.fieldErrors).length > 0) setErrors(error.fieldErrors);
    },
  });
  const errorOf = (field: string) => (errors[field] ? escalationText(errors[field], t) : undefined);
  const generalError = errors.escalationLevels ? escalationText(errors.escalationLevels, t) : null;
  const saveFailure =
    save.isError && !(isApiError(save.error) && Object.keys(save.error.fieldErrors).length > 0)
      ? escalationFailure(save.error, t('common.somethingWentWrong'), t)
      : null;

  const setLevel = (key: number, change: Partial<LevelDraft>) =>
    setDraft((current) => ({
      ...current,
      levels: current.levels.map((level) => (level.key === key ? { ...level, ...change } : level)),
    }));

  function submit(event: FormEvent) {
    event.preventDefault();
    const settings = settingsOf(draft);
    const found = validateSafetySettings(settings);
    setErrors(found);
    if (Object.keys(found).length === 0 && !save.isPending) save.mutate(settings);
  }

  return (
    <form onSubmit={submit} noValidate data-testid="safety-settings-form">
      <DialogBody>
        {saveFailure && (
          <Callout intent="danger" compact>
            {saveFailure}
          </Callout>
        )}
        <FormGroup
          label={t('safety.settings.possiblyInside')}
          labelFor={hoursId}
          intent={errorOf('possiblyInsideHours') ? 'danger' : 'none'}
          helperText={errorOf('possiblyInsideHours') ?? t('safety.settings.possiblyInsideHelp')}
        >
          <InputGroup
            id={hoursId}
            data-testid="possibly-inside-hours"
            inputMode="decimal"
            value={draft.possiblyInsideHours}
            placeholder={t('safety.settings.sinceShiftStart')}
            rightElement={<span className="sw-safety-unit">{t('safety.settings.hours')}</span>}
            onValueChange={(value) => setDraft((current) => ({ ...current, possiblyInsideHours: value }))}
          />
        </FormGroup>
        <h4 className="sw-safety-settings-heading">{t('safety.settings.levelsTitle')}</h4>
        <p className="sw-safety-settings-help">{t('safety.settings.levelsHelp')}</p>
        {generalError && (
          <Callout intent="danger" compact data-testid="levels-error">
            {generalError}
          </Callout>
        )}
        <ol className="sw-safety-levels">
          {draft.levels.map((level, index) => (
            <LevelFields
              key={level.key}
              index={index}
              level={level}
              removable={draft.levels.length > 1}
              errorOf={errorOf}
              onChange={(change) => setLevel(level.key, change)}
              onRemove={() =>
                setDraft((current) => ({
                  ...current,
                  levels: current.levels.filter((l) => l.key !== level.key),
                }))
              }
            />
          ))}
        </ol>
        <Button
          icon="add"
          text={t('safety.settings.addLevel')}
          data-testid="add-level"
          disabled={!canAddLevel(draft)}
          onClick={() => setDraft((current) => ({ ...current, levels: [...current.levels, newLevel()] }))}
        />
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button text={t('common.cancel')} onClick={onClose} disabled={save.isPending} />
            <Button
              type="submit"
              intent="primary"
              text={t('safety.settings.save')}
              loading={save.isPending}
              data-testid="save-safety-settings"
            />
          </>
        }
      />
    </form>
  );
}

interface LevelFieldsProps {
  index: number;
  level: LevelDraft;
  removable: boolean;
  errorOf(field: string): string | undefined;
  onChange(change: Partial<LevelDraft>): void;
  onRemove(): void;
}

function LevelFields({ index, level, removable, errorOf, onChange, onRemove }: LevelFieldsProps) {
  const { t } = useTranslation();
  const id = useId();
  const field = (name: string) => `escalationLevels.${index}.${name}`;
  const minutesError = errorOf(field('afterMinutes'));
  const recipientsError = errorOf(field('recipients'));
  const contactsError = errorOf(field('contacts'));
  return (
    <li className="sw-safety-level" data-testid="escalation-level">
      <div className="sw-safety-level-head">
        <strong>{t('safety.settings.level', { level: index + 1 })}</strong>
        <Button
          icon="trash"
          variant="minimal"
          size="small"
          aria-label={t('safety.settings.removeLevel', { level: index + 1 })}
          data-testid="remove-level"
          disabled={!removable}
          onClick={onRemove}
        />
      </div>
      <div className="sw-safety-level-fields">
        <FormGroup
          label={index === 0 ? t('safety.settings.afterRaise') : t('safety.settings.afterPrevious')}
          labelFor={`${id}-minutes`}
          intent={minutesError ? 'danger' : 'none'}
          helperText={minutesError}
        >
          <InputGroup
            id={`${id}-minutes`}
            data-testid="level-minutes"
            inputMode="decimal"
            value={level.afterMinutes}
            intent={minutesError ? 'danger' : 'none'}
            rightElement={<span className="sw-safety-unit">{t('safety.settings.minutes')}</span>}
            onValueChange={(value) => onChange({ afterMinutes: value })}
          />
        </FormGroup>
        <FormGroup
          label={t('safety.settings.notify')}
          labelFor={`${id}-contacts`}
          intent={contactsError ? 'danger' : 'none'}
          helperText={contactsError}
        >
          <HTMLSelect
            id={`${id}-contacts`}
            data-testid="level-contacts"
            value={level.contacts}
            onChange={(event) => onChange({ contacts: event.currentTarget.value as LevelDraft['contacts'] })}
            options={ESCALATION_CONTACTS.map((value) => ({
              value,
              label: t(`safety.settings.contacts.${value}`),
            }))}
          />
        </FormGroup>
      </div>
      <FormGroup
        label={t('safety.settings.recipients')}
        labelFor={`${id}-recipients`}
        intent={recipientsError ? 'danger' : 'none'}
        helperText={recipientsError ?? t('safety.settings.recipientsHelp')}
      >
        <TextArea
          id={`${id}-recipients`}
          data-testid="level-recipients"
          dir="ltr"
          fill
          rows={2}
          value={level.recipients}
          intent={recipientsError ? 'danger' : 'none'}
          onChange={(event) => onChange({ recipients: event.currentTarget.value })}
        />
      </FormGroup>
    </li>
  );
}
