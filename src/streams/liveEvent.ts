import type { LiveSnapshot, LocationUpdate } from '../domain/live';

/** How the live channel is doing, for the connection indicator. */
export type LiveConnectionState = 'connecting' | 'live' | 'reconnecting' | 'offline';

/** One thing the live socket said, typed: what `src/api/live.ts` turns socket.io events into. */
export type LiveEvent =
  | { readonly type: 'snapshot'; readonly snapshot: LiveSnapshot }
  | { readonly type: 'update'; readonly update: LocationUpdate }
  | {
      readonly type: 'connection';
      readonly state: LiveConnectionState;
      /** Why it is offline or reconnecting (the server's refusal), when known. */
      readonly reason?: string;
    };
