import type { Server, Socket } from 'socket.io';
import {
  type EndEvacuationReply,
  type EndEvacuationRequest,
  type EvacuatingBatch,
  type EvacuationEnded,
  type EvacuationRequestReply,
  type EvacuationSnapshot,
  type NetworkFailure,
  SAFETY_EVENTS,
  type SafetyEventsBatch,
  type SafetyServiceError,
  type StartEvacuationReply,
  type StartEvacuationRequest,
} from '../../src/domain/evacuation';
import { LIVE_EVENTS, type LiveSnapshot, type LocationUpdate } from '../../src/domain/live';
import type { Role } from '../../src/domain/roles';

export interface LiveServerToClientEvents {
  [LIVE_EVENTS.snapshot]: (snapshot: LiveSnapshot) => void;
  [LIVE_EVENTS.locationUpdate]: (update: LocationUpdate) => void;
  [SAFETY_EVENTS.evacuationInProgress]: (snapshot: EvacuationSnapshot) => void;
  [SAFETY_EVENTS.evacuating]: (batch: EvacuatingBatch) => void;
  [SAFETY_EVENTS.evacuationEnded]: (ended: EvacuationEnded) => void;
  [SAFETY_EVENTS.networkFailure]: (failure: NetworkFailure) => void;
  [SAFETY_EVENTS.safetyServiceError]: (error: SafetyServiceError) => void;
  [SAFETY_EVENTS.safetyEvents]: (batch: SafetyEventsBatch) => void;
}

export interface LiveClientToServerEvents {
  [LIVE_EVENTS.requestSnapshot]: (ack: (snapshot: LiveSnapshot) => void) => void;
  /** Payloads are checked by the handlers: a client may send anything. */
  [SAFETY_EVENTS.startEvacuation]: (
    request: StartEvacuationRequest,
    ack: (reply: StartEvacuationReply) => void,
  ) => void;
  [SAFETY_EVENTS.endEvacuation]: (
    request: EndEvacuationRequest,
    ack: (reply: EndEvacuationReply) => void,
  ) => void;
  [SAFETY_EVENTS.requestEvacuation]: (ack: (reply: EvacuationRequestReply) => void) => void;
}

/** Who a socket belongs to and where it listens, as its handshake was admitted. */
export interface LiveSocketData {
  token: string;
  userId: number;
  role: Role;
  siteId: number;
  floorId: number | null;
}

// biome-ignore lint/complexity/noBannedTypes: socket.io's "no server-to-server events".
type NoInterServerEvents = {};

export type LiveServer = Server<
  LiveClientToServerEvents,
  LiveServerToClientEvents,
  NoInterServerEvents,
  LiveSocketData
>;
export type LiveSocket = Socket<
  LiveClientToServerEvents,
  LiveServerToClientEvents,
  NoInterServerEvents,
  LiveSocketData
>;
