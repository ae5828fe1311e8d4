import type { WorkerOnMap } from './inventory';
import type { NodeNeighbor } from './schemas/nodes';

/** Every MQTT topic is `{root}/{siteId}/{kind}`; the root is `sitewatch` unless configured. */
export const TOPIC_KINDS = ['positions', 'nodes', 'events'] as const;
export type TopicKind = (typeof TOPIC_KINDS)[number];
export const DEFAULT_TOPIC_ROOT = 'sitewatch';

export function topicFor(siteId: number, kind: TopicKind, root = DEFAULT_TOPIC_ROOT): string {
  return `${root}/${siteId}/${kind}`;
}

export function parseTopic(
  topic: string,
  root = DEFAULT_TOPIC_ROOT,
): { siteId: number; kind: TopicKind } | null {
  const parts = topic.split('/');
  if (parts.length !== 3 || parts[0] !== root) return null;
  const siteId = Number(parts[1]);
  const kind = parts[2] as TopicKind;
  if (!Number.isSafeInteger(siteId) || siteId <= 0 || !TOPIC_KINDS.includes(kind)) return null;
  return { siteId, kind };
}

/** DESIGN §5: one object or an array of them on `.../positions`. */
export interface PositionMessage {
  tag: string;
  ts: string;
  lat: number;
  long: number;
  floorId: number;
  online: boolean;
  active: boolean;
}

/** Anchor and sink diagnostics on `.../nodes`. */
export interface NodeMessage {
  networkId: number;
  nodeId: string;
  type: string;
  bufferUsage: number;
  linkQuality: number;
  batteryVoltage: number;
  /**
   * As the network reported it; the server stores its own (placed vs computed position,
   * src/domain/geo.ts `displacementMetres`) and ignores this one (docs/decisions.md).
   */
  displacementError: number;
  ts: string;
  lat: number;
  long: number;
  /**
   * The radio links the node hears; the ingest's validation always sets it ([] when the message
   * named none), so only messages built by hand leave it out.
   */
  neighbors?: NodeNeighbor[];
}

/**
 * The acknowledge button, the alarms that raise incidents (src/domain/incidents.ts), and a
 * helmet's confirmation that it sounded an alarm command (src/domain/helmetCommands.ts).
 */
export const HELMET_EVENT_TYPES = ['acknowledge', 'sos', 'fall', 'noMotion', 'alarmReceived'] as const;
export type HelmetEventType = (typeof HELMET_EVENT_TYPES)[number];

/** The helmet button or an alarm on `.../events`. */
export interface HelmetEventMessage {
  tag: string;
  ts: string;
  type: HelmetEventType;
}

/** Why an ingested message (or one entry of an array) was dropped; counted per reason. */
export const REJECTION_REASONS = [
  'badJson',
  'badShape',
  'unknownTag',
  'unknownFloor',
  'outOfRange',
  'futureTimestamp',
  /** A position older than POSITIONS_RETENTION_DAYS: its day's partition is (about to be) dropped. */
  'beyondRetention',
  /** A tag, node id or type holding a control character (src/domain/text.ts). */
  'controlCharacter',
  /** The database refused the entry's data although it passed validation (caught, never retried). */
  'refusedByDatabase',
] as const;
export type RejectionReason = (typeof REJECTION_REASONS)[number];

/** A timestamp further ahead of the server's clock than this is refused as futureTimestamp. */
export const MAX_CLOCK_SKEW_MS = 5 * 60_000;

/** socket.io event names of the live channel (spec §7 plus the snapshot handshake). */
export const LIVE_EVENTS = {
  /** server → client, first thing after every (re)connect and in answer to `requestSnapshot`. */
  snapshot: 'liveSnapshot',
  /** client → server with an acknowledgement callback answered with a LiveSnapshot. */
  requestSnapshot: 'requestSnapshot',
  /** server → client, a batch of changed helmets for the socket's floor (or whole site). */
  locationUpdate: 'locationUpdate',
  /**
   * client → server `LiveFeedRequest` (liveFeeds.ts) with an acknowledgement answered with the
   * feed's snapshot in an envelope, or the refusal the handshake would give.
   */
  subscribe: 'subscribe',
  /** client → server `LiveFeedRequest`, acknowledged once the socket left the feed's rooms. */
  unsubscribe: 'unsubscribe',
} as const;

/**
 * Where a socket listens: its site and, optionally, one floor. Updates for a room carry a
 * `stream` (changes when the sequence restarts, e.g. after a server restart) and a `seq` that
 * grows by exactly one per batch: a client that sees another stream or a gap asks for a snapshot.
 */
export interface LiveCursor {
  stream: string;
  seq: number;
}

export interface LiveSnapshot extends LiveCursor {
  siteId: number;
  floorId: number | null;
  /** Every helmet of the site (or floor) that has a position, online or not. */
  workers: WorkerOnMap[];
  at: string;
}

export interface LocationUpdate extends LiveCursor {
  siteId: number;
  floorId: number | null;
  /**
   * Changed helmets. A helmet whose blueprint_id is no longer the room's floor has left it: the
   * client removes it.
   */
  workers: WorkerOnMap[];
}

/** The handshake query of the live channel; floorId absent means the whole site. */
export interface LiveQuery {
  siteId: string;
  floorId?: string;
}

/** The room a socket is in: one per floor and one per site. */
export function liveRoom(siteId: number, floorId: number | null): string {
  return floorId === null ? `site:${siteId}` : `site:${siteId}:floor:${floorId}`;
}
