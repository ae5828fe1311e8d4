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

function checkNode(entry: unknown, nowMs: number): Check<NodeMessage> {
  if (!isRecord(entry)) return fail('badShape');
  const { networkId } = entry;
  if (!isRowId(networkId)) return fail('badShape');
  if (NODE_MEASURES.some((name) => typeof entry[name] !== 'number')) return fail('badShape');
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

type EntryCheck<T> = (entry: unknown, nowMs: number) => Check<T>;

/** One object or an array; each array entry is judged on its own, so one bad entry drops only itself. */
function checkAll<T>(json: unknown, now: Date | number, check: EntryCheck<T>): ParsedPayload<T> {
  const nowMs = typeof now === 'number' ? now : now.getTime();
  const entries = Array.isArray(json) ? json : [json];
  const result: ParsedPayload<T> = { accepted: [], rejected: [] };
  for (const entry of entries) {
    const checked = check(entry, nowMs);
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

/** `{root}/{siteId}/nodes`: anchor and sink diagnostics. */
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
