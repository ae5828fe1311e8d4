import { Observable } from 'rxjs';
import { io, type ManagerOptions, type Socket, type SocketOptions } from 'socket.io-client';
import type { TSchema } from 'typebox';
import type { ApiClient } from '../api/client';
import { fetchLiveSettings, liveUrl } from '../api/liveSettings';
import {
  type EndEvacuationRequest,
  type Evacuation,
  type EvacuationSnapshot,
  SAFETY_EVENTS,
  type StartEvacuationRequest,
} from '../domain/evacuation';
import { LIVE_EVENTS, type LiveSnapshot } from '../domain/live';
import type { LiveConnectionEvent, LiveEvent, SafetyChannelEvent } from '../domain/liveEvents';
import { type LiveFeedReply, type LiveFeedRequest, liveFeedKey } from '../domain/liveFeeds';
import { EvacuationSnapshotSchema, LiveSnapshotSchema } from '../domain/schemas/liveEvents';
import { EvacuationSchema } from '../domain/schemas/safety';
import { type FeedEvent, LiveFeedChannel } from './liveFeedChannel';
import { type FeedPayloadEvent, PAYLOAD_ROUTES, parsed, routePayload } from './livePayloads';
import { askServer, LiveRequestError } from './liveRequests';

export type SocketFactory = (url: string, options: Partial<ManagerOptions & SocketOptions>) => Socket;

export interface LiveClientOptions {
  /** The main API: where the live settings (the safety listener's port) are read, once. */
  api: ApiClient;
  /** The session's token getter, read at every (re)connect. */
  getToken: () => string | null;
  /** The page's location, which the safety listener shares its host with. */
  location?: Pick<Location, 'protocol' | 'hostname'>;
  /** Defaults to socket.io-client's `io`; tests point it elsewhere. */
  connect?: SocketFactory;
  /** How long a request may wait for its acknowledgement. */
  ackTimeoutMs?: number;
}

/**
 * The one live client of a browser tab (DESIGN §2): one socket.io connection to the safety
 * listener, the feeds of spec §7 multiplexed over it. Each feed starts with a snapshot, then
 * deltas, every payload parsed by its schema from src/domain (a malformed one is counted and
 * dropped). The socket opens with the first feed and stays for the tab until the session ends:
 * screens unmount before the next one mounts, so closing with the last feed would open a new
 * socket at every navigation. When the server drops the socket (a logout elsewhere, a role or
 * site taken away: "io server disconnect") every feed goes offline at once; a feed subscribed
 * afterwards opens a new socket, whose handshake says whether the session still holds. A
 * refused token (401) or `close()` ends the client for good.
 */
export interface LiveClient {
  site(siteId: number): Observable<LiveEvent>;
  floor(siteId: number, floorId: number): Observable<LiveEvent>;
  /** The site's evacuation: its snapshots, batches and end, network failures, service errors. */
  evacuation(siteId: number): Observable<SafetyChannelEvent>;
  /** The site's new incidents (`safetyEvents`). */
  incidents(siteId: number): Observable<SafetyChannelEvent>;
  /** A fresh snapshot of a site or floor feed held now. */
  requestSnapshot(siteId: number, floorId: number | null): Promise<LiveSnapshot>;
  /** The running evacuation's snapshot, or null when none runs. */
  requestEvacuation(siteId: number): Promise<EvacuationSnapshot | null>;
  startEvacuation(request: StartEvacuationRequest): Promise<Evacuation>;
  endEvacuation(request: EndEvacuationRequest): Promise<Evacuation>;
  /** Payloads dropped because they did not fit their schema, since the client was created. */
  malformedCount(): number;
  /** Sockets opened so far (one per tab, unless the session ended and another began). */
  socketsOpened(): number;
  /** Closes the connection for every feed at once (logout, a revoked session). */
  close(reason?: string): void;
  /** Whether `close` ended the client, or the server refused its token. */
  isClosed(): boolean;
}

interface ConnectError extends Error {
  data?: { status?: number; message?: string };
}

const REVOKED = 'io server disconnect';

export function createLiveClient(options: LiveClientOptions): LiveClient {
  const { api, getToken, ackTimeoutMs = 10_000, connect = io } = options;
  const feeds = new Map<string, LiveFeedChannel>();
  let socket: Socket | null = null;
  let opening: Promise<void> | null = null;
  let closedBecause: string | null = null;
  let malformed = 0;
  let opened = 0;

  const everyFeed = (connection: LiveConnectionEvent) => {
    for (const feed of feeds.values()) feed.down(connection);
  };

  function close(reason = 'Signed out'): void {
    if (closedBecause !== null) return;
    closedBecause = reason;
    const current = socket;
    socket = null;
    if (current) {
      current.removeAllListeners();
      current.io.removeAllListeners();
      current.disconnect();
    }
    everyFeed({ type: 'connection', state: 'offline', reason });
  }

  /** The server dropped the socket: every feed is offline until a new subscription reconnects. */
  function dropped(current: Socket, reason: string): void {
    if (socket !== current) return;
    socket = null;
    current.removeAllListeners();
    current.io.removeAllListeners();
    current.disconnect();
    everyFeed({ type: 'connection', state: 'offline', reason });
  }

  function subscribeFeed(current: Socket, feed: LiveFeedChannel): void {
    askServer<LiveFeedReply>(current, ackTimeoutMs, LIVE_EVENTS.subscribe, feed.request).then(
      (reply) => {
        if (socket !== current || !feeds.has(feed.key)) return;
        if (reply?.status !== 'success') {
          const reason = reply?.message ?? 'The live feed was refused';
          if (reply?.code === 401) return close(reason);
          return feed.down({ type: 'connection', state: 'offline', reason });
        }
        const snapshot = snapshotEvent(feed.request, reply.data);
        if (snapshot === undefined) {
          malformed += 1;
          return feed.down({ type: 'connection', state: 'reconnecting' });
        }
        feed.subscribed(snapshot);
      },
      // No acknowledgement in time: the next reconnect subscribes again.
      () => feed.down({ type: 'connection', state: 'reconnecting' }),
    );
  }

  function listen(current: Socket): void {
    current.on('connect', () => {
      for (const feed of feeds.values()) subscribeFeed(current, feed);
    });
    current.on('disconnect', (reason) => {
      if (reason === REVOKED) return dropped(current, reason);
      everyFeed({ type: 'connection', state: current.active ? 'reconnecting' : 'offline', reason });
    });
    current.on('connect_error', (error: ConnectError) => {
      const reason = error.data?.message ?? error.message;
      if (error.data?.status === 401) return close(reason);
      everyFeed({ type: 'connection', state: current.active ? 'reconnecting' : 'offline', reason });
    });
    current.io.on('reconnect_failed', () => everyFeed({ type: 'connection', state: 'offline' }));
    for (const eventName of Object.keys(PAYLOAD_ROUTES))
      current.on(eventName, (payload: unknown) => hear(eventName, payload));
  }

  function hear(eventName: string, payload: unknown): void {
    const routed = routePayload(eventName, payload);
    if (!routed) {
      malformed += 1;
      return;
    }
    if (routed.feedKey === 'every-evacuation-feed') {
      for (const feed of feeds.values()) if (feed.request.feed === 'evacuation') feed.deliver(routed.event);
      return;
    }
    feeds.get(routed.feedKey)?.deliver(routed.event);
  }

  function open(): void {
    if (socket || opening || closedBecause !== null) return;
    opening = fetchLiveSettings(api)
      .then((settings) => {
        if (closedBecause !== null) return;
        const current = connect(liveUrl(options.location ?? window.location, settings), {
          auth: (cb) => cb({ token: getToken() }),
          transports: ['websocket', 'polling'],
          forceNew: true,
        });
        opened += 1;
        socket = current;
        listen(current);
      })
      .catch((error: unknown) => {
        const reason = error instanceof Error ? error.message : undefined;
        everyFeed(
          reason
            ? { type: 'connection', state: 'offline', reason }
            : { type: 'connection', state: 'offline' },
        );
      })
      .finally(() => {
        opening = null;
      });
  }

  function feed$(request: LiveFeedRequest): Observable<FeedEvent> {
    return new Observable<FeedEvent>((subscriber) => {
      const key = liveFeedKey(request);
      let feed = feeds.get(key);
      const created = !feed;
      if (!feed) {
        feed = new LiveFeedChannel(request);
        feeds.set(key, feed);
      }
      const current = feed;
      if (closedBecause !== null)
        current.down({ type: 'connection', state: 'offline', reason: closedBecause });
      current.add(subscriber);
      if (created && socket?.connected) subscribeFeed(socket, current);
      open();
      return () => {
        current.subscribers.delete(subscriber);
        if (current.subscribers.size > 0 || feeds.get(key) !== current) return;
        feeds.delete(key);
        if (socket?.connected)
          void askServer(socket, ackTimeoutMs, LIVE_EVENTS.unsubscribe, request).catch(() => {});
      };
    });
  }

  async function request<T>(schema: TSchema, event: string, payload: unknown, nullable: boolean): Promise<T> {
    if (!socket?.connected) throw new LiveRequestError('network');
    const reply = await askServer<LiveFeedReply>(socket, ackTimeoutMs, event, payload);
    if (reply?.status !== 'success') throw new LiveRequestError('refused', reply?.message);
    if (nullable && reply.data === null) return null as T;
    const data = parsed<T>(schema, reply.data);
    if (data === null) {
      malformed += 1;
      throw new LiveRequestError('malformed');
    }
    return data;
  }

  return {
    site: (siteId) => feed$({ feed: 'site', siteId }) as Observable<LiveEvent>,
    floor: (siteId, floorId) => feed$({ feed: 'floor', siteId, floorId }) as Observable<LiveEvent>,
    evacuation: (siteId) => feed$({ feed: 'evacuation', siteId }),
    incidents: (siteId) => feed$({ feed: 'incidents', siteId }),
    async requestSnapshot(siteId, floorId) {
      if (!socket?.connected) throw new LiveRequestError('network');
      const where: LiveFeedRequest =
        floorId === null ? { feed: 'site', siteId } : { feed: 'floor', siteId, floorId };
      const reply = await askServer<unknown>(socket, ackTimeoutMs, LIVE_EVENTS.requestSnapshot, where);
      const snapshot = parsed<LiveSnapshot>(LiveSnapshotSchema, reply);
      if (snapshot) return snapshot;
      if (reply !== null) malformed += 1;
      throw new LiveRequestError(reply === null ? 'refused' : 'malformed');
    },
    requestEvacuation: (siteId) =>
      request<EvacuationSnapshot | null>(
        EvacuationSnapshotSchema,
        SAFETY_EVENTS.requestEvacuation,
        { siteId },
        true,
      ),
    startEvacuation: (start) =>
      request<Evacuation>(EvacuationSchema, SAFETY_EVENTS.startEvacuation, start, false),
    endEvacuation: (end) => request<Evacuation>(EvacuationSchema, SAFETY_EVENTS.endEvacuation, end, false),
    malformedCount: () => malformed,
    socketsOpened: () => opened,
    close,
    isClosed: () => closedBecause !== null,
  };
}

/** The acknowledgement's data as the feed's first event; undefined when it does not fit. */
function snapshotEvent(request: LiveFeedRequest, data: unknown): FeedPayloadEvent | null | undefined {
  if (request.feed === 'incidents') return null;
  if (request.feed === 'evacuation') {
    if (data === null) return null;
    const snapshot = parsed<EvacuationSnapshot>(EvacuationSnapshotSchema, data);
    return snapshot ? { type: 'evacuationInProgress', snapshot } : undefined;
  }
  const snapshot = parsed<LiveSnapshot>(LiveSnapshotSchema, data);
  return snapshot ? { type: 'snapshot', snapshot } : undefined;
}
