import type { Static, TSchema } from 'typebox';
import { Type } from 'typebox';
import { Value } from 'typebox/value';
import {
  type EndEvacuationRequest,
  SAFETY_EVENTS,
  type StartEvacuationRequest,
  safetyRoom,
} from '../../src/domain/evacuation';
import type { LiveFeedRequest } from '../../src/domain/liveFeeds';
import {
  EndEvacuationRequestSchema,
  StartEvacuationRequestSchema,
} from '../../src/domain/schemas/liveRequests';
import { IdSchema } from '../../src/domain/schemas/sites';
import type { Envelope } from '../../src/domain/user';
import { resolvePrincipal } from '../auth/authenticate';
import type { Principal } from '../auth/principal';
import type { Db } from '../db/database';
import { ok } from '../http/envelope';
import { HttpError, notFound, unauthorized } from '../http/errors';
import { mayWatchSafety } from '../live/liveAdmission';
import type { LiveSocket } from '../live/liveSocketTypes';
import type { LiveChannelExtension } from '../live/socketServer';
import type { NetworkWatch } from './networkWatch';
import type { EvacuationService } from './safetyServices';

const SiteRequestSchema = Type.Object({ siteId: IdSchema });

const SOMETHING_WENT_WRONG = 'Something went wrong, please try again';

export interface EvacuationSocketOptions {
  db: Db;
  evacuation: EvacuationService;
  /** The site's networks failed now, told to a socket as it joins (the watch only sends changes). */
  networkFailures?: NetworkWatch['currentFailures'];
  log: { error(details: object, message: string): void };
}

class BadPayload extends Error {}

/** How a refused field is worded, by the property the schema's first error names. */
const FIELD_MESSAGES: Record<string, string> = {
  siteId: 'siteId must be a positive whole number',
  floorIds: 'floorIds must be a list of ids',
  zoneIds: 'zoneIds must be a list of ids',
  assemblyZoneIds: 'assemblyZoneIds must be a list of ids',
  safeZone: 'safeZone must be a positive whole number',
  gateWayId: 'gateWayId must be a positive whole number',
  evacuationSessionId: 'evacuationSessionId must be a session id',
};

/** The payload parsed by its schema from src/domain, or the refusal of its first bad field. */
function parsePayload<S extends TSchema>(schema: S, payload: unknown): Static<S> {
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload))
    throw new BadPayload('The request must be an object');
  const [first] = Value.Errors(schema, payload);
  if (!first) return payload as Static<S>;
  const missing = (first.params as { requiredProperties?: unknown }).requiredProperties;
  const field =
    first.keyword === 'required' && Array.isArray(missing)
      ? String(missing[0])
      : (first.instancePath.split('/')[1] ?? '');
  throw new BadPayload(FIELD_MESSAGES[field] ?? 'The request must be an object');
}

export function parseStartRequest(payload: unknown): StartEvacuationRequest {
  const body = parsePayload(StartEvacuationRequestSchema, payload);
  return {
    siteId: body.siteId,
    floorIds: body.floorIds ?? [],
    zoneIds: body.zoneIds ?? [],
    assemblyZoneIds: body.assemblyZoneIds ?? [],
    safeZone: body.safeZone ?? null,
    gateWayId: body.gateWayId ?? null,
  };
}

export function parseEndRequest(payload: unknown): EndEvacuationRequest {
  const body = parsePayload(EndEvacuationRequestSchema, payload);
  return { siteId: body.siteId, evacuationSessionId: body.evacuationSessionId };
}

/** The sites a socket may act on: its handshake's, and those whose evacuation feed it holds. */
function actsOn(socket: LiveSocket, siteId: number): boolean {
  return (
    socket.data.siteId === siteId ||
    socket.data.feeds.some((feed) => feed.feed === 'evacuation' && feed.siteId === siteId)
  );
}

type Ack<T> = (reply: Envelope<T>) => void;

/**
 * The evacuation events of one admitted socket. Every request is answered with the reply
 * envelope through its acknowledgement, refusals included; nothing a client sends can throw out
 * of a handler. The holder is re-read from the token on every request, so a role changed since
 * the handshake counts at once.
 */
export function handleEvacuationRequests(socket: LiveSocket, options: EvacuationSocketOptions): void {
  const { db, evacuation, log } = options;

  async function answer<T>(ack: unknown, work: () => Promise<T>): Promise<void> {
    const reply = typeof ack === 'function' ? (ack as Ack<T>) : () => {};
    try {
      reply(ok(await work()));
    } catch (error) {
      if (error instanceof BadPayload || error instanceof HttpError)
        return reply({ status: 'error', message: error.message });
      log.error({ err: error }, 'evacuation: socket request failed');
      reply({ status: 'error', message: SOMETHING_WENT_WRONG });
    }
  }

  async function holder(requestedSiteId: number): Promise<Principal> {
    const principal = await resolvePrincipal(db, socket.data.token);
    if (!principal) throw unauthorized();
    // A socket acts on the site it was admitted to (or subscribed to), never another one.
    if (!actsOn(socket, requestedSiteId)) throw notFound('Site');
    return principal;
  }

  socket.on(SAFETY_EVENTS.startEvacuation, (payload: unknown, ack: unknown) => {
    void answer(ack, async () => {
      const request = parseStartRequest(payload);
      return evacuation.start(await holder(request.siteId), request);
    });
  });

  socket.on(SAFETY_EVENTS.endEvacuation, (payload: unknown, ack: unknown) => {
    void answer(ack, async () => {
      const request = parseEndRequest(payload);
      return evacuation.end(await holder(request.siteId), request);
    });
  });

  // Without a payload it is about the handshake's site; a multiplexed socket names its feed's site.
  socket.on(SAFETY_EVENTS.requestEvacuation, (...args: unknown[]) => {
    void answer(args.at(-1), async () => {
      if (!mayWatchSafety(socket.data.role)) throw new HttpError(403, 'Not Authorized');
      const siteId = args.length > 1 ? parsePayload(SiteRequestSchema, args[0]).siteId : socket.data.siteId;
      if (siteId === null || !actsOn(socket, siteId)) throw notFound('Site');
      return evacuation.snapshot(siteId);
    });
  });
}

/** The safety room of the site's evacuation and incident feeds, when the socket holds one. */
function safetyRoomsOf(socket: LiveSocket, feeds: readonly LiveFeedRequest[]): string[] {
  if (!mayWatchSafety(socket.data.role)) return [];
  const sites = feeds.flatMap((feed) =>
    feed.feed === 'evacuation' || feed.feed === 'incidents' ? [feed.siteId] : [],
  );
  return [...new Set(sites)].map(safetyRoom);
}

/**
 * The evacuation side of every socket of the live channel: its requests, the site's safety room
 * (joined before the snapshot is read, so no change falls between the two), the site's
 * networks failed now and, when an evacuation runs there, its snapshot. A socket that named no
 * site at its handshake gets the same through the `evacuation` and `incidents` feeds.
 */
export function evacuationChannel(options: EvacuationSocketOptions): LiveChannelExtension {
  const handshakeRooms = (socket: LiveSocket) =>
    socket.data.siteId !== null && mayWatchSafety(socket.data.role) ? [safetyRoom(socket.data.siteId)] : [];
  return {
    rooms: (socket) => [...handshakeRooms(socket), ...safetyRoomsOf(socket, socket.data.feeds)],
    attach: (socket) => handleEvacuationRequests(socket, options),
    async welcome(socket) {
      const { siteId } = socket.data;
      if (siteId === null || !mayWatchSafety(socket.data.role)) return;
      await socket.join(safetyRoom(siteId));
      for (const failure of options.networkFailures?.(siteId) ?? [])
        socket.emit(SAFETY_EVENTS.networkFailure, failure);
      const snapshot = await options.evacuation.snapshot(siteId);
      if (snapshot) socket.emit(SAFETY_EVENTS.evacuationInProgress, snapshot);
    },
    feedHandler: {
      feeds: ['evacuation', 'incidents'],
      roomsOf: safetyRoomsOf,
      async subscribe(socket, request) {
        await socket.join(safetyRoom(request.siteId));
        if (request.feed === 'incidents') return null;
        for (const failure of options.networkFailures?.(request.siteId) ?? [])
          socket.emit(SAFETY_EVENTS.networkFailure, failure);
        return options.evacuation.snapshot(request.siteId);
      },
    },
  };
}
