import { H5 } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import type { SafetyIncident } from '../../../domain/incidents';
import { ConfirmAlert } from '../../shared/ConfirmAlert';
import { formatDateTime } from '../safetyFormat';

interface ResolveAlertProps {
  /** The incident to resolve; null keeps the alert closed. */
  incident: SafetyIncident | null;
  timeZone: string;
  busy: boolean;
  onConfirm(): void;
  onCancel(): void;
}

/** Resolving closes the incident for good (no more escalation, no undo), so it is confirmed first. */
export function ResolveAlert({ incident, timeZone, busy, onConfirm, onCancel }: ResolveAlertProps) {
  const { t, i18n } = useTranslation();
  return (
    <ConfirmAlert
      isOpen={incident !== null}
      intent="success"
      icon="tick-circle"
      busy={busy}
      escapeCancels
      confirmText={t('safety.incidents.resolveConfirm')}
      onConfirm={onConfirm}
      onCancel={onCancel}
    >
      <H5>{t('safety.incidents.resolveTitle')}</H5>
      {incident && (
        <p data-testid="resolve-confirm-text">
          {t('safety.incidents.resolveBody', {
            type: t(`safety.type.${incident.type}`),
            worker: incident.workerName ?? incident.wntInventoryId,
            time: formatDateTime(incident.ts, timeZone, i18n.language),
          })}
        </p>
      )}
    </ConfirmAlert>
  );
}
