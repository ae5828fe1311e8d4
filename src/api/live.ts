import { queryOptions } from '@tanstack/react-query';
import { Observable, share } from 'rxjs';
import { io, type ManagerOptions, type Socket, type SocketOptions } from 'socket.io-client';
import { LIVE_EVENTS, type LiveSnapshot, type LocationUpdate } from '../domain/live';
import { messages } from '../domain/messages';
import type { LiveConnectionState, LiveEvent } from '../streams/liveEvent';
import { ApiError } from './apiError';
import type { ApiClient } from './client';
import { queryKeys } from './queryKeys';

/** Public: where the live channel listens (the safety listener's port on the same host). */
export interface LiveSettings {
  safetyPort: number;
}

export async function fetchLiveSettings(api: ApiClient, signal?: AbortSignal): Promise<LiveSettings> {
  const data = await api.get<unknown>('/live-settings', { signal });
  const port = (data as Partial<LiveSettings> | null)?.safetyPort;
  if (typeof port !== 'number' || !Number.isInteger(port) || port <= 0 || port > 65_535) {
    throw new ApiError({ kind: 'reply', message: messages.somethingWentWrongContactSupport });
  }
  return { safetyPort: port };
}

export function liveSettingsQuery(api: ApiClient) {
  return queryOptions({
    queryKey: queryKeys.live.settings(),
    queryFn: ({ signal }) => fetchLiveSettings(api, signal),
    staleTime: Number.POSITIVE_INFINITY,
  });
}

/** The safety listener on the page's own host. */
export function liveUrl(location: Pick<Location, 'protocol' | 'hostname'>, settings: LiveSettings): string {
  return `${location.protocol}//${location.hostname}:${settings.safetyPort}`;
}

export interface LiveChannelOptions {
  url: string;
  /** Read at every (re)connect, so a reconnect uses the current token. */
  getToken: () => string | null;
  siteId: number;
  /** Absent: the whole site. */
  floorId?: number;
  /** How long a snapshot request may take before it fails. */
  snapshotTimeoutMs?: number;
  /** Defaults to socket.io-client's `io`; tests may point it elsewhere. */
  connect?: (url: string, options: Partial<ManagerOptions & SocketOptions>) => Socket;
}

export interface LiveChannel {
  /**
   * The socket's events, typed. The socket connects on the first subscription and closes when
   * the last one leaves; reconnecting is socket.io's own.
   */
  readonly events$: Observable<LiveEvent>;
  /** Asks for a fresh snapshot; rejects when not connected or after the timeout. */
  requestSnapshot(): Promise<LiveSnapshot>;
}

interface ConnectError extends Error {
  data?: { status?: number; message?: string };
}

/** The live channel of spec §7 (socket.io on the safety listener) as an observable. */
export function openLiveChannel(options: LiveChannelOptions): LiveChannel {
  const { url, getToken, siteId, floorId, snapshotTimeoutMs = 10_000, connect = io } = options;
  let socket: Socket | null = null;

  const events$ = new Observable<LiveEvent>((subscriber) => {
    const query: Record<string, string> = { siteId: String(siteId) };
    if (floorId !== undefined) query.floorId = String(floorId);
    const current = connect(url, {
      auth: (cb) => cb({ token: getToken() }),
      query,
      forceNew: true,
      transports: ['websocket', 'polling'],
    });
    socket = current;
    const state = (next: LiveConnectionState, reason?: string) =>
      subscriber.next(
        reason ? { type: 'connection', state: next, reason } : { type: 'connection', state: next },
      );

    subscriber.next({ type: 'connection', state: 'connecting' });
    current.on('connect', () => state('live'));
    current.on('disconnect', (reason) =>
      // The server closed it on purpose (a revoked token): socket.io does not come back by itself.
      state(current.active ? 'reconnecting' : 'offline', reason),
    );
    current.on('connect_error', (error: ConnectError) =>
      state(current.active ? 'reconnecting' : 'offline', error.data?.message ?? error.message),
    );
    current.io.on('reconnect_failed', () => state('offline'));
    current.on(LIVE_EVENTS.snapshot, (snapshot: LiveSnapshot) =>
      subscriber.next({ type: 'snapshot', snapshot }),
    );
    current.on(LIVE_EVENTS.locationUpdate, (update: LocationUpdate) =>
      subscriber.next({ type: 'update', update }),
    );
    return () => {
      current.removeAllListeners();
      current.io.removeAllListeners();
      current.disconnect();
      if (socket === current) socket = null;
    };
  }).pipe(share());

  return {
    events$,
    async requestSnapshot() {
      if (!socket?.connected) throw new Error('The live channel is not connected');
      return socket
        .timeout(snapshotTimeoutMs)
        .emitWithAck(LIVE_EVENTS.requestSnapshot) as Promise<LiveSnapshot>;
    },
  };
}
