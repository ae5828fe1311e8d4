import {
  checkPositions,
  type ParsedPayload,
  parseHelmetEvents,
  parseNodes,
  parsePositions,
  type Rejection,
} from '../../src/domain/ingestValidation';
import type { PositionMessage, TopicKind } from '../../src/domain/live';
import type { Db } from '../db/database';
import { type HelmetEventWriteResult, writeHelmetEvents } from './helmetEventWriter';
import { type NodeWriteResult, writeNodeDiagnostics } from './nodeWriter';
import { type PositionWriteResult, writePositions } from './positionWriter';
import type { CommittedIngest } from './publishChanges';

/** One payload's outcome once committed, with what the fan-out has to hear about it. */
export interface IngestOutcome {
  accepted: number;
  rejections: Rejection[];
  committed: CommittedIngest;
  /** The newest `ts` among the entries that passed validation (ingest lag); absent when none did. */
  newestEntryMs?: number;
}

function newestEntryMs(entries: readonly { ts: string }[]): number | undefined {
  if (entries.length === 0) return undefined;
  return entries.reduce((newest, entry) => Math.max(newest, Date.parse(entry.ts)), -Infinity);
}

/**
 * PostgreSQL data exceptions (22…) and integrity violations (23…), as thrown by pg or PGlite or
 * wrapped by Drizzle: the same rows fail every time, so retrying cannot help.
 */
export function isDataError(error: unknown): boolean {
  for (let e = error; e && typeof e === 'object'; e = (e as { cause?: unknown }).cause) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^2[23]/.test(code)) return true;
  }
  return false;
}

/**
 * Writes the entries in one transaction. When the database refuses their data (an entry that got
 * through validation but not through PostgreSQL), the entries are halved and each half written on
 * its own, down to single entries, so every good entry is committed and each bad one is counted
 * as refusedByDatabase: k bad entries among n cost about k·log2(n) extra transactions, and a clean
 * payload costs nothing extra. Anything else (a lost connection) is thrown for the caller to retry.
 */
async function writeIsolatingBadEntries<T, R extends { rejections: Rejection[] }>(
  entries: readonly T[],
  write: (entries: readonly T[]) => Promise<R>,
  merge: (first: R, second: R) => R,
): Promise<R> {
  try {
    return await write(entries);
  } catch (error) {
    if (!isDataError(error)) throw error;
    if (entries.length <= 1) {
      const nothing = await write([]);
      return { ...nothing, rejections: entries.map((entry) => ({ reason: 'refusedByDatabase', entry })) };
    }
    const middle = Math.ceil(entries.length / 2);
    const first = await writeIsolatingBadEntries(entries.slice(0, middle), write, merge);
    const second = await writeIsolatingBadEntries(entries.slice(middle), write, merge);
    return merge(first, second);
  }
}

function mergePositions(first: PositionWriteResult, second: PositionWriteResult): PositionWriteResult {
  const previousFloorById = new Map(second.previousFloorById);
  // The floor a helmet was on before the whole payload: the first slice that moved it saw it.
  for (const [id, floorId] of first.previousFloorById) previousFloorById.set(id, floorId);
  return {
    rejections: [...first.rejections, ...second.rejections],
    accepted: first.accepted + second.accepted,
    changedInventoryIds: [...new Set([...first.changedInventoryIds, ...second.changedInventoryIds])],
    previousFloorById,
    incidentIds: [...first.incidentIds, ...second.incidentIds],
  };
}

function mergeNodes(first: NodeWriteResult, second: NodeWriteResult): NodeWriteResult {
  return {
    rejections: [...first.rejections, ...second.rejections],
    accepted: first.accepted + second.accepted,
    incidentIds: [...first.incidentIds, ...second.incidentIds],
  };
}

function mergeHelmetEvents(
  first: HelmetEventWriteResult,
  second: HelmetEventWriteResult,
): HelmetEventWriteResult {
  return {
    rejections: [...first.rejections, ...second.rejections],
    accepted: first.accepted + second.accepted,
    helmetEvents: [...first.helmetEvents, ...second.helmetEvents],
    incidentIds: [...first.incidentIds, ...second.incidentIds],
  };
}

/**
 * Stores validated positions. They go in time order, so should the payload be split to isolate a
 * bad entry, the slices still move each helmet forward as one write would.
 */
async function storePositions(
  db: Db,
  siteId: number,
  parsed: ParsedPayload<PositionMessage>,
): Promise<IngestOutcome & { committed: PositionWriteResult }> {
  const inTimeOrder = [...parsed.accepted].sort((a, b) => Date.parse(a.ts) - Date.parse(b.ts));
  const result = await writeIsolatingBadEntries(
    inTimeOrder,
    (entries) => writePositions(db, siteId, entries),
    mergePositions,
  );
  return {
    accepted: result.accepted,
    rejections: [...parsed.rejected, ...result.rejections],
    committed: result,
    newestEntryMs: newestEntryMs(parsed.accepted),
  };
}

/** Positions already parsed from JSON (an HTTP ingest body), checked and stored like a message. */
export function ingestPositionEntries(
  db: Db,
  siteId: number,
  json: unknown,
  now: Date,
): Promise<IngestOutcome & { committed: PositionWriteResult }> {
  return storePositions(db, siteId, checkPositions(json, now));
}

/**
 * Validates one payload of a topic kind and stores what is valid, in one transaction unless the
 * database refuses some entries' data (then those are isolated and counted). Throws only when the
 * database fails as such (a lost connection), which the caller retries: bad input is always an
 * outcome, never an exception.
 */
export async function ingestPayload(
  db: Db,
  siteId: number,
  kind: TopicKind,
  payload: Uint8Array | string,
  now: Date,
): Promise<IngestOutcome> {
  switch (kind) {
    case 'positions':
      return storePositions(db, siteId, parsePositions(payload, now));
    case 'nodes': {
      const parsed = parseNodes(payload, now);
      const result = await writeIsolatingBadEntries(
        parsed.accepted,
        (entries) => writeNodeDiagnostics(db, siteId, entries),
        mergeNodes,
      );
      return {
        accepted: result.accepted,
        rejections: [...parsed.rejected, ...result.rejections],
        committed: { incidentIds: result.incidentIds },
        newestEntryMs: newestEntryMs(parsed.accepted),
      };
    }
    case 'events': {
      const parsed = parseHelmetEvents(payload, now);
      const result = await writeIsolatingBadEntries(
        parsed.accepted,
        (entries) => writeHelmetEvents(db, siteId, entries),
        mergeHelmetEvents,
      );
      return {
        accepted: result.accepted,
        rejections: [...parsed.rejected, ...result.rejections],
        committed: result,
        newestEntryMs: newestEntryMs(parsed.accepted),
      };
    }
  }
}
