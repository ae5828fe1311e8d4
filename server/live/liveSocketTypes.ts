import type { Server, Socket } from 'socket.io';
import {
  type EndEvacuationReply,
  type EndEvacuationRequest,
  type EvacuatingBatch,
  type EvacuationEnded,
  type EvacuationSnapshot,
  type NetworkFailure,
  SAFETY_EVENTS,
  type SafetyEventsBatch,
  type SafetyServiceError,
  type StartEvacuationReply,
  type StartEvacuationRequest,
} from '../../src/domain/evacuation';
import { LIVE_EVENTS, type LiveSnapshot, type LocationUpdate } from '../../src/domain/live';
import type { LiveFeedReply, LiveFeedRequest } from '../../src/domain/liveFeeds';
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

/**
 * Payloads are parsed by the handlers with the schemas of src/domain/schemas/liveRequests.ts:
 * a client may send anything. `requestSnapshot` and `requestEvacuation` take an optional first
 * argument naming the feed (a multiplexed socket); without it they are about the handshake's site.
 */
export interface LiveClientToServerEvents {
  [LIVE_EVENTS.requestSnapshot]: (...args: unknown[]) => void;
  [LIVE_EVENTS.subscribe]: (request: LiveFeedRequest, ack: (reply: LiveFeedReply) => void) => void;
  [LIVE_EVENTS.unsubscribe]: (request: LiveFeedRequest, ack: (reply: LiveFeedReply) => void) => void;
  [SAFETY_EVENTS.startEvacuation]: (
    request: StartEvacuationRequest,
    ack: (reply: StartEvacuationReply) => void,
  ) => void;
  [SAFETY_EVENTS.endEvacuation]: (
    request: EndEvacuationRequest,
    ack: (reply: EndEvacuationReply) => void,
  ) => void;
  [SAFETY_EVENTS.requestEvacuation]: (...args: unknown[]) => void;
}

/** Who a socket belongs to and where it listens, as its handshake was admitted. */
export interface LiveSocketData {
  token: string;
  userId: number;
  role: Role;
  /** The handshake's site; null when it named none (the multiplexed live client of a tab). */
  siteId: number | null;
  floorId: number | null;
  /** The feeds the socket subscribed to since, each admitted by `admitFeed`. */
  feeds: LiveFeedRequest[];
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
