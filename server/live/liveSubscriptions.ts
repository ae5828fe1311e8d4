import { Value } from 'typebox/value';
import { LIVE_EVENTS, type LiveSnapshot } from '../../src/domain/live';
import {
  type LiveFeedKind,
  type LiveFeedReply,
  type LiveFeedRequest,
  liveFeedKey,
  positionRoomOf,
} from '../../src/domain/liveFeeds';
import { LiveFeedRequestSchema } from '../../src/domain/schemas/liveRequests';
import type { Principal } from '../auth/principal';
import type { Db } from '../db/database';
import { admitFeed, LiveRefusal } from './liveAdmission';
import { liveRoomsOf } from './liveAudience';
import type { LiveHub } from './liveHub';
import type { LiveSocket } from './liveSocketTypes';

/** What another channel adds to `subscribe`: the feeds it answers (the safety service's). */
export interface LiveFeedHandler {
  readonly feeds: readonly LiveFeedKind[];
  /** Joins the feed's rooms and answers its snapshot; the request is already admitted. */
  subscribe(socket: LiveSocket, request: LiveFeedRequest, principal: Principal): Promise<unknown>;
  /** The rooms these feeds of the socket listen in. */
  roomsOf(socket: LiveSocket, feeds: readonly LiveFeedRequest[]): string[];
}

export interface LiveSubscriptionOptions {
  db: Db;
  hub: LiveHub;
  handlers: readonly LiveFeedHandler[];
  /** Every room the socket keeps now, whatever feed or handshake it is for. */
  heldRooms(socket: LiveSocket): string[];
  log: { error(details: object, message: string): void };
}

const SOMETHING_WENT_WRONG = 'Something went wrong, please try again';

/** The request parsed by its schema from src/domain, or null. */
export function parseFeedRequest(payload: unknown): LiveFeedRequest | null {
  return Value.Check(LiveFeedRequestSchema, payload) ? (payload as LiveFeedRequest) : null;
}

/** The live rooms (named or anonymous audiences) of the socket's site and floor feeds. */
export function positionRoomsOf(socket: LiveSocket, feeds: readonly LiveFeedRequest[]): string[] {
  const { userId, role } = socket.data;
  return feeds.flatMap((feed) => {
    const place = positionRoomOf(feed);
    return place ? liveRoomsOf({ userId, role, ...place }) : [];
  });
}

function replyOf(ack: unknown): (reply: LiveFeedReply) => void {
  return typeof ack === 'function' ? (ack as (reply: LiveFeedReply) => void) : () => {};
}

function parsed(payload: unknown): LiveFeedRequest {
  const request = parseFeedRequest(payload);
  if (!request) throw new LiveRefusal(400, 'The request must name a feed of a site');
  return request;
}

/**
 * `subscribe` and `unsubscribe` of one socket, and `requestSnapshot`. Every subscribe is
 * admitted as a handshake is (admitFeed): a refusal is the acknowledgement's `code` and message,
 * never a thrown error. A site or floor feed joins its audience rooms before its snapshot is
 * read, so no batch falls between the two.
 */
export function handleLiveSubscriptions(socket: LiveSocket, options: LiveSubscriptionOptions): void {
  const { db, hub, handlers, log } = options;
  const handlerOf = (feed: LiveFeedKind) => handlers.find((handler) => handler.feeds.includes(feed));

  async function answer(ack: unknown, work: () => Promise<unknown>): Promise<void> {
    const reply = replyOf(ack);
    try {
      reply({ status: 'success', data: await work() });
    } catch (error) {
      if (error instanceof LiveRefusal)
        return reply({ status: 'error', message: error.message, code: error.data.status });
      log.error({ err: error }, 'live channel: subscription failed');
      reply({ status: 'error', message: SOMETHING_WENT_WRONG, code: 500 });
    }
  }

  socket.on(LIVE_EVENTS.subscribe, (payload: unknown, ack: unknown) => {
    void answer(ack, async () => {
      const request = parsed(payload);
      const principal = await admitFeed(db, socket.data.token, request);
      const key = liveFeedKey(request);
      if (!socket.data.feeds.some((feed) => liveFeedKey(feed) === key))
        socket.data.feeds = [...socket.data.feeds, request];
      const place = positionRoomOf(request);
      if (place) {
        await socket.join(positionRoomsOf(socket, [request]));
        return hub.snapshot(place.siteId, place.floorId, { id: principal.id, role: socket.data.role });
      }
      const handler = handlerOf(request.feed);
      if (!handler) throw new LiveRefusal(404, 'No such feed');
      return handler.subscribe(socket, request, principal);
    });
  });

  socket.on(LIVE_EVENTS.unsubscribe, (payload: unknown, ack: unknown) => {
    void answer(ack, async () => {
      const request = parsed(payload);
      const key = liveFeedKey(request);
      socket.data.feeds = socket.data.feeds.filter((feed) => liveFeedKey(feed) !== key);
      const kept = new Set(options.heldRooms(socket));
      const used = [
        ...positionRoomsOf(socket, [request]),
        ...(handlerOf(request.feed)?.roomsOf(socket, [request]) ?? []),
      ];
      for (const room of used) if (!kept.has(room)) await socket.leave(room);
      return null;
    });
  });

  const pending = new Map<string, Promise<LiveSnapshot>>();
  // Concurrent requests for one room share a single read.
  const snapshot = (siteId: number, floorId: number | null) => {
    const key = `${siteId}:${floorId}`;
    const read =
      pending.get(key) ??
      hub.snapshot(siteId, floorId, { id: socket.data.userId, role: socket.data.role }).finally(() => {
        pending.delete(key);
      });
    pending.set(key, read);
    return read;
  };

  socket.on(LIVE_EVENTS.requestSnapshot, (...args: unknown[]) => {
    const last = args.at(-1);
    if (typeof last !== 'function') return;
    const ack = last as (snapshot: LiveSnapshot | null) => void;
    const named = args.length > 1 ? parseFeedRequest(args[0]) : null;
    const subscribed =
      named !== null && socket.data.feeds.some((feed) => liveFeedKey(feed) === liveFeedKey(named));
    const place = named ? (subscribed ? positionRoomOf(named) : null) : handshakePlace(socket);
    // A room the socket does not listen in is answered with nothing.
    if (!place) return void ack(null);
    snapshot(place.siteId, place.floorId).then(ack, (error: unknown) =>
      log.error({ err: error }, 'live channel: snapshot request failed'),
    );
  });
}

function handshakePlace(socket: LiveSocket): { siteId: number; floorId: number | null } | null {
  const { siteId, floorId } = socket.data;
  return siteId === null ? null : { siteId, floorId };
}

/** The rooms of the handshake's site or floor, and of the site and floor feeds held. */
export function heldPositionRooms(socket: LiveSocket): string[] {
  const { userId, role, siteId, floorId } = socket.data;
  const handshake = siteId === null ? [] : liveRoomsOf({ userId, role, siteId, floorId });
  return [...handshake, ...positionRoomsOf(socket, socket.data.feeds)];
}
