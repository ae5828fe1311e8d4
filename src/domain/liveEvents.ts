import type {
  EvacuatingBatch,
  EvacuationEnded,
  EvacuationSnapshot,
  NetworkFailure,
  SafetyEventsBatch,
  SafetyServiceError,
} from './evacuation';
import type { LiveSnapshot, LocationUpdate } from './live';

/** How the live channel is doing, for the connection indicator. */
export type LiveConnectionState = 'connecting' | 'live' | 'reconnecting' | 'offline';

/** A change of the connection, as every feed hears it. */
export interface LiveConnectionEvent {
  readonly type: 'connection';
  readonly state: LiveConnectionState;
  /** Why it is offline or reconnecting (the server's refusal), when known. */
  readonly reason?: string;
}

/** One thing a site or floor feed of the live client says, typed and already parsed. */
export type LiveEvent =
  | { readonly type: 'snapshot'; readonly snapshot: LiveSnapshot }
  | { readonly type: 'update'; readonly update: LocationUpdate }
  | LiveConnectionEvent;

/** What the safety events of the live socket say, typed (the evacuation and incident feeds). */
export type SafetySocketEvent =
  | { readonly type: 'evacuationInProgress'; readonly snapshot: EvacuationSnapshot }
  | { readonly type: 'evacuating'; readonly batch: EvacuatingBatch }
  | { readonly type: 'evacuationEnded'; readonly ended: EvacuationEnded }
  | { readonly type: 'networkFailure'; readonly failure: NetworkFailure }
  | { readonly type: 'safetyServiceError'; readonly error: SafetyServiceError }
  | { readonly type: 'safetyEvents'; readonly batch: SafetyEventsBatch };

/** Everything a site's socket says: live positions and connection state, and safety events. */
export type SafetyChannelEvent = LiveEvent | SafetySocketEvent;
