import { isCalendarDay } from './calendarDate';
import {
  HELMET_EVENT_TYPES,
  type HelmetEventMessage,
  type HelmetEventType,
  MAX_CLOCK_SKEW_MS,
  type NodeMessage,
  type PositionMessage,
  type RejectionReason,
} from './live';
import type { NodeNeighbor } from './schemas/nodes';
import { isStorableInstant } from './storableInstant';
import { hasControlCharacters } from './text';

/** One dropped message, or one dropped entry of an array, with what was sent when there was one. */
export interface Rejection {
  reason: RejectionReason;
  entry?: unknown;
}

/** What one payload holds: the entries worth storing, and why the others were dropped. */
export interface ParsedPayload<T> {
  accepted: T[];
  rejected: Rejection[];
}

/** Longest device id (tag, node id) and node type we take; longer is a badShape. */
export const MAX_DEVICE_ID_LENGTH = 100;
/** Most neighbours one node report keeps: a node hears a few dozen at most; more is a fault. */
export const MAX_NEIGHBORS_PER_REPORT = 64;
/** The received signal strengths (dBm) a neighbour's `rssi` may have. */
export const NEIGHBOR_RSSI_DBM = { min: -200, max: 20 } as const;
/** Largest value of a PostgreSQL `integer` column (floor and network ids). */
const MAX_INT4 = 2_147_483_647;

/** ISO-8601 with a date, a time and an explicit offset: a bare "2024-01-01" is not a reading time. */
const ISO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/i;

/** Why an entry fails, or its value. */
type Check<T> = { ok: true; value: T } | { ok: false; reason: RejectionReason };

const fail = (reason: RejectionReason): { ok: false; reason: RejectionReason } => ({ ok: false, reason });

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A tag, node id or node type: non-blank single-line text of bounded length. */
function checkDeviceId(value: unknown): Check<string> {
  if (typeof value !== 'string' || value.trim() === '' || value.length > MAX_DEVICE_ID_LENGTH)
    return fail('badShape');
  if (hasControlCharacters(value)) return fail('controlCharacter');
  return { ok: true, value };
}

/**
 * The entry's verdict from its field checks: a wrong-typed field (badShape) is reported before a
 * bad value of a well-typed one, then the values in the order given.
 */
function firstFailure(...checks: Check<unknown>[]): { ok: false; reason: RejectionReason } | null {
  const failures = checks.filter((check): check is { ok: false; reason: RejectionReason } => !check.ok);
  return failures.find((failure) => failure.reason === 'badShape') ?? failures[0] ?? null;
}

function isRowId(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= MAX_INT4;
}

/** The timestamp normalised to `toISOString()`, so one instant has one spelling. */
function checkTimestamp(value: unknown, nowMs: number): Check<string> {
  if (typeof value !== 'string' || !ISO_TIMESTAMP.test(value)) return fail('badShape');
  const ms = Date.parse(value);
  if (!Number.isFinite(ms) || !isCalendarDay(value)) return fail('badShape');
  if (!isStorableInstant(ms)) return fail('outOfRange');
  if (ms > nowMs + MAX_CLOCK_SKEW_MS) return fail('futureTimestamp');
  return { ok: true, value: new Date(ms).toISOString() };
}

/** Numbers are a badShape when they are not numbers, outOfRange when infinite, NaN or off the globe. */
function checkCoordinates(lat: unknown, long: unknown): Check<{ lat: number; long: number }> {
  if (typeof lat !== 'number' || typeof long !== 'number') return fail('badShape');
  if (!Number.isFinite(lat) || !Number.isFinite(long)) return fail('outOfRange');
  if (lat < -90 || lat > 90 || long < -180 || long > 180) return fail('outOfRange');
  return { ok: true, value: { lat, long } };
}

function checkPosition(entry: unknown, nowMs: number): Check<PositionMessage> {
  if (!isRecord(entry)) return fail('badShape');
  const { floorId, online, active } = entry;
  if (!isRowId(floorId) || typeof online !== 'boolean' || typeof active !== 'boolean')
    return fail('badShape');
  const tag = checkDeviceId(entry.tag);
  const coordinates = checkCoordinates(entry.lat, entry.long);
  const ts = checkTimestamp(entry.ts, nowMs);
  const failure = firstFailure(tag, coordinates, ts);
  if (failure) return failure;
  if (!tag.ok || !coordinates.ok || !ts.ok) return fail('badShape');
  return { ok: true, value: { tag: tag.value, ts: ts.value, ...coordinates.value, floorId, online, active } };
}

const NODE_MEASURES = ['bufferUsage', 'linkQuality', 'batteryVoltage', 'displacementError'] as const;

/** Reports a dropped part of an entry (a neighbour) while the entry itself is kept. */
type Reject = (rejection: Rejection) => void;

/** One neighbour of node `reporter`: a device id other than the reporter's, a link quality 0–100, an optional rssi. */
function checkNeighbor(entry: unknown, reporter: string): Check<NodeNeighbor> {
  if (!isRecord(entry)) return fail('badShape');
  const { linkQuality } = entry;
  // JSON has no undefined: a null rssi is one the radio did not measure.
  const rssi = entry.rssi ?? undefined;
  const nodeId = checkDeviceId(entry.nodeId);
  const shape: Check<null> =
    typeof linkQuality === 'number' && (rssi === undefined || typeof rssi === 'number')
      ? { ok: true, value: null }
      : fail('badShape');
  const failure = firstFailure(nodeId, shape);
  if (failure) return failure;
  if (!nodeId.ok || typeof linkQuality !== 'number') return fail('badShape');
  // A node does not hear itself.
  if (nodeId.value === reporter) return fail('badShape');
  if (!Number.isFinite(linkQuality) || linkQuality < 0 || linkQuality > 100) return fail('outOfRange');
  if (rssi === undefined) return { ok: true, value: { nodeId: nodeId.value, linkQuality } };
  const dbm = rssi as number;
  if (!Number.isFinite(dbm) || dbm < NEIGHBOR_RSSI_DBM.min || dbm > NEIGHBOR_RSSI_DBM.max)
    return fail('outOfRange');
  return { ok: true, value: { nodeId: nodeId.value, linkQuality, rssi: dbm } };
}

/**
 * The good neighbours of a report, each judged on its own: a bad one, a node named twice (the
 * second time) and any past MAX_NEIGHBORS_PER_REPORT are rejected with the reporter's id and
 * dropped; the report keeps the others.
 */
function checkNeighbors(list: readonly unknown[], reporter: string, reject: Reject): NodeNeighbor[] {
  const kept: NodeNeighbor[] = [];
  const heard = new Set<string>();
  for (const neighbor of list) {
    const checked = checkNeighbor(neighbor, reporter);
    const reason: RejectionReason | null = !checked.ok
      ? checked.reason
      : heard.has(checked.value.nodeId)
        ? 'badShape'
        : kept.length >= MAX_NEIGHBORS_PER_REPORT
          ? 'outOfRange'
          : null;
    if (!checked.ok || reason !== null) {
      reject({ reason: reason ?? 'badShape', entry: { nodeId: reporter, neighbor } });
      continue;
    }
    heard.add(checked.value.nodeId);
    kept.push(checked.value);
  }
  return kept;
}

function checkNode(entry: unknown, nowMs: number, reject: Reject): Check<NodeMessage> {
  if (!isRecord(entry)) return fail('badShape');
  const { networkId, neighbors } = entry;
  if (!isRowId(networkId)) return fail('badShape');
  if (NODE_MEASURES.some((name) => typeof entry[name] !== 'number')) return fail('badShape');
  if (neighbors !== undefined && !Array.isArray(neighbors)) return fail('badShape');
  const nodeId = checkDeviceId(entry.nodeId);
  const type = checkDeviceId(entry.type);
  const coordinates = checkCoordinates(entry.lat, entry.long);
  const ts = checkTimestamp(entry.ts, nowMs);
  const measures: Check<null> = NODE_MEASURES.every((name) => Number.isFinite(entry[name]))
    ? { ok: true, value: null }
    : fail('outOfRange');
  const failure = firstFailure(nodeId, type, coordinates, measures, ts);
  if (failure) return failure;
  if (!nodeId.ok || !type.ok || !coordinates.ok || !ts.ok) return fail('badShape');
  return {
    ok: true,
    value: {
      networkId,
      nodeId: nodeId.value,
      type: type.value,
      bufferUsage: entry.bufferUsage as number,
      linkQuality: entry.linkQuality as number,
      batteryVoltage: entry.batteryVoltage as number,
      displacementError: entry.displacementError as number,
      ts: ts.value,
      ...coordinates.value,
      // Judged only once the report itself is good: a dropped report drops its neighbours with it.
      neighbors: checkNeighbors(neighbors ?? [], nodeId.value, reject),
    },
  };
}

function checkHelmetEvent(entry: unknown, nowMs: number): Check<HelmetEventMessage> {
  if (!isRecord(entry)) return fail('badShape');
  const { type } = entry;
  if (!HELMET_EVENT_TYPES.includes(type as HelmetEventType)) return fail('badShape');
  const tag = checkDeviceId(entry.tag);
  const ts = checkTimestamp(entry.ts, nowMs);
  const failure = firstFailure(tag, ts);
  if (failure) return failure;
  if (!tag.ok || !ts.ok) return fail('badShape');
  return { ok: true, value: { tag: tag.value, ts: ts.value, type: type as HelmetEventType } };
}

/** The JSON value of MQTT bytes or a string, or undefined when they are not JSON (or not UTF-8). */
function decode(raw: Uint8Array | string): { json: unknown } | undefined {
  try {
    const text = typeof raw === 'string' ? raw : new TextDecoder('utf-8', { fatal: true }).decode(raw);
    return { json: JSON.parse(text) };
  } catch {
    return undefined;
  }
}

/** Judges one entry; `reject` counts parts of it dropped while the entry is kept (a node's neighbours). */
type EntryCheck<T> = (entry: unknown, nowMs: number, reject: Reject) => Check<T>;

/** One object or an array; each array entry is judged on its own, so one bad entry drops only itself. */
function checkAll<T>(json: unknown, now: Date | number, check: EntryCheck<T>): ParsedPayload<T> {
  const nowMs = typeof now === 'number' ? now : now.getTime();
  const entries = Array.isArray(json) ? json : [json];
  const result: ParsedPayload<T> = { accepted: [], rejected: [] };
  const reject: Reject = (rejection) => result.rejected.push(rejection);
  for (const entry of entries) {
    const checked = check(entry, nowMs, reject);
    if (checked.ok) result.accepted.push(checked.value);
    else result.rejected.push({ reason: checked.reason, entry });
  }
  return result;
}

function parseWith<T>(raw: Uint8Array | string, now: Date | number, check: EntryCheck<T>): ParsedPayload<T> {
  const decoded = decode(raw);
  if (!decoded) return { accepted: [], rejected: [{ reason: 'badJson' }] };
  return checkAll(decoded.json, now, check);
}

/** Helmet positions already parsed from JSON (an HTTP body): one object or an array. */
export function checkPositions(json: unknown, now: Date | number): ParsedPayload<PositionMessage> {
  return checkAll(json, now, checkPosition);
}

/** `{root}/{siteId}/positions`: helmet positions (DESIGN §5), as bytes or text. */
export function parsePositions(raw: Uint8Array | string, now: Date | number): ParsedPayload<PositionMessage> {
  return parseWith(raw, now, checkPosition);
}

/**
 * `{root}/{siteId}/nodes`: anchor and sink diagnostics. A report's bad neighbours are in
 * `rejected` (with the reporter's nodeId) while the report, with its good neighbours, is accepted.
 */
export function parseNodes(raw: Uint8Array | string, now: Date | number): ParsedPayload<NodeMessage> {
  return parseWith(raw, now, checkNode);
}

/** `{root}/{siteId}/events`: helmet buttons. */
export function parseHelmetEvents(
  raw: Uint8Array | string,
  now: Date | number,
): ParsedPayload<HelmetEventMessage> {
  return parseWith(raw, now, checkHelmetEvent);
}

/** Counts per reason, for replies and logs. */
export function countByReason(rejections: readonly Rejection[]): Partial<Record<RejectionReason, number>> {
  const counts: Partial<Record<RejectionReason, number>> = {};
  for (const { reason } of rejections) counts[reason] = (counts[reason] ?? 0) + 1;
  return counts;
}
