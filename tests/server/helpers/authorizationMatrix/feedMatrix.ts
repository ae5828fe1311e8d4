import { io, type Socket } from 'socket.io-client';
import { LIVE_EVENTS } from '../../../../src/domain/live';
import {
  LIVE_FEEDS,
  type LiveFeedKind,
  type LiveFeedReply,
  type LiveFeedRequest,
} from '../../../../src/domain/liveFeeds';
import type { SafetyServer } from '../safetyServer';
import type { MatrixWorld } from './matrixRunner';
import type { MatrixPrincipal } from './principals';
import { SCOPES, type SiteObjects } from './siteObjects';
import { inAudience } from './socketTable';

const WAIT_MS = 5000;

/** What `subscribe` answers: 200 with the feed's snapshot, or the refusal's code. */
function expectedFeed(
  principal: MatrixPrincipal,
  scope: (typeof SCOPES)[number],
  feed: LiveFeedKind,
): number {
  if (principal.role === null) return 401;
  if (!inAudience(principal.role, 'admitted')) return 403;
  if ((feed === 'evacuation' || feed === 'incidents') && !inAudience(principal.role, 'safetyWatchers'))
    return 403;
  return principal.reach.has(scope) ? 200 : 404;
}

function requestFor(feed: LiveFeedKind, o: SiteObjects): LiveFeedRequest {
  return feed === 'floor' ? { feed, siteId: o.siteId, floorId: o.floorId } : { feed, siteId: o.siteId };
}

/** The one socket of a browser tab: a handshake that names no site. */
async function bareSocket(url: string, token: string): Promise<Socket> {
  const socket = io(url, { auth: { token }, transports: ['websocket'], reconnection: false, forceNew: true });
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the bare socket was never admitted')), WAIT_MS);
    socket.on('connect', () => {
      clearTimeout(timer);
      resolve();
    });
    socket.on('connect_error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
  });
  return socket;
}

async function subscribe(socket: Socket, request: unknown): Promise<LiveFeedReply> {
  return (await socket.timeout(WAIT_MS).emitWithAck(LIVE_EVENTS.subscribe, request)) as LiveFeedReply;
}

/**
 * Every signed-in principal's one socket subscribing to every feed of every scope's site (and a
 * floor of another client named with its own site): admitted with the feed's snapshot, or
 * refused with the handshake's code (403, 404) in the acknowledgement; a request that names no
 * feed is a 400. The refused feeds deliver nothing afterwards.
 */
export async function runFeedMatrix(world: MatrixWorld, safety: SafetyServer): Promise<string[]> {
  const mismatches: string[] = [];
  for (const principal of world.principals) {
    if (principal.role === null || principal.token === null) continue;
    const socket = await bareSocket(safety.url, principal.token);
    try {
      for (const scope of SCOPES) {
        const o = world.objects[scope];
        for (const feed of LIVE_FEEDS) {
          const reply = await subscribe(socket, requestFor(feed, o));
          const got = reply.status === 'success' ? 200 : reply.code;
          const expected = expectedFeed(principal, scope, feed);
          if (got !== expected)
            mismatches.push(
              `subscribe ${feed} of the ${scope} site as ${principal.name}: expected ${expected}, got ${got} ${reply.message ?? ''}`,
            );
        }
      }
      const own = world.objects[principal.home];
      const foreign = world.objects[principal.home === 'own' ? 'other-client' : 'own'];
      const mixed = await subscribe(socket, { feed: 'floor', siteId: own.siteId, floorId: foreign.floorId });
      if (mixed.code !== 404)
        mismatches.push(
          `subscribe its site with a foreign floor as ${principal.name}: got ${JSON.stringify(mixed)}`,
        );
      const nonsense = await subscribe(socket, { feed: 'everything', siteId: own.siteId });
      if (nonsense.code !== 400)
        mismatches.push(`subscribe to no such feed as ${principal.name}: got ${JSON.stringify(nonsense)}`);
    } finally {
      socket.disconnect();
    }
  }
  return mismatches;
}
