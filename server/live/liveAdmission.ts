import { can } from '../../src/domain/access';
import type { LiveFeedRequest } from '../../src/domain/liveFeeds';
import { resolvePrincipal } from '../auth/authenticate';
import type { Principal } from '../auth/principal';
import { requireSite } from '../auth/tenancy';
import type { Db } from '../db/database';
import { requireFloor } from '../floors/floorAccess';
import { HttpError, notFound } from '../http/errors';

/** Where an admitted socket listens, and whose it is. */
export interface LiveAdmission {
  token: string;
  principal: Principal;
  /** Null: the handshake named no site (the multiplexed live client). */
  siteId: number | null;
  floorId: number | null;
}

/** A refused handshake; socket.io hands the client `message` and `data.status`. */
export class LiveRefusal extends Error {
  readonly data: { status: 400 | 401 | 403 | 404 };

  constructor(status: 400 | 401 | 403 | 404, message: string) {
    super(message);
    this.name = 'LiveRefusal';
    this.data = { status };
  }
}

/** The live map is the home screen's: anyone who may open it may listen. */
export function mayWatchLive(principal: Pick<Principal, 'role'>): boolean {
  return can(principal.role, 'open', 'home');
}

function positiveId(raw: unknown, name: string): number {
  const text = typeof raw === 'string' ? raw : typeof raw === 'number' ? String(raw) : '';
  if (!/^[1-9]\d{0,9}$/.test(text) || Number(text) > 2_147_483_647)
    throw new LiveRefusal(400, `${name} must be a positive whole number`);
  return Number(text);
}

/**
 * The handshake check, the same as the HTTP API's: a live session token, a role that may open
 * the live map, a site the user sees, and a floor of that site. Another client's site or floor
 * is 404, as on the API, so their existence does not leak. A handshake that names no site is the
 * one live client of a browser tab: admitted on the token and role alone, it listens to nothing
 * until it subscribes to feeds (liveSubscriptions.ts), each checked by `admitFeed`.
 */
export async function admitLiveSocket(
  db: Db,
  token: unknown,
  query: Record<string, unknown>,
): Promise<LiveAdmission> {
  if (typeof token !== 'string' || token === '') throw new LiveRefusal(401, 'Unauthenticated');
  const siteId = query.siteId === undefined ? null : positiveId(query.siteId, 'siteId');
  const floorId =
    query.floorId === undefined || query.floorId === '' ? null : positiveId(query.floorId, 'floorId');
  if (siteId === null && floorId !== null)
    throw new LiveRefusal(400, 'siteId must be a positive whole number');

  const principal = await resolvePrincipal(db, token);
  if (!principal) throw new LiveRefusal(401, 'Unauthenticated');
  if (!mayWatchLive(principal)) throw new LiveRefusal(403, 'Not Authorized');
  if (siteId !== null) await requirePlace(db, principal, siteId, floorId);
  return { token, principal, siteId, floorId };
}

/** The site the user sees and, when named, a floor of it; a 404 becomes the refusal. */
export async function requirePlace(
  db: Db,
  principal: Principal,
  siteId: number,
  floorId: number | null,
): Promise<void> {
  try {
    await requireSite(db, principal, siteId);
    if (floorId !== null && (await requireFloor(db, principal, floorId)).siteId !== siteId)
      throw notFound('Floor');
  } catch (error) {
    if (error instanceof HttpError && error.statusCode === 404) throw new LiveRefusal(404, error.message);
    throw error;
  }
}

/** Whether a socket's holder may see the site's evacuation and safety events. */
export function mayWatchSafety(role: Principal['role']): boolean {
  return can(role, 'open', 'evacuation') || can(role, 'open', 'safety');
}

/**
 * The check of every `subscribe`, the handshake's own: the token is read again (a logout or a
 * role changed since counts at once), the role must open the live map (and safety or evacuation
 * for the safety feeds), and the site and floor must be within the user's reach.
 */
export async function admitFeed(db: Db, token: string, request: LiveFeedRequest): Promise<Principal> {
  const principal = await resolvePrincipal(db, token);
  if (!principal) throw new LiveRefusal(401, 'Unauthenticated');
  if (!mayWatchLive(principal)) throw new LiveRefusal(403, 'Not Authorized');
  const safetyFeed = request.feed === 'evacuation' || request.feed === 'incidents';
  if (safetyFeed && !mayWatchSafety(principal.role)) throw new LiveRefusal(403, 'Not Authorized');
  await requirePlace(db, principal, request.siteId, request.feed === 'floor' ? request.floorId : null);
  return principal;
}
