import type { SafetyIncident } from './incidents';
import type { ConnectionStatus, WorkerOnMap } from './inventory';
import type { LiveCursor } from './live';
import type { Envelope as ApiEnvelope } from './user';

/**
 * The evacuation contract (spec §3 "Evacuation", §4, §7 "Safety service"): socket event names and
 * payloads shared by the safety service and the console. The rules that decide a worker's status
 * live in `evacuationRules.ts`.
 */

/**
 * Spec §4's statuses (offline, safe, manualAcknowledge, autoAcknowledge) and ours beside them
 * (docs/decisions.md "Muster"): reEntered, a worker accounted for who is seen inside again;
 * marked, accounted for by a marshal; offlineBeforeAlarm, a helmet already silent at the alarm;
 * noHelmet, a person a marshal added to the roll and nobody has marked yet.
 */
export const EVACUATION_STATUSES = [
  'reEntered',
  'offline',
  'offlineBeforeAlarm',
  'safe',
  'marked',
  'manualAcknowledge',
  'autoAcknowledge',
  'noHelmet',
] as const;
export type EvacuationStatus = (typeof EVACUATION_STATUSES)[number];

/** The statuses that count as accounted for: by helmet evidence (safe) or by a marshal (marked). */
export const ACCOUNTED_STATUSES: readonly EvacuationStatus[] = ['safe', 'marked'];

/** Marker and counter colours during an evacuation (offline is the grey of other markers). */
export const EVACUATION_COLOURS: Record<EvacuationStatus, number> = {
  reEntered: 0xd9001b,
  safe: 0x0001f5,
  marked: 0x0b7a75,
  manualAcknowledge: 0xaf0d6e,
  autoAcknowledge: 0x743000,
  offline: 0xb3bdcc,
  offlineBeforeAlarm: 0x8a94a6,
  noHelmet: 0x5c3c92,
};

/** Why a marshal marks someone accounted for: the common reasons offered, or any text. */
export const MARK_REASONS = ['seenAtMusterPoint', 'leftSiteBeforeAlarm', 'visitor'] as const;

/** A marshal's mark on a worker or a person added to the roll. */
export interface MarshalMark {
  id: number;
  reason: string;
  markedAt: string;
  markedBy: { id: number; name: string } | null;
}

/** A person on the roll without a helmet (name, company), added by a marshal. */
export interface RollPerson {
  id: number;
  name: string;
  company: string;
  addedAt: string;
  addedBy: { id: number; name: string } | null;
  status: Extract<EvacuationStatus, 'marked' | 'noHelmet'>;
  mark: MarshalMark | null;
}

/** When each evacuated floor was cleared: its last included worker left it or was accounted for. */
export interface FloorClearance {
  floorId: number;
  /** null while someone included on it is still there (or unaccounted for). */
  clearedAt: string | null;
  /** Included workers who started on this floor and have not left it nor been accounted for. */
  remaining: number;
}

/** What the officer chooses in the start dialog. */
export interface EvacuationScope {
  /** Floors to evacuate entirely. */
  floorIds: number[];
  /** Zones to evacuate (on floors not listed in floorIds, or as well). */
  zoneIds: number[];
  /** Assembly zones: a worker whose position after the start falls in one is safe. */
  assemblyZoneIds: number[];
  /** One more zone counting as safe (e.g. outside the site), or null. */
  safeZone: number | null;
  /** The network (gateway) whose silence matters most during this evacuation, or null. */
  gateWayId: number | null;
}

/** client → server `startEvacuation`. */
export interface StartEvacuationRequest extends EvacuationScope {
  siteId: number;
}

/** client → server `endEvacuation`. */
export interface EndEvacuationRequest {
  siteId: number;
  evacuationSessionId: string;
}

/** Spec §3 "Evacuation": one session of a site, as stored and as sent. */
export interface Evacuation extends EvacuationScope {
  evacuationSessionId: string;
  siteId: number;
  evacuationStartAt: string;
  /** floorIds plus the floors of zoneIds: where the included workers were. */
  evacuationFloorsIds: number[];
  /** Assembly zones marked unsafe during the evacuation (no longer in assemblyZoneIds). */
  unsafeAssemblyZoneIds: number[];
  /** Incidents raised on the site since the start. */
  safetyEvents: SafetyIncident[];
  /** True while it runs; false once ended. */
  started: boolean;
  endedAt: string | null;
  startedBy: { id: number; name: string } | null;
  endedBy: { id: number; name: string } | null;
}

/** A worker on the map during an evacuation (spec §3, "In evacuation also"). */
export interface EvacuationWorker extends WorkerOnMap {
  /** The worker (never null here: only helmets worn by a worker are included). */
  id: number;
  isSafe: boolean;
  isWorkerAcknowledged: boolean;
  isIncludedEvacuation: boolean;
  status: EvacuationStatus;
  /** When the worker was included: the start, or when an online helmet entered the area later. */
  includedAt: string;
  statusChangedAt: string;
  /** First time the worker was safe during this session. */
  safeAt: string | null;
  /** First acknowledge press at or after the start. */
  acknowledgedAt: string | null;
  /** The marshal's active mark, null when none (or undone). */
  mark: MarshalMark | null;
  /** The alarm command last sent to the helmet, and when the helmet confirmed it (null: not yet). */
  alarmSentAt: string | null;
  alarmDeliveredAt: string | null;
  /** The floor the worker was on when included, and the assembly zone a redirect sent them to. */
  originFloorId: number | null;
  redirectZoneId: number | null;
  redirectedAt: string | null;
}

/**
 * POST /api/safety/getworkers: a floor's workers with the evacuation fields. Outside an
 * evacuation, or for a worker not included, isIncludedEvacuation is false and status is the
 * connection status (spec §4: active or inactive; offline when not online).
 */
export interface SafetyWorker extends WorkerOnMap {
  isSafe: boolean;
  isWorkerAcknowledged: boolean;
  isIncludedEvacuation: boolean;
  status: EvacuationStatus | ConnectionStatus;
}

/** The counters of the wall screen; `stillInside` is everyone included who is not safe. */
export interface EvacuationCounts extends Record<EvacuationStatus, number> {
  /** Everyone on the roll: included workers and people added without a helmet. */
  included: number;
  /** Everyone included who is not accounted for (neither safe nor marked). */
  stillInside: number;
  /** Included helmets whose alarm command was never confirmed. */
  alarmUndelivered: number;
}

/**
 * server → client `evacuationInProgress`: the full, versioned state of the running evacuation.
 * Sent at the start, to every socket that joins while one runs, and in answer to
 * `requestEvacuation`. Changes after it carry seq + 1, + 2, … of the same stream.
 */
export interface EvacuationSnapshot extends LiveCursor {
  evacuation: Evacuation;
  workers: EvacuationWorker[];
  rollPeople: RollPerson[];
  floorClearances: FloorClearance[];
  counts: EvacuationCounts;
  at: string;
}

/** server → client `evacuating`: a batch of status changes, with the counts after it. */
export interface EvacuatingBatch extends LiveCursor {
  siteId: number;
  evacuationSessionId: string;
  workers: EvacuationWorker[];
  /** Roll people added or marked in this batch. */
  rollPeople: RollPerson[];
  floorClearances: FloorClearance[];
  counts: EvacuationCounts;
  /** Set when the session's area or assembly zones changed (phased evacuation, redirect). */
  evacuation?: Evacuation;
}

/** server → client `evacuationEnded`. */
export interface EvacuationEnded {
  siteId: number;
  evacuationSessionId: string;
  endedAt: string;
  endedBy: { id: number; name: string } | null;
}

/** server → client `networkFailure`: a network silent for NETWORK_SILENCE, or heard again. */
export interface NetworkFailure {
  siteId: number;
  networkId: number;
  networkName: string;
  /** true when it went silent, false when positions came back. */
  failed: boolean;
  lastHeardAt: string | null;
  silentForSeconds: number;
}

/** server → client `safetyServiceError`: the service could not do something the site relies on. */
export interface SafetyServiceError {
  siteId: number | null;
  message: string;
}

/** server → client `safetyEvents`: new incidents of the site. */
export interface SafetyEventsBatch {
  siteId: number;
  incidents: SafetyIncident[];
}

/** client → server `requestEvacuation` is answered with the running evacuation, or null. */
export type EvacuationRequestReply = ApiEnvelope<EvacuationSnapshot | null>;

/** Socket event names of the safety channel (spec §7), on the live channel's socket. */
export const SAFETY_EVENTS = {
  startEvacuation: 'startEvacuation',
  endEvacuation: 'endEvacuation',
  /** Ours: a client asks for the evacuation snapshot (after a gap, another stream, or on mount). */
  requestEvacuation: 'requestEvacuation',
  networkFailure: 'networkFailure',
  safetyServiceError: 'safetyServiceError',
  safetyEvents: 'safetyEvents',
  evacuationInProgress: 'evacuationInProgress',
  evacuating: 'evacuating',
  evacuationEnded: 'evacuationEnded',
} as const;

/** The room every socket of a site joins, whatever floor it watches: evacuation and safety events. */
export function safetyRoom(siteId: number): string {
  return `safety:${siteId}`;
}

/** `startEvacuation` is acknowledged with the new session; `endEvacuation` with the ended one. */
export type StartEvacuationReply = ApiEnvelope<Evacuation>;
export type EndEvacuationReply = ApiEnvelope<Evacuation>;

/** The messages of refusals the console shows as they are. */
export const EVACUATION_MESSAGES = {
  alreadyRunning: 'An evacuation is already in progress on this site',
  notRunning: 'No evacuation is in progress on this site',
  wrongSession: 'This evacuation has already ended',
  emptyScope: 'Choose at least one floor or zone to evacuate',
  noAssembly: 'Choose at least one assembly zone or a safe zone',
  forbidden: 'You are not allowed to start or end an evacuation',
  markForbidden: 'You are not allowed to mark people during an evacuation',
  notIncluded: 'This person is not on the roll of this evacuation',
  reasonRequired: 'Give a reason for the mark',
  reasonTooLong: 'The reason can be at most 200 characters',
  nameRequired: "Enter the person's name",
  nameTooLong: 'The name can be at most 100 characters',
  companyTooLong: 'The company can be at most 100 characters',
  markNotFound: 'This mark was not found',
  markAlreadyUndone: 'This mark has already been undone',
  notAssembly: 'This zone is not an assembly zone of this evacuation',
  sameRedirect: 'Choose another assembly zone to redirect to',
  nothingToAdd: 'Choose at least one floor or zone that is not already evacuated',
} as const;
