import { Button, Tag } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import { type IncidentAction, incidentTransition } from '../../../domain/escalation';
import { isDeviceIncident, type SafetyIncident } from '../../../domain/incidents';
import { IncidentCountdown } from './IncidentCountdown';

interface IncidentRowProps {
  incident: SafetyIncident;
  /** The incident's moments as the site's clock shows them. */
  time(iso: string | null): string;
  canAct: boolean;
  /** The step under way, if it is this incident's. */
  pending: IncidentAction | null;
  onAction(incident: SafetyIncident, action: IncidentAction): void;
}

const STATUS_INTENT = {
  open: 'danger',
  escalated: 'warning',
  acknowledged: 'primary',
  resolved: 'success',
} as const;

/** One incident: where and whom, its state with who and when, the next automatic step, and its buttons. */
export function IncidentRow({ incident, time, canAct, pending, onAction }: IncidentRowProps) {
  const { t } = useTranslation();
  const allowed = (action: IncidentAction) =>
    incidentTransition(incident, action, incident.levelCount).allowed;
  const button = (
    action: IncidentAction,
    icon: 'circle-arrow-up' | 'eye-open' | 'tick',
    intent: 'warning' | 'primary' | 'success',
  ) =>
    allowed(action) ? (
      <Button
        size="small"
        intent={intent}
        icon={icon}
        text={t(`safety.incidents.${action}`)}
        data-testid={`${action}-incident`}
        loading={pending === action}
        disabled={pending !== null && pending !== action}
        onClick={() => onAction(incident, action)}
      />
    ) : null;

  return (
    <tr data-testid="incident-row" data-incident-id={incident.id} data-status={incident.status}>
      <td>{time(incident.ts)}</td>
      <td>
        <Tag intent={incident.type === 'sos' || incident.type === 'fall' ? 'danger' : 'warning'} minimal>
          {t(`safety.type.${incident.type}`)}
        </Tag>
      </td>
      {isDeviceIncident(incident.type) ? (
        // An anchor's incident names the node where a helmet's names its wearer.
        <>
          <td data-testid="incident-node">
            {t('safety.incidents.anchorNode', { nodeId: incident.wntInventoryId })}
          </td>
          <td>{t('safety.na')}</td>
        </>
      ) : (
        <>
          <td>{incident.workerName ?? t('safety.na')}</td>
          <td dir="ltr">{incident.wntInventoryId}</td>
        </>
      )}
      <td>{incident.floorName ?? t('safety.na')}</td>
      {incident.permit ? (
        // A permit's area is the place: the permit names it, as a zone names a zone entry.
        <td data-testid="incident-permit">
          {t(`safety.permitArea.${incident.permit.type}`, {
            number: incident.permit.number,
            defaultValue: incident.permit.number,
          })}
        </td>
      ) : (
        <td>{incident.zoneName ?? t('safety.na')}</td>
      )}
      <td data-testid="incident-status">
        <Tag intent={STATUS_INTENT[incident.status]}>
          {incident.level > 0 && incident.status === 'escalated'
            ? t('safety.status.escalatedLevel', { level: incident.level })
            : t(`safety.status.${incident.status}`)}
        </Tag>
      </td>
      <td className="sw-safety-escalation">
        {incident.level > 0 && incident.status !== 'escalated' && (
          <div data-testid="incident-level">
            {t('safety.incidents.reachedLevel', { level: incident.level })}
          </div>
        )}
        {incident.escalatedAt && (
          <div data-testid="incident-escalated-by">
            {incident.escalatedBy
              ? t('safety.incidents.escalatedBy', {
                  name: incident.escalatedBy.name,
                  time: time(incident.escalatedAt),
                })
              : t('safety.incidents.escalatedAutomatically', { time: time(incident.escalatedAt) })}
          </div>
        )}
        {incident.acknowledgedAt && (
          <div data-testid="incident-acknowledged-by">
            {t('safety.incidents.acknowledgedBy', {
              name: incident.acknowledgedBy?.name ?? t('safety.na'),
              time: time(incident.acknowledgedAt),
            })}
          </div>
        )}
        {incident.resolvedAt && (
          <div data-testid="incident-resolved-by">
            {t('safety.incidents.resolvedBy', {
              name: incident.resolvedBy?.name ?? t('safety.na'),
              time: time(incident.resolvedAt),
            })}
          </div>
        )}
        <IncidentCountdown incident={incident} />
      </td>
      {canAct && (
        <td className="sw-safety-actions">
          {button('escalate', 'circle-arrow-up', 'warning')}
          {button('acknowledge', 'eye-open', 'primary')}
          {button('resolve', 'tick', 'success')}
        </td>
      )}
    </tr>
  );
}
