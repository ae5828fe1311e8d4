import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isDeviceIncident, type SafetyIncident } from '../../../domain/incidents';
import { formatDuration } from '../safetyFormat';

const TICK_MS = 1000;

/**
 * The time left before an open or escalated incident climbs to its next level, counting down each
 * second; only this cell re-renders with the clock.
 */
export function IncidentCountdown({ incident }: { incident: SafetyIncident }) {
  const { t } = useTranslation();
  const [now, setNow] = useState(() => Date.now());
  const due = incident.nextEscalationAt ? Date.parse(incident.nextEscalationAt) : null;
  useEffect(() => {
    if (due === null) return;
    const timer = setInterval(() => setNow(Date.now()), TICK_MS);
    return () => clearInterval(timer);
  }, [due]);
  if (incident.status !== 'open' && incident.status !== 'escalated') return null;
  // A device's incident never climbs on its own: no countdown, and no "last level" either.
  if (isDeviceIncident(incident.type)) return null;
  if (due === null)
    return incident.level > 0 ? (
      <span data-testid="incident-next-step">{t('safety.incidents.lastLevel')}</span>
    ) : null;
  const seconds = Math.ceil((due - now) / 1000);
  const level = incident.level + 1;
  return (
    <span data-testid="incident-next-step" data-due={incident.nextEscalationAt}>
      {seconds > 0
        ? t('safety.incidents.nextStep', { level, time: formatDuration(seconds, t) })
        : t('safety.incidents.stepDue', { level })}
    </span>
  );
}
