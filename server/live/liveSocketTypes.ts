import type { Server, Socket } from 'socket.io';
import { LIVE_EVENTS, type LiveSnapshot, type LocationUpdate } from '../../src/domain/live';
import type { Role } from '../../src/domain/roles';

export interface LiveServerToClientEvents {
  [LIVE_EVENTS.snapshot]: (snapshot: LiveSnapshot) => void;
  [LIVE_EVENTS.locationUpdate]: (update: LocationUpdate) => void;
}

export interface LiveClientToServerEvents {
  [LIVE_EVENTS.requestSnapshot]: (ack: (snapshot: LiveSnapshot) => void) => void;
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
