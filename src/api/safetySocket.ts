import { defer, merge, type Observable, Subject, share } from 'rxjs';
import { io, type Socket } from 'socket.io-client';
import {
  type EndEvacuationRequest,
  type EvacuatingBatch,
  type Evacuation,
  type EvacuationEnded,
  type EvacuationSnapshot,
  type NetworkFailure,
  SAFETY_EVENTS,
  type SafetyEventsBatch,
  type SafetyServiceError,
  type StartEvacuationRequest,
} from '../domain/evacuation';
import type { LiveSnapshot } from '../domain/live';
import { messages } from '../domain/messages';
import type { Envelope } from '../domain/user';
import type { SafetyChannelEvent, SafetySocketEvent } from '../streams/evacuation.stream';
import { ApiError } from './apiError';
import { type LiveChannelOptions, openLiveChannel } from './live';

export interface SafetyChannelOptions extends Omit<LiveChannelOptions, 'floorId'> {
  /** How long the service may take to acknowledge a start, an end or a snapshot request. */
  ackTimeoutMs?: number;
}

export interface SafetyChannel {
  /**
   * The site's live events (snapshots, location updates, connection state) and its safety events,
   * from one socket: it connects on the first subscription and closes when the last one leaves.
   */
  readonly events$: Observable<SafetyChannelEvent>;
  requestSnapshot(): Promise<LiveSnapshot>;
  /** The running evacuation's snapshot, or null when none runs. */
  requestEvacuation(): Promise<EvacuationSnapshot | null>;
  startEvacuation(request: StartEvacuationRequest): Promise<Evacuation>;
  endEvacuation(request: EndEvacuationRequest): Promise<Evacuation>;
}

/** The service's refusal as it worded it; a reply that is no envelope at all as the support text. */
function unwrap<T>(reply: Envelope<T> | undefined, present: (data: T | null) => data is T): T {
  const data = reply?.data ?? null;
  if (reply?.status === 'success' && present(data)) return data;
  throw new ApiError({
    kind: 'reply',
    message:
      reply?.status === 'error' && reply.message ? reply.message : messages.somethingWentWrongContactSupport,
    ...(reply ? { reply } : {}),
  });
}

const anyData = <T>(_data: T | null): _data is T => true;

function isEvacuation(data: Evacuation | null): data is Evacuation {
  return typeof data?.evacuationSessionId === 'string' && typeof data.evacuationStartAt === 'string';
}

/**
 * The live channel of the whole site (src/api/live.ts) with the safety events of spec §7 on the
 * same socket, so a screen holds one socket for its map and its evacuation.
 */
export function openSafetyChannel(options: SafetyChannelOptions): SafetyChannel {
  const { ackTimeoutMs = 10_000, connect = io } = options;
  const safety$ = new Subject<SafetySocketEvent>();
  let socket: Socket | null = null;

  const listen = (current: Socket) => {
    const on = <T>(name: string, event: (payload: T) => SafetySocketEvent) =>
      current.on(name, (payload: T) => safety$.next(event(payload)));
    on<EvacuationSnapshot>(SAFETY_EVENTS.evacuationInProgress, (snapshot) => ({
      type: 'evacuationInProgress',
      snapshot,
    }));
    on<EvacuatingBatch>(SAFETY_EVENTS.evacuating, (batch) => ({ type: 'evacuating', batch }));
    on<EvacuationEnded>(SAFETY_EVENTS.evacuationEnded, (ended) => ({ type: 'evacuationEnded', ended }));
    on<NetworkFailure>(SAFETY_EVENTS.networkFailure, (failure) => ({ type: 'networkFailure', failure }));
    on<SafetyServiceError>(SAFETY_EVENTS.safetyServiceError, (error) => ({
      type: 'safetyServiceError',
      error,
    }));
    on<SafetyEventsBatch>(SAFETY_EVENTS.safetyEvents, (batch) => ({ type: 'safetyEvents', batch }));
  };

  // The live channel owns the socket's life (connect, reconnect, close); this only listens on it too.
  const live = openLiveChannel({
    ...options,
    connect: (url, socketOptions) => {
      const current = connect(url, socketOptions);
      socket = current;
      listen(current);
      return current;
    },
  });

  // The safety listener subscribes first, so nothing said right after the connect is missed.
  const events$ = defer(() => merge(safety$, live.events$)).pipe(share());

  const emit = async <T>(
    event: string,
    present: (data: T | null) => data is T,
    payload?: unknown,
  ): Promise<T> => {
    if (!socket?.connected) throw new ApiError({ kind: 'network', message: messages.pleaseTryAgain });
    const timed = socket.timeout(ackTimeoutMs);
    const reply = (await (payload === undefined
      ? timed.emitWithAck(event)
      : timed.emitWithAck(event, payload))) as Envelope<T> | undefined;
    return unwrap(reply, present);
  };

  return {
    events$,
    requestSnapshot: () => live.requestSnapshot(),
    requestEvacuation: () => emit<EvacuationSnapshot | null>(SAFETY_EVENTS.requestEvacuation, anyData),
    startEvacuation: (request) => emit<Evacuation>(SAFETY_EVENTS.startEvacuation, isEvacuation, request),
    endEvacuation: (request) => emit<Evacuation>(SAFETY_EVENTS.endEvacuation, isEvacuation, request),
  };
}
