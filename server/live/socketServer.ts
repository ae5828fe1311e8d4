import type { Server as HttpServer } from 'node:http';
import { createAdapter } from '@socket.io/redis-adapter';
import { Server } from 'socket.io';
import { LIVE_EVENTS } from '../../src/domain/live';
import type { Db } from '../db/database';
import { admitLiveSocket, LiveRefusal } from './liveAdmission';
import { liveRoomsOf } from './liveAudience';
import { createLiveHub, type LiveHub } from './liveHub';
import { connectRedisPair, type RedisPair } from './liveRedis';
import { type LiveSequence, memoryLiveSequence } from './liveSequence';
import type { LiveServer, LiveSocket } from './liveSocketTypes';
import { handleLiveSubscriptions, heldPositionRooms, type LiveFeedHandler } from './liveSubscriptions';
import { requireAccessOnRecovery } from './recoveryCheck';
import { redisLiveSequence } from './redisLiveSequence';
import { type RevocationSweep, startRevocationSweep } from './revocationSweep';

export interface LiveChannelOptions {
  httpServer: HttpServer;
  db: Db;
  /** Several processes share rooms and sequences through this Redis server; one process alone without it. */
  redisUrl?: string;
  /** Prefix of this deployment's Redis keys and channels. */
  redisKeyPrefix?: string;
  /** How often connected sockets are re-checked against the database (revocation within 5 s). */
  sweepIntervalMs?: number;
  /** Browser origins whose long-polling requests get CORS headers; none when absent. */
  allowOrigin?: (origin: string) => boolean;
  log: { error(details: object, message: string): void };
}

/** What another channel on the same sockets adds (the safety service's evacuation events). */
export interface LiveChannelExtension {
  /** Rooms of its own the socket keeps: a recovered socket leaves every room not named here. */
  rooms(socket: LiveSocket): string[];
  /** Registers the socket's event handlers; runs as soon as it connects. */
  attach(socket: LiveSocket): void;
  /** Runs after the socket joined its live room and got its live snapshot. */
  welcome(socket: LiveSocket): Promise<void>;
  /** The feeds it answers on `subscribe` (liveSubscriptions.ts). */
  feedHandler?: LiveFeedHandler;
}

export interface LiveChannel {
  io: LiveServer;
  hub: LiveHub;
  /** The rooms' cursors (memory, or Redis shared by every process). */
  sequence: LiveSequence;
  sweep: RevocationSweep;
  /** Adds another channel's handlers and rooms to every socket that connects from now on. */
  extend(extension: LiveChannelExtension): void;
  /** Disconnects every socket, stops the sweep, leaves Redis, and closes the HTTP server too. */
  close(): Promise<void>;
}

export const DEFAULT_SWEEP_INTERVAL_MS = 2000;
export const LIVE_SOCKET_PATH = '/socket.io';

/**
 * The live channel on the safety listener. The token travels in `auth.token` (never a cookie), and
 * only the console's origin gets CORS headers for long-polling; every handshake, a recovered one
 * included, goes through the same checks as the HTTP API.
 */
export async function startLiveChannel(options: LiveChannelOptions): Promise<LiveChannel> {
  const { db, log } = options;
  const prefix = options.redisKeyPrefix ?? 'sitewatch';
  const redis: RedisPair | null = options.redisUrl
    ? await connectRedisPair(options.redisUrl, (error) =>
        log.error({ err: error }, 'live channel: Redis error'),
      )
    : null;

  const io: LiveServer = new Server(options.httpServer, {
    path: LIVE_SOCKET_PATH,
    serveClient: false,
    cors: {
      origin: (origin, answer) => answer(null, Boolean(origin && options.allowOrigin?.(origin))),
      credentials: false,
    },
    connectionStateRecovery: { maxDisconnectionDuration: 2 * 60_000, skipMiddlewares: false },
    // The client only ever sends the handshake and snapshot requests.
    maxHttpBufferSize: 64 * 1024,
    ...(redis ? { adapter: createAdapter(redis.pub, redis.sub, { key: `${prefix}:socket.io` }) } : {}),
  });
  const sequence: LiveSequence = redis ? redisLiveSequence(redis.pub, prefix) : memoryLiveSequence();
  const hub = createLiveHub(io, db, sequence, { roomsAreLocal: redis === null });
  requireAccessOnRecovery(io, db);

  io.use((socket, next) => {
    admitLiveSocket(db, socket.handshake.auth.token, socket.handshake.query).then(
      ({ token, principal, siteId, floorId }) => {
        // A recovered socket keeps the feeds of its last session (recoveryCheck.ts re-admitted them).
        const feeds = socket.recovered ? (socket.data?.feeds ?? []) : [];
        socket.data = { token, userId: principal.id, role: principal.role, siteId, floorId, feeds };
        next();
      },
      (error: unknown) => {
        if (error instanceof LiveRefusal) return next(error);
        log.error({ err: error }, 'live channel: handshake failed');
        next(Object.assign(new Error('Something went wrong, please try again'), { data: { status: 500 } }));
      },
    );
  });

  const extensions: LiveChannelExtension[] = [];
  const heldRooms = (socket: LiveSocket) => [
    ...heldPositionRooms(socket),
    ...extensions.flatMap((extension) => extension.rooms(socket)),
  ];
  io.on('connection', (socket) => {
    for (const extension of extensions) extension.attach(socket);
    handleLiveSubscriptions(socket, {
      db,
      hub,
      handlers: extensions.flatMap((extension) => (extension.feedHandler ? [extension.feedHandler] : [])),
      heldRooms,
      log,
    });
    void welcome(socket, hub, heldRooms(socket), extensions, log);
  });

  const sweep = startRevocationSweep(io, db, options.sweepIntervalMs ?? DEFAULT_SWEEP_INTERVAL_MS, (error) =>
    log.error({ err: error }, 'live channel: revocation sweep failed'),
  );

  return {
    io,
    hub,
    sequence,
    sweep,
    extend(extension) {
      extensions.push(extension);
    },
    async close() {
      sweep.stop();
      await io.close();
      await redis?.close();
    },
  };
}

/**
 * Joins the socket's rooms before reading the snapshot, so no batch falls between the two. A
 * socket whose handshake named no site has no room of its own yet: it subscribes to feeds.
 */
async function welcome(
  socket: LiveSocket,
  hub: LiveHub,
  held: readonly string[],
  extensions: readonly LiveChannelExtension[],
  log: LiveChannelOptions['log'],
): Promise<void> {
  const { siteId, floorId, userId, role } = socket.data;
  try {
    // A recovered socket comes back in the rooms of its last session; only these are its own.
    const own = new Set([socket.id, ...held]);
    for (const joined of [...socket.rooms]) if (!own.has(joined)) await socket.leave(joined);
    if (siteId !== null) {
      // The audience rooms of the socket's site or floor: named or anonymous markers (liveAudience.ts).
      await socket.join(liveRoomsOf({ userId, role, siteId, floorId }));
      socket.emit(LIVE_EVENTS.snapshot, await hub.snapshot(siteId, floorId, { id: userId, role }));
    }
  } catch (error) {
    log.error({ err: error }, 'live channel: first snapshot failed');
  }
  for (const extension of extensions)
    await extension
      .welcome(socket)
      .catch((error: unknown) => log.error({ err: error }, 'live channel: welcome of an extension failed'));
}
