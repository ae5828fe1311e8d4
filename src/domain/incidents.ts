/**
 * Safety incidents (spec §7 "Safety service"): raised by a helmet's alarm (SOS, fall, no motion),
 * by a helmet entering a restricted zone, by a worker already safe going back into the area
 * being evacuated, or by an anchor reported away from where it was placed for a minute
 * (`anchorMoved`, server/nodes/anchorMovedRule.ts), or by someone else entering an active hot-work
 * permit's area (`permitAreaEntry`, src/domain/workPermits.ts); listed by GET /api/safety/incident/getAll, escalated by hand
 * (POST /api/safety/incident/escelate) or on their own (src/domain/escalation.ts), acknowledged
 * and resolved.
 */

/** Helmet alarms that raise an incident, as they arrive on `sitewatch/{siteId}/events`. */
export const ALARM_EVENT_TYPES = ['sos', 'fall', 'noMotion'] as const;
export type AlarmEventType = (typeof ALARM_EVENT_TYPES)[number];

export const INCIDENT_TYPES = [
  ...ALARM_EVENT_TYPES,
  'restrictedZone',
  'reEntry',
  'anchorMoved',
  'permitAreaEntry',
] as const;
export type IncidentType = (typeof INCIDENT_TYPES)[number];

/**
 * Incidents about a device rather than a person: no worker, the node's id names them. They never
 * escalate on their own (maintenance, not an emergency); a person may still escalate them by hand.
 */
export const DEVICE_INCIDENT_TYPES: readonly IncidentType[] = ['anchorMoved'];

export function isDeviceIncident(type: IncidentType): boolean {
  return DEVICE_INCIDENT_TYPES.includes(type);
}

export const INCIDENT_STATUSES = ['open', 'escalated', 'acknowledged', 'resolved'] as const;
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
  /** permitAreaEntry: the permit whose area was entered (null once the permit is deleted). */
  permit: { id: number; number: string; type: string } | null;
  /** The last escalation, by hand (with who) or by the scheduler (by null). */
  escalatedAt: string | null;
  escalatedBy: { id: number; name: string } | null;
  /** The escalation level reached: 0 until the first step. */
  level: number;
  /** How many levels the site escalates through (the manual escalation stops at the last). */
  levelCount: number;
  /** When the next automatic step is due; null once acknowledged, resolved or at the last level. */
  nextEscalationAt: string | null;
  acknowledgedAt: string | null;
  acknowledgedBy: { id: number; name: string } | null;
  resolvedAt: string | null;
  resolvedBy: { id: number; name: string } | null;
}

export function isIncidentStatus(value: unknown): value is IncidentStatus {
  return typeof value === 'string' && (INCIDENT_STATUSES as readonly string[]).includes(value);
}
