import { SAFETY_EVENTS } from '../../src/domain/evacuation';
import { LIVE_EVENTS } from '../../src/domain/live';

interface SocketEvent {
  name: string;
  direction: 'server → client' | 'client → server';
  payload: string;
  when: string;
}

/**
 * The socket events of the live channel on SAFETY_PORT, written by hand beside the types they
 * describe (src/domain/live.ts, src/domain/evacuation.ts); the event names come from the code.
 */
const EVENTS: SocketEvent[] = [
  {
    name: LIVE_EVENTS.snapshot,
    direction: 'server → client',
    payload: '`LiveSnapshot` { stream, seq, siteId, floorId, workers: WorkerOnMap[], at }',
    when: 'first thing after every (re)connect; answer to `requestSnapshot`',
  },
  {
    name: LIVE_EVENTS.requestSnapshot,
    direction: 'client → server',
    payload: 'acknowledgement callback, answered with a `LiveSnapshot`',
    when: 'after a gap in `seq` or a new `stream`',
  },
  {
    name: LIVE_EVENTS.locationUpdate,
    direction: 'server → client',
    payload: '`LocationUpdate` { stream, seq, siteId, floorId, workers: WorkerOnMap[] }',
    when: 'committed helmet changes of the socket’s floor or site',
  },
  {
    name: SAFETY_EVENTS.startEvacuation,
    direction: 'client → server',
    payload:
      '{ siteId, floorIds: number[], zoneIds: number[], assemblyZoneIds: number[], safeZone: number \\| null, gateWayId: number \\| null } + acknowledgement, answered `{ status: "success", data: Evacuation }` or `{ status: "error", message }`',
    when: 'roles that may write evacuation; siteId must be the socket’s site; one running evacuation per site',
  },
  {
    name: SAFETY_EVENTS.endEvacuation,
    direction: 'client → server',
    payload: '{ siteId, evacuationSessionId } + acknowledgement, answered like `startEvacuation`',
    when: 'roles that may write evacuation',
  },
  {
    name: SAFETY_EVENTS.requestEvacuation,
    direction: 'client → server',
    payload: 'acknowledgement callback, answered `{ status: "success", data: EvacuationSnapshot \\| null }`',
    when: 'after a gap in an `evacuating` seq, or on mount',
  },
  {
    name: SAFETY_EVENTS.evacuationInProgress,
    direction: 'server → client',
    payload:
      '`EvacuationSnapshot` { stream, seq, evacuation: Evacuation, workers: EvacuationWorker[], counts: EvacuationCounts, at }',
    when: 'at the start to the whole site, and on connect while one runs',
  },
  {
    name: SAFETY_EVENTS.evacuating,
    direction: 'server → client',
    payload:
      '`EvacuatingBatch` { stream, seq, siteId, evacuationSessionId, workers: EvacuationWorker[] (changed only), counts }',
    when: 'after each evaluated change; seq is one more than the last snapshot or batch',
  },
  {
    name: SAFETY_EVENTS.evacuationEnded,
    direction: 'server → client',
    payload: '`EvacuationEnded` { siteId, evacuationSessionId, endedAt, endedBy: { id, name } \\| null }',
    when: 'when the running evacuation ends',
  },
  {
    name: SAFETY_EVENTS.networkFailure,
    direction: 'server → client',
    payload: '`NetworkFailure` { siteId, networkId, networkName, failed, lastHeardAt, silentForSeconds }',
    when: 'once when a site network is silent for NETWORK_SILENCE, once when heard again, and to a socket that joins while it is still silent',
  },
  {
    name: SAFETY_EVENTS.safetyServiceError,
    direction: 'server → client',
    payload: '`SafetyServiceError` { siteId, message }',
    when: 'the service could not evaluate or send statuses',
  },
  {
    name: SAFETY_EVENTS.safetyEvents,
    direction: 'server → client',
    payload: '`SafetyEventsBatch` { siteId, incidents: SafetyIncident[] }',
    when: 'incidents newly raised on the site',
  },
];

export function socketEventsReference(): string[] {
  return [
    '## Socket events',
    '',
    'socket.io on SAFETY_PORT, path `/socket.io`, with `auth: { token }` and the query `siteId` (and',
    'optionally `floorId`). Every socket of a role that may open safety or evacuation also joins its',
    "site's safety room. Types are in `src/domain/live.ts` and `src/domain/evacuation.ts`.",
    '',
    '| event | direction | payload | when |',
    '|---|---|---|---|',
    ...EVENTS.map((e) => `| \`${e.name}\` | ${e.direction} | ${e.payload} | ${e.when} |`),
    '',
  ];
}
