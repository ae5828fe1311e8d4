/**
 * Safety incidents (spec §7 "Safety service"): raised by a helmet's alarm (SOS, fall, no motion)
 * or by a helmet entering a restricted zone; listed by GET /api/safety/incident/getAll and
 * escalated by POST /api/safety/incident/escelate.
 */

/** Helmet alarms that raise an incident, as they arrive on `sitewatch/{siteId}/events`. */
export const ALARM_EVENT_TYPES = ['sos', 'fall', 'noMotion'] as const;
export type AlarmEventType = (typeof ALARM_EVENT_TYPES)[number];

export const INCIDENT_TYPES = [...ALARM_EVENT_TYPES, 'restrictedZone'] as const;
export type IncidentType = (typeof INCIDENT_TYPES)[number];

export const INCIDENT_STATUSES = ['open', 'escalated'] as const;
export type IncidentStatus = (typeof INCIDENT_STATUSES)[number];

export interface SafetyIncident {
  id: number;
  siteId: number;
  type: IncidentType;
  status: IncidentStatus;
  /** When it happened (the helmet's timestamp). */
  ts: string;
  workerId: number | null;
  workerName: string | null;
  wntInventoryId: string;
  floorId: number | null;
  floorName: string | null;
  zoneId: number | null;
  zoneName: string | null;
  escalatedAt: string | null;
  escalatedBy: { id: number; name: string } | null;
}

export function isIncidentStatus(value: unknown): value is IncidentStatus {
  return typeof value === 'string' && (INCIDENT_STATUSES as readonly string[]).includes(value);
}
