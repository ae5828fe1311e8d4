import { liveRoom } from './live';
import type { Envelope } from './user';

/**
 * The feeds multiplexed over the one live socket of a browser tab (DESIGN §2): a site's or a
 * floor's helmets, a site's evacuation (with its network failures and service errors) and a
 * site's new incidents. A client asks for each with the `subscribe` event (LIVE_EVENTS) and
 * leaves it with `unsubscribe`; the server checks role and tenant on every subscribe as it does
 * at the handshake.
 */
export const LIVE_FEEDS = ['site', 'floor', 'evacuation', 'incidents'] as const;
export type LiveFeedKind = (typeof LIVE_FEEDS)[number];

/** client → server `subscribe` / `unsubscribe`: which feed; floorId only for a floor. */
export type LiveFeedRequest =
  | { feed: 'site' | 'evacuation' | 'incidents'; siteId: number }
  | { feed: 'floor'; siteId: number; floorId: number };

/** One name per feed, which the client keys its subscribers by. */
export function liveFeedKey(request: LiveFeedRequest): string {
  if (request.feed === 'floor') return `floor:${liveRoom(request.siteId, request.floorId)}`;
  return `${request.feed}:${request.siteId}`;
}

/** The live room (site or floor) a position feed listens to; null for the safety feeds. */
export function positionRoomOf(request: LiveFeedRequest): { siteId: number; floorId: number | null } | null {
  if (request.feed === 'site') return { siteId: request.siteId, floorId: null };
  if (request.feed === 'floor') return { siteId: request.siteId, floorId: request.floorId };
  return null;
}

/**
 * The acknowledgement of `subscribe`: the feed's snapshot (a site's or floor's `LiveSnapshot`,
 * the running `EvacuationSnapshot` or null, null for incidents), or the refusal with the status
 * the handshake would have given (400, 401, 403, 404).
 */
export interface LiveFeedReply<T = unknown> extends Envelope<T> {
  code?: 400 | 401 | 403 | 404 | 500;
}
