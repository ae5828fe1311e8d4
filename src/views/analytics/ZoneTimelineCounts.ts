import type { GatewayQuery } from '../../api/gateway';
import { utcSeconds } from './analyticsRange';

/**
 * The zone-occupancy timeline's numbers (under the playback canvas), from the analytics gateway's
 * Presence cube (the presence_minutes rollup) instead of every position of the range: distinct
 * workers per zone per minute (per hour when a range has too many rows for one reply).
 */

export const TIMELINE_MEMBERS = {
  distinctWorkers: 'Presence.distinctWorkers',
  zoneId: 'Presence.zoneId',
  floorId: 'Presence.floorId',
  bucket: 'Presence.bucket',
} as const;

export type TimelineGranularity = 'minute' | 'hour';

/** The gateway's most rows in one reply (server/gateway/query.ts MAX_LIMIT). */
export const TIMELINE_ROW_LIMIT = 50_000;
/** Columns the timeline draws at most; finer buckets are merged (a column shows their peak). */
export const TIMELINE_COLUMNS = 240;

const BUCKET_MS: Record<TimelineGranularity, number> = { minute: 60_000, hour: 3_600_000 };

/** Ranges up to this long are counted by the minute (a day, 25 hours on a DST change). */
const MINUTES_UP_TO_MS = 25 * BUCKET_MS.hour;

/** Minutes for a day, unless every zone in every minute would not fit in one reply; hours otherwise. */
export function timelineGranularity(fromMs: number, toMs: number, zoneCount: number): TimelineGranularity {
  const minutes = Math.ceil((toMs - fromMs) / BUCKET_MS.minute);
  return toMs - fromMs <= MINUTES_UP_TO_MS && minutes * Math.max(1, zoneCount) <= TIMELINE_ROW_LIMIT
    ? 'minute'
    : 'hour';
}

export interface TimelineWindow {
  readonly floorId: number;
  readonly fromMs: number;
  readonly toMs: number;
  readonly zoneCount: number;
}

/**
 * Distinct workers per zone of the floor per bucket over [fromMs, toMs), in UTC (Cube's date range
 * includes its end, so it stops a second before `toMs`, as the overview's queries do).
 */
export function zoneTimelineQuery({ floorId, fromMs, toMs, zoneCount }: TimelineWindow): GatewayQuery {
  const granularity = timelineGranularity(fromMs, toMs, zoneCount);
  return {
    measures: [TIMELINE_MEMBERS.distinctWorkers],
    dimensions: [TIMELINE_MEMBERS.zoneId],
    timeDimensions: [
      {
        dimension: TIMELINE_MEMBERS.bucket,
        granularity,
        dateRange: [utcSeconds(fromMs), utcSeconds(toMs - 1000)],
      },
    ],
    filters: [
      { member: TIMELINE_MEMBERS.floorId, operator: 'equals', values: [String(floorId)] },
      // Time outside every zone is no zone's row.
      { member: TIMELINE_MEMBERS.zoneId, operator: 'set' },
    ],
    order: { [TIMELINE_MEMBERS.bucket]: 'asc' },
    limit: TIMELINE_ROW_LIMIT,
    timezone: 'UTC',
  };
}

/** A reply row: member → value (numbers may arrive as numeric texts). */
export type TimelineRow = Readonly<Record<string, string | number | boolean | null>>;

/** One count of the reply: a zone, its bucket's start and the distinct workers in it. */
export interface BucketCount {
  readonly zoneId: number;
  readonly bucketMs: number;
  readonly workers: number;
}

const toNumber = (value: unknown): number =>
  typeof value === 'number' ? value : Number(value ?? Number.NaN);

/** A bucket time as the gateway writes it (a UTC wall time without a zone) in epoch ms. */
function instantOf(value: unknown): number {
  if (value === null || value === undefined) return Number.NaN;
  const text = String(value);
  return Date.parse(/[zZ]|[+-]\d\d:?\d\d$/.test(text) ? text : `${text}Z`);
}

/** The reply's rows as counts; rows without a zone, a time or a count are left out. */
export function bucketCounts(rows: readonly TimelineRow[], granularity: TimelineGranularity): BucketCount[] {
  const out: BucketCount[] = [];
  for (const row of rows) {
    const zoneId = toNumber(row[TIMELINE_MEMBERS.zoneId]);
    const bucketMs = instantOf(
      row[`${TIMELINE_MEMBERS.bucket}.${granularity}`] ?? row[TIMELINE_MEMBERS.bucket],
    );
    const workers = toNumber(row[TIMELINE_MEMBERS.distinctWorkers]);
    if (!Number.isInteger(zoneId) || !Number.isFinite(bucketMs) || !(workers > 0)) continue;
    out.push({ zoneId, bucketMs, workers });
  }
  return out;
}

export interface ZoneOccupancy {
  readonly zoneIds: readonly number[];
  /** The span drawn: the buckets with someone in a zone, a bucket either side, within the range. */
  readonly startMs: number;
  readonly endMs: number;
  readonly columns: number;
  readonly columnMs: number;
  /** Workers per zone row and column (the peak of the buckets merged into it): counts[row * columns + column]. */
  readonly counts: Uint16Array;
  readonly max: number;
}

/**
 * The timeline's grid: one row per zone (in `zoneIds` order; counts of other zones are left out),
 * columns across the part of the range that has anyone in a zone (a day is mostly empty at either
 * end), at most `maxColumns` of them.
 */
export function zoneOccupancy(
  counts: readonly BucketCount[],
  zoneIds: readonly number[],
  fromMs: number,
  toMs: number,
  granularity: TimelineGranularity,
  maxColumns = TIMELINE_COLUMNS,
): ZoneOccupancy {
  const bucketMs = BUCKET_MS[granularity];
  const row = new Map(zoneIds.map((id, i) => [id, i]));
  const inside = counts.filter(
    (c) => row.has(c.zoneId) && c.bucketMs + bucketMs > fromMs && c.bucketMs < toMs,
  );
  let first = Number.POSITIVE_INFINITY;
  let last = Number.NEGATIVE_INFINITY;
  for (const c of inside) {
    first = Math.min(first, c.bucketMs);
    last = Math.max(last, c.bucketMs + bucketMs);
  }
  const startMs = inside.length > 0 ? Math.max(fromMs, first - bucketMs) : fromMs;
  const endMs = inside.length > 0 ? Math.min(toMs, last + bucketMs) : toMs;
  const buckets = Math.max(1, Math.ceil((endMs - startMs) / bucketMs));
  const perColumn = Math.max(1, Math.ceil(buckets / Math.max(1, maxColumns)));
  const columnMs = bucketMs * perColumn;
  const columns = Math.max(1, Math.ceil((endMs - startMs) / columnMs));
  const grid = new Uint16Array(zoneIds.length * columns);
  let max = 0;
  for (const c of inside) {
    const column = Math.min(columns - 1, Math.max(0, Math.floor((c.bucketMs - startMs) / columnMs)));
    const slot = row.get(c.zoneId)! * columns + column;
    const workers = Math.min(65_535, c.workers);
    if (workers > grid[slot]) grid[slot] = workers;
    if (workers > max) max = workers;
  }
  return { zoneIds, startMs, endMs, columns, columnMs, counts: grid, max };
}
