import {
  ACCOUNTED_STATUSES,
  EVACUATION_MESSAGES,
  EVACUATION_STATUSES,
  type EvacuationCounts,
  type EvacuationScope,
  type EvacuationStatus,
} from './evacuation';

/**
 * The rules of spec §4 for a worker during an evacuation, used by the safety service for every
 * status it stores and by the console wherever it derives one. Pure: the same facts always give
 * the same status, which is why a restart (facts re-read from the database) never changes one.
 */

/** What the database knows about one included worker's helmet, button and marks. */
export interface EvacuationFacts {
  isOnline: boolean;
  /** Time of the helmet's latest position (ISO), null if it never reported one. */
  lastSeen: string | null;
  /** The floor and zone of that latest position (null zone: outside every zone). */
  floorId: number | null;
  zoneId: number | null;
  /** First acknowledge press at or after the start (ISO), or null. */
  acknowledgedAt: string | null;
  /** When a marshal's active (not undone) mark was made, or null. */
  markedAt: string | null;
}

/** What the rules need of the session. */
export interface EvacuationRuleScope {
  startedAt: string;
  assemblyZoneIds: readonly number[];
  safeZone: number | null;
  /** The evacuated area: a position here after being accounted for is a re-entry. */
  floorIds: readonly number[];
  zoneIds: readonly number[];
}

/** Where a redirect sent a worker, and when (the worker's record). */
export interface Redirect {
  redirectedAt: string | null;
  redirectZoneId: number | null;
}

const NO_REDIRECT: Redirect = { redirectedAt: null, redirectZoneId: null };

const after = (instant: string | null, since: string) =>
  instant !== null && Date.parse(instant) >= Date.parse(since);

/**
 * The latest position is inside a safe place and no older than the start: an assembly zone or
 * the safe zone, or, for a worker redirected, the zone they were sent to, reached after the redirect.
 */
export function isInSafePlace(
  facts: EvacuationFacts,
  scope: EvacuationRuleScope,
  redirect: Redirect = NO_REDIRECT,
): boolean {
  if (facts.zoneId === null || !after(facts.lastSeen, scope.startedAt)) return false;
  if (scope.safeZone === facts.zoneId) return true;
  if (redirect.redirectedAt !== null)
    return redirect.redirectZoneId === facts.zoneId && after(facts.lastSeen, redirect.redirectedAt);
  return scope.assemblyZoneIds.includes(facts.zoneId);
}

/** An online position, newer than `since`, inside the evacuated area and not in a safe place. */
function seenInsideSince(
  facts: EvacuationFacts,
  scope: EvacuationRuleScope,
  since: string | null,
  redirect: Redirect,
): boolean {
  if (since === null || !facts.isOnline || facts.lastSeen === null) return false;
  if (Date.parse(facts.lastSeen) <= Date.parse(since)) return false;
  return isInEvacuatedArea(facts, scope) && !isInSafePlace(facts, scope, redirect);
}

/** What the status depends on besides the facts: the worker's own history in the session. */
export interface WorkerHistory extends Redirect {
  /** First time safe (after the latest redirect), or null. */
  safeAt: string | null;
  /** The helmet was already silent when the worker was put on the roll (and has not spoken since). */
  silentAtAlarm: boolean;
}

const NO_HISTORY: WorkerHistory = { safeAt: null, silentAtAlarm: true, ...NO_REDIRECT };

/**
 * A worker's status during an evacuation, tried in this order (docs/decisions.md "Muster"):
 * - reEntered: accounted for (safe, or marked by a marshal) and then seen inside the evacuated area;
 * - safe: an online helmet in a safe place now, or safe before and not back inside (leaving the
 *   muster point for somewhere outside the evacuated area keeps them safe); helmet evidence first;
 * - marked: a marshal's active mark (a person seen is a person, whatever their helmet says);
 * - offline / offlineBeforeAlarm (spec §4: not online; apart when the helmet was already silent at
 *   the alarm and has reported nothing since);
 * - manualAcknowledge when the button was pressed; otherwise autoAcknowledge (spec §4).
 */
export function evacuationStatus(
  facts: EvacuationFacts,
  scope: EvacuationRuleScope,
  history: WorkerHistory = NO_HISTORY,
): EvacuationStatus {
  const accountedSince = facts.markedAt ?? history.safeAt;
  if (seenInsideSince(facts, scope, accountedSince, history)) return 'reEntered';
  const online = facts.isOnline && facts.lastSeen !== null;
  if (online && isInSafePlace(facts, scope, history)) return 'safe';
  if (online && history.safeAt !== null && !isInEvacuatedArea(facts, scope)) return 'safe';
  if (facts.markedAt !== null) return 'marked';
  if (!online)
    return history.silentAtAlarm && facts.lastSeen !== null && !after(facts.lastSeen, scope.startedAt)
      ? 'offlineBeforeAlarm'
      : 'offline';
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
  scope: { floorIds: readonly number[]; zoneIds: readonly number[] },
): boolean {
  if (position.floorId !== null && scope.floorIds.includes(position.floorId)) return true;
  return position.zoneId !== null && scope.zoneIds.includes(position.zoneId);
}

/** The counters of the wall screen from the statuses of everyone on the roll. */
export function countEvacuation(
  statuses: Iterable<EvacuationStatus>,
  alarmUndelivered = 0,
): EvacuationCounts {
  const counts = {
    included: 0,
    stillInside: 0,
    alarmUndelivered,
    ...Object.fromEntries(EVACUATION_STATUSES.map((status) => [status, 0])),
  } as EvacuationCounts;
  for (const status of statuses) {
    counts.included += 1;
    counts[status] += 1;
    if (!ACCOUNTED_STATUSES.includes(status)) counts.stillInside += 1;
  }
  return counts;
}

/** Why a stored status changed (kept with every change). */
export const STATUS_CAUSES = [
  'start',
  'joined',
  'position',
  'acknowledge',
  'offline',
  'reconcile',
  'mark',
  'unmark',
  'redirect',
] as const;
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
  /** The floor the helmet was on at inclusion, and the first time it was seen off it since. */
  originFloorId: number | null;
  leftFloorAt: string | null;
  /** Where a redirect sent the worker (an assembly zone marked unsafe), and when. */
  redirectedAt: string | null;
  redirectZoneId: number | null;
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
  const redirect: Redirect = previous ?? NO_REDIRECT;
  const status = evacuationStatus({ ...facts, acknowledgedAt }, scope, {
    safeAt: previous?.safeAt ?? null,
    // Put on the roll silent (or marked since): still silent, it stays apart from helmets lost after the alarm.
    silentAtAlarm:
      previous === null || previous.status === 'offlineBeforeAlarm' || previous.status === 'marked',
    ...redirect,
  });
  const originFloorId = previous ? previous.originFloorId : facts.floorId;
  const leftFloorAt = leftOriginFloorAt(
    originFloorId,
    previous?.leftFloorAt ?? null,
    facts,
    previous?.includedAt ?? at,
    at,
  );
  if (
    previous &&
    previous.status === status &&
    previous.acknowledgedAt === acknowledgedAt &&
    previous.leftFloorAt === leftFloorAt
  )
    return { record: previous, change: null };
  const accounted = status === 'safe' || status === 'manualAcknowledge' || status === 'marked';
  const record: EvacuationWorkerRecord = {
    workerId: identity.workerId,
    inventoryItemId: identity.inventoryItemId,
    status,
    includedAt: previous?.includedAt ?? at,
    statusChangedAt: previous && previous.status === status ? previous.statusChangedAt : at,
    safeAt: previous?.safeAt ?? (status === 'safe' ? at : null),
    acknowledgedAt,
    accountedAt: previous?.accountedAt ?? (accounted ? at : null),
    originFloorId,
    leftFloorAt,
    redirectedAt: redirect.redirectedAt,
    redirectZoneId: redirect.redirectZoneId,
  };
  const change =
    previous?.status === status
      ? null
      : { workerId: identity.workerId, from: previous?.status ?? null, to: status, at, cause };
  return { record, change };
}

/**
 * Since when the helmet has been off the floor it was on at inclusion: set by the first online
 * position elsewhere after inclusion, cleared when it is seen back on that floor (the floor is
 * then not clear again); a silent helmet changes nothing.
 */
function leftOriginFloorAt(
  originFloorId: number | null,
  previous: string | null,
  facts: EvacuationFacts,
  includedAt: string,
  at: string,
): string | null {
  if (originFloorId === null || !facts.isOnline || !after(facts.lastSeen, includedAt)) return previous;
  if (facts.floorId === originFloorId) return null;
  return previous ?? at;
}

/**
 * A redirect: the worker must now reach `zoneId`; being safe elsewhere no longer counts, so the
 * first safe time starts again (the report's time to muster then includes the second walk).
 */
export function redirectRecord(
  record: EvacuationWorkerRecord,
  zoneId: number,
  at: string,
): EvacuationWorkerRecord {
  return { ...record, redirectedAt: at, redirectZoneId: zoneId, safeAt: null };
}
