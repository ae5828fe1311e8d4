import { H5 } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import type { SafetyIncident } from '../../../domain/incidents';
import { ConfirmAlert } from '../../shared/ConfirmAlert';
import { formatDateTime } from '../safetyFormat';

interface EscalateAlertProps {
  /** The incident to escalate; null keeps the alert closed. */
  incident: SafetyIncident | null;
  timeZone: string;
  busy: boolean;
  onConfirm(): void;
  onCancel(): void;
}

/** Escalation e-mails the next level's contacts at once, so it is confirmed first. */
export function EscalateAlert({ incident, timeZone, busy, onConfirm, onCancel }: EscalateAlertProps) {
  const { t, i18n } = useTranslation();
  return (
    <ConfirmAlert
      isOpen={incident !== null}
      className="sw-safety-escalate-alert"
      intent="warning"
      icon="warning-sign"
      busy={busy}
      escapeCancels
      confirmText={t('safety.incidents.confirm')}
      onConfirm={onConfirm}
      onCancel={onCancel}
    >
      <H5>{t('safety.incidents.confirmTitle')}</H5>
      {incident && (
        <p data-testid="escalate-confirm-text">
          {t('safety.incidents.confirmBody', {
            type: t(`safety.type.${incident.type}`),
            worker: incident.workerName ?? incident.wntInventoryId,
            time: formatDateTime(incident.ts, timeZone, i18n.language),
            level: incident.level + 1,
          })}
        </p>
      )}
    </ConfirmAlert>
  );
}
