import {
  EVACUATION_MESSAGES,
  type EvacuationCounts,
  type EvacuationScope,
  type EvacuationStatus,
} from './evacuation';

/**
 * The rules of spec §4 for a worker during an evacuation, used by the safety service for every
 * status it stores and by the console wherever it derives one. Pure: the same facts always give
 * the same status, which is why a restart (facts re-read from the database) never changes one.
 */

/** What the database knows about one included worker's helmet and button. */
export interface EvacuationFacts {
  isOnline: boolean;
  /** Time of the helmet's latest position (ISO), null if it never reported one. */
  lastSeen: string | null;
  /** The zone of that latest position, null when outside every zone. */
  zoneId: number | null;
  /** First acknowledge press at or after the start (ISO), or null. */
  acknowledgedAt: string | null;
}

/** What the rules need of the session. */
export interface EvacuationRuleScope {
  startedAt: string;
  assemblyZoneIds: readonly number[];
  safeZone: number | null;
}

/** The latest position is inside an assembly zone or the safe zone, and no older than the start. */
export function isInSafePlace(facts: EvacuationFacts, scope: EvacuationRuleScope): boolean {
  if (facts.lastSeen === null || facts.zoneId === null) return false;
  if (Date.parse(facts.lastSeen) < Date.parse(scope.startedAt)) return false;
  return scope.assemblyZoneIds.includes(facts.zoneId) || scope.safeZone === facts.zoneId;
}

/** Spec §4: offline when not online; safe; manualAcknowledge when acknowledged; else autoAcknowledge. */
export function evacuationStatus(facts: EvacuationFacts, scope: EvacuationRuleScope): EvacuationStatus {
  if (!facts.isOnline || facts.lastSeen === null) return 'offline';
  if (isInSafePlace(facts, scope)) return 'safe';
  if (facts.acknowledgedAt !== null) return 'manualAcknowledge';
  return 'autoAcknowledge';
}

/**
 * Why a scope cannot start an evacuation (in the words the service refuses with), or null: the
 * console's dialog and machine and the service's start all ask this one rule.
 */
export function evacuationScopeProblem(
  scope: Pick<EvacuationScope, 'floorIds' | 'zoneIds' | 'assemblyZoneIds' | 'safeZone'>,
): string | null {
  if (scope.floorIds.length === 0 && scope.zoneIds.length === 0) return EVACUATION_MESSAGES.emptyScope;
  if (scope.assemblyZoneIds.length === 0 && scope.safeZone === null) return EVACUATION_MESSAGES.noAssembly;
  return null;
}

/** Whether a helmet's position puts its worker in the evacuated area. */
export function isInEvacuatedArea(
  position: { floorId: number | null; zoneId: number | null },
  scope: Pick<EvacuationScope, 'floorIds' | 'zoneIds'>,
): boolean {
  if (position.floorId !== null && scope.floorIds.includes(position.floorId)) return true;
  return position.zoneId !== null && scope.zoneIds.includes(position.zoneId);
}

/** The counters of the wall screen from the included workers' statuses. */
export function countEvacuation(statuses: Iterable<EvacuationStatus>): EvacuationCounts {
  const counts: EvacuationCounts = {
    included: 0,
    safe: 0,
    manualAcknowledge: 0,
    autoAcknowledge: 0,
    offline: 0,
    stillInside: 0,
  };
  for (const status of statuses) {
    counts.included += 1;
    counts[status] += 1;
    if (status !== 'safe') counts.stillInside += 1;
  }
  return counts;
}

/** Why a stored status changed (kept with every change). */
export const STATUS_CAUSES = ['start', 'joined', 'position', 'acknowledge', 'offline', 'reconcile'] as const;
export type StatusCause = (typeof STATUS_CAUSES)[number];

/** An included worker's stored state during a session (one row of evacuation_workers). */
export interface EvacuationWorkerRecord {
  workerId: number;
  inventoryItemId: number;
  status: EvacuationStatus;
  includedAt: string;
  statusChangedAt: string;
  safeAt: string | null;
  acknowledgedAt: string | null;
  /** First time the worker was safe or acknowledged: accounted for. */
  accountedAt: string | null;
}

export interface StatusChange {
  workerId: number;
  from: EvacuationStatus | null;
  to: EvacuationStatus;
  at: string;
  cause: StatusCause;
}

/**
 * The next stored state of an included worker from fresh facts: a new record (null before) on
 * inclusion, the same record when nothing changed. `at` is when the service evaluated.
 */
export function nextWorkerRecord(
  previous: EvacuationWorkerRecord | null,
  identity: { workerId: number; inventoryItemId: number },
  facts: EvacuationFacts,
  scope: EvacuationRuleScope,
  at: string,
  cause: StatusCause,
): { record: EvacuationWorkerRecord; change: StatusChange | null } {
  const acknowledgedAt = previous?.acknowledgedAt ?? facts.acknowledgedAt;
  const status = evacuationStatus({ ...facts, acknowledgedAt }, scope);
  if (previous && previous.status === status && previous.acknowledgedAt === acknowledgedAt)
    return { record: previous, change: null };
  const accounted = status === 'safe' || status === 'manualAcknowledge';
  const record: EvacuationWorkerRecord = {
    workerId: identity.workerId,
    inventoryItemId: identity.inventoryItemId,
    status,
    includedAt: previous?.includedAt ?? at,
    statusChangedAt: previous && previous.status === status ? previous.statusChangedAt : at,
    safeAt: previous?.safeAt ?? (status === 'safe' ? at : null),
    acknowledgedAt,
    accountedAt: previous?.accountedAt ?? (accounted ? at : null),
  };
  const change =
    previous?.status === status
      ? null
      : { workerId: identity.workerId, from: previous?.status ?? null, to: status, at, cause };
  return { record, change };
}
