import { can } from '../../src/domain/access';
import {
  type EndEvacuationRequest,
  SAFETY_EVENTS,
  type StartEvacuationRequest,
  safetyRoom,
} from '../../src/domain/evacuation';
import { hasControlCharacters } from '../../src/domain/text';
import type { Envelope } from '../../src/domain/user';
import { resolvePrincipal } from '../auth/authenticate';
import type { Principal } from '../auth/principal';
import type { Db } from '../db/database';
import { ok } from '../http/envelope';
import { HttpError, notFound, unauthorized } from '../http/errors';
import type { LiveSocket } from '../live/liveSocketTypes';
import type { LiveChannelExtension } from '../live/socketServer';
import type { NetworkWatch } from './networkWatch';
import type { EvacuationService } from './safetyServices';

const SOMETHING_WENT_WRONG = 'Something went wrong, please try again';

export interface EvacuationSocketOptions {
  db: Db;
  evacuation: EvacuationService;
  /** The site's networks failed now, told to a socket as it joins (the watch only sends changes). */
  networkFailures?: NetworkWatch['currentFailures'];
  log: { error(details: object, message: string): void };
}

/** Whether a socket's holder may see the site's evacuation and safety events. */
export function mayWatchSafety(role: Principal['role']): boolean {
  return can(role, 'open', 'evacuation') || can(role, 'open', 'safety');
}

class BadPayload extends Error {}

function wholeNumber(value: unknown, name: string): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value <= 0 || value > 2_147_483_647)
    throw new BadPayload(`${name} must be a positive whole number`);
  return value;
}

function wholeNumbers(value: unknown, name: string): number[] {
  if (!Array.isArray(value) || value.length > 1000) throw new BadPayload(`${name} must be a list of ids`);
  return value.map((item) => wholeNumber(item, name));
}

function optionalId(value: unknown, name: string): number | null {
  return value === null || value === undefined ? null : wholeNumber(value, name);
}

function record(payload: unknown): Record<string, unknown> {
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload))
    throw new BadPayload('The request must be an object');
  return payload as Record<string, unknown>;
}

export function parseStartRequest(payload: unknown): StartEvacuationRequest {
  const body = record(payload);
  return {
    siteId: wholeNumber(body.siteId, 'siteId'),
    floorIds: wholeNumbers(body.floorIds ?? [], 'floorIds'),
    zoneIds: wholeNumbers(body.zoneIds ?? [], 'zoneIds'),
    assemblyZoneIds: wholeNumbers(body.assemblyZoneIds ?? [], 'assemblyZoneIds'),
    safeZone: optionalId(body.safeZone, 'safeZone'),
    gateWayId: optionalId(body.gateWayId, 'gateWayId'),
  };
}

export function parseEndRequest(payload: unknown): EndEvacuationRequest {
  const body = record(payload);
  const sessionId = body.evacuationSessionId;
  if (
    typeof sessionId !== 'string' ||
    sessionId === '' ||
    sessionId.length > 100 ||
    hasControlCharacters(sessionId)
  )
    throw new BadPayload('evacuationSessionId must be a session id');
  return { siteId: wholeNumber(body.siteId, 'siteId'), evacuationSessionId: sessionId };
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
    // A socket acts on the site it was admitted to, never another one.
    if (requestedSiteId !== socket.data.siteId) throw notFound('Site');
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

  socket.on(SAFETY_EVENTS.requestEvacuation, (ack: unknown) => {
    void answer(ack, async () => {
      if (!mayWatchSafety(socket.data.role)) throw new HttpError(403, 'Not Authorized');
      return evacuation.snapshot(socket.data.siteId);
    });
  });
}

/**
 * The evacuation side of every socket of the live channel: its requests, the site's safety room
 * (joined before the snapshot is read, so no change falls between the two), the site's
 * networks failed now and, when an evacuation runs there, its snapshot.
 */
export function evacuationChannel(options: EvacuationSocketOptions): LiveChannelExtension {
  return {
    rooms: (socket) => (mayWatchSafety(socket.data.role) ? [safetyRoom(socket.data.siteId)] : []),
    attach: (socket) => handleEvacuationRequests(socket, options),
    async welcome(socket) {
      if (!mayWatchSafety(socket.data.role)) return;
      await socket.join(safetyRoom(socket.data.siteId));
      for (const failure of options.networkFailures?.(socket.data.siteId) ?? [])
        socket.emit(SAFETY_EVENTS.networkFailure, failure);
      const snapshot = await options.evacuation.snapshot(socket.data.siteId);
      if (snapshot) socket.emit(SAFETY_EVENTS.evacuationInProgress, snapshot);
    },
  };
}
