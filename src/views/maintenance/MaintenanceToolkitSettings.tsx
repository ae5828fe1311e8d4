import { Button, Callout, Card, FormGroup, H5, InputGroup } from '@blueprintjs/core';
import { type FormEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TNumber } from 'typebox';
import { isApiError } from '../../api/client';
import { useMaintenanceSettings, useSaveMaintenanceSettings } from '../../api/nodes';
import { MaintenanceSettingsSchema } from '../../domain/schemas/nodes';
import { serverProblem } from '../forms/serverProblem';
import { notify } from '../notify';
import { useApi } from '../session/SessionProvider';
import { formatTwoDecimals } from '../shared/nodeFormat';

/** The schema's limits, the server's too. */
const LIMITS = MaintenanceSettingsSchema.properties.anchorMovedThresholdMetres as TNumber & {
  minimum: number;
  maximum: number;
};
export const THRESHOLD_MIN_M = LIMITS.minimum;
export const THRESHOLD_MAX_M = LIMITS.maximum;

export type ThresholdInput = { metres: number } | { error: 'required' | 'notANumber' | 'range' };

/** The typed threshold: a number of metres within the schema's limits ("0,5" reads as 0.5). */
export function parseThreshold(text: string): ThresholdInput {
  const trimmed = text.trim().replace(',', '.');
  if (trimmed === '') return { error: 'required' };
  if (!/^(\d+(\.\d*)?|\.\d+)$/.test(trimmed)) return { error: 'notANumber' };
  const metres = Number(trimmed);
  if (metres < THRESHOLD_MIN_M || metres > THRESHOLD_MAX_M) return { error: 'range' };
  return { metres };
}

/**
 * The site's anchor-moved threshold: how far an anchor may stray from where it was placed before
 * it is "moved" (and, after a minute, an incident). Checked here, saved, and confirmed in place.
 */
export function MaintenanceToolkitSettings({ siteId }: { siteId: number }) {
  const { t } = useTranslation();
  const api = useApi();
  const inputId = useId();
  const settings = useMaintenanceSettings(api, siteId);
  const save = useSaveMaintenanceSettings(api, siteId);
  const [draft, setDraft] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [savedMetres, setSavedMetres] = useState<number | null>(null);
  const stored = settings.data?.anchorMovedThresholdMetres;
  const value = draft ?? (stored === undefined ? '' : String(stored));
  const limits = { min: formatTwoDecimals(THRESHOLD_MIN_M), max: formatTwoDecimals(THRESHOLD_MAX_M) };

  function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = parseThreshold(value);
    if ('error' in parsed) {
      setError(t(`nodes.maintenance.threshold.error.${parsed.error}`, limits));
      setSavedMetres(null);
      return;
    }
    setError(null);
    save.mutate(
      { anchorMovedThresholdMetres: parsed.metres },
      {
        onSuccess: (reply) => {
          setDraft(null);
          setSavedMetres(reply.data.anchorMovedThresholdMetres);
          void notify({ message: t('nodes.maintenance.threshold.savedToast'), intent: 'success' });
        },
        onError: (failure) => {
          setSavedMetres(null);
          const problem = serverProblem(failure, t('common.somethingWentWrong'));
          const field = isApiError(failure) ? problem.fields.anchorMovedThresholdMetres : undefined;
          setError(field ?? problem.general ?? Object.values(problem.fields)[0] ?? null);
        },
      },
    );
  }

  return (
    <Card className="sw-maintenance-settings" data-testid="maintenance-settings">
      <H5>{t('nodes.maintenance.threshold.title')}</H5>
      <form onSubmit={submit} noValidate data-testid="maintenance-threshold-form">
        <FormGroup
          label={t('nodes.maintenance.threshold.label')}
          labelFor={inputId}
          intent={error ? 'danger' : 'none'}
          helperText={
            <span data-testid="maintenance-threshold-help">
              {error ?? t('nodes.maintenance.threshold.help', limits)}
            </span>
          }
        >
          <div className="sw-maintenance-threshold-row">
            <InputGroup
              id={inputId}
              inputMode="decimal"
              dir="ltr"
              data-testid="maintenance-threshold"
              intent={error ? 'danger' : 'none'}
              disabled={settings.isPending}
              value={value}
              rightElement={
                <span className="sw-maintenance-unit">{t('nodes.maintenance.threshold.unit')}</span>
              }
              onValueChange={(next) => {
                setDraft(next);
                setSavedMetres(null);
              }}
            />
            <Button
              type="submit"
              intent="primary"
              text={t('nodes.maintenance.threshold.save')}
              loading={save.isPending}
              disabled={settings.isPending}
              data-testid="maintenance-threshold-save"
            />
          </div>
        </FormGroup>
      </form>
      {savedMetres !== null && (
        <Callout intent="success" compact data-testid="maintenance-threshold-saved">
          {t('nodes.maintenance.threshold.saved', { metres: formatTwoDecimals(savedMetres) })}
        </Callout>
      )}
      {settings.isError && (
        <Callout intent="danger" compact>
          {t('common.somethingWentWrong')}
        </Callout>
      )}
    </Card>
  );
}
