import { sql } from 'drizzle-orm';
import { DEFAULT_POSITIONS_RETENTION_DAYS } from '../../src/domain/analytics';
import type { Db } from '../db/database';
import type { IngestLogger } from '../ingest/ingestLogger';
import { backfillRollups } from './rollupBackfill';

/**
 * `positions` is partitioned by UTC day (migration 0009), and so is `node_diagnostics` (migration
 * 0011): one partition `positions_pYYYYMMDD` (`node_diagnostics_pYYYYMMDD`) per day, created ahead by the server (today and the next PARTITIONS_AHEAD_DAYS days, at startup and
 * then every hour) and on demand for a batch's days the ingest finds missing. Retention
 * (POSITIONS_RETENTION_DAYS) drops whole partitions: `DROP TABLE`, never `DELETE`. The rollup
 * tables are never touched by retention (docs/decisions.md "Analytics storage").
 */

export const DAY_MS = 86_400_000;
/** Days after today whose partitions exist before any position of theirs arrives. */
export const PARTITIONS_AHEAD_DAYS = 2;
/** How often the partitions ahead are created and expired ones dropped. */
export const PARTITION_MAINTENANCE_INTERVAL_MS = 60 * 60_000;

/** The tables partitioned by day; both follow POSITIONS_RETENTION_DAYS. */
export const DAILY_PARTITIONED_TABLES = ['positions', 'node_diagnostics'] as const;
export type DailyPartitionedTable = (typeof DAILY_PARTITIONED_TABLES)[number];

const PARTITION_NAME = /^([a-z_]+)_p(\d{4})(\d{2})(\d{2})$/;

/** The start (UTC midnight) of the day holding `ms`. */
export function utcDayStart(ms: number): number {
  return Math.floor(ms / DAY_MS) * DAY_MS;
}

/** `positions_pYYYYMMDD` (or the table's own prefix) of the UTC day holding `dayMs`. */
export function partitionName(dayMs: number, table: DailyPartitionedTable = 'positions'): string {
  const iso = new Date(utcDayStart(dayMs)).toISOString();
  return `${table}_p${iso.slice(0, 4)}${iso.slice(5, 7)}${iso.slice(8, 10)}`;
}

/** The UTC day start a partition's name stands for, or null for a name that is not one. */
export function dayOfPartition(name: string): number | null {
  const match = PARTITION_NAME.exec(name);
  return match ? Date.UTC(Number(match[2]), Number(match[3]) - 1, Number(match[4])) : null;
}

/**
 * The first instant kept: the start of the UTC day `retentionDays` before today. Partitions of
 * earlier days are dropped, and a position before it is refused (beyondRetention): its day has
 * been, or is about to be, dropped.
 */
export function retentionCutoffMs(nowMs: number, retentionDays: number): number {
  return utcDayStart(nowMs) - retentionDays * DAY_MS;
}

interface PartitionState {
  retentionDays: number;
  /** Per table, days whose partition this process created or saw; a cache, forgotten when in doubt. */
  known: Record<DailyPartitionedTable, Set<number>>;
}

const states = new WeakMap<object, PartitionState>();

function stateOf(db: Db): PartitionState {
  let state = states.get(db);
  if (!state) {
    state = {
      retentionDays: DEFAULT_POSITIONS_RETENTION_DAYS,
      known: { positions: new Set(), node_diagnostics: new Set() },
    };
    states.set(db, state);
  }
  return state;
}

/** The retention the ingest on this database applies (POSITIONS_RETENTION_DAYS, set at startup). */
export function positionsRetentionDays(db: Db): number {
  return stateOf(db).retentionDays;
}

export function setPositionsRetentionDays(db: Db, days: number): void {
  stateOf(db).retentionDays = days;
}

/** Forgets which partitions exist (after a "no partition" error), so the next call checks again. */
export function forgetKnownPartitions(db: Db): void {
  for (const table of DAILY_PARTITIONED_TABLES) stateOf(db).known[table].clear();
}

function codeOf(error: unknown): string | undefined {
  for (let e = error; e && typeof e === 'object'; e = (e as { cause?: unknown }).cause) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') return code;
  }
  return undefined;
}

function messageOf(error: unknown): string {
  const parts: string[] = [];
  for (let e = error; e && typeof e === 'object'; e = (e as { cause?: unknown }).cause)
    parts.push(String((e as { message?: unknown }).message ?? ''));
  return parts.join(' ');
}

/** PostgreSQL's "no partition of relation … found for row" (check_violation). */
export function isMissingPartition(error: unknown): boolean {
  return codeOf(error) === '23514' && /no partition of relation/i.test(messageOf(error));
}

/**
 * Creates the partition of one UTC day unless it exists. Runs on its own (never inside the
 * ingest's transaction); a concurrent creator winning the race (duplicate_table, or the catalog's
 * unique index) is fine.
 */
export async function createPositionPartition(
  db: Db,
  dayMs: number,
  table: DailyPartitionedTable = 'positions',
): Promise<void> {
  const day = utcDayStart(dayMs);
  const from = new Date(day).toISOString();
  const to = new Date(day + DAY_MS).toISOString();
  try {
    await db.execute(
      sql.raw(
        `create table if not exists "${partitionName(day, table)}" partition of ${table} for values from ('${from}') to ('${to}')`,
      ),
    );
  } catch (error) {
    const code = codeOf(error);
    if (code !== '42P07' && code !== '23505') throw error;
  }
  stateOf(db).known[table].add(day);
}

/** Makes sure the partitions of the given instants' days exist (cached: a known day costs nothing). */
export async function ensurePositionPartitions(
  db: Db,
  instantsMs: Iterable<number>,
  table: DailyPartitionedTable = 'positions',
): Promise<void> {
  const known = stateOf(db).known[table];
  const days = new Set<number>();
  for (const ms of instantsMs) days.add(utcDayStart(ms));
  for (const day of [...days].sort((a, b) => a - b))
    if (!known.has(day)) await createPositionPartition(db, day, table);
}

/** The partitions of `positions` (or of `table`), by name, oldest first. */
export async function listPositionPartitions(
  db: Db,
  table: DailyPartitionedTable = 'positions',
): Promise<string[]> {
  const result = await db.execute(sql`
    select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid
    where i.inhparent = ${table}::regclass order by c.relname`);
  return (result as unknown as { rows: { name: string }[] }).rows.map((row) => row.name);
}

/**
 * Drops every partition (of every daily partitioned table) whose whole day lies before the
 * retention's cutoff; answers their names.
 */
export async function dropExpiredPositionPartitions(
  db: Db,
  nowMs: number,
  retentionDays: number,
): Promise<string[]> {
  const cutoff = retentionCutoffMs(nowMs, retentionDays);
  const dropped: string[] = [];
  for (const table of DAILY_PARTITIONED_TABLES) {
    for (const name of await listPositionPartitions(db, table)) {
      const day = dayOfPartition(name);
      if (day === null || day >= cutoff) continue;
      await db.execute(sql.raw(`drop table if exists "${name}"`));
      stateOf(db).known[table].delete(day);
      dropped.push(name);
    }
  }
  return dropped;
}

export interface PositionPartitionsOptions {
  db: Db;
  logger: IngestLogger;
  /** POSITIONS_RETENTION_DAYS. */
  retentionDays: number;
  intervalMs?: number;
  /** The clock (tests move it). */
  now?: () => number;
}

export interface PositionPartitions {
  /** Creates today's and the next days' partitions and drops expired ones (what the timer runs). */
  maintain(): Promise<void>;
  /** Settles when the rollups of positions migrated by 0009 are written (at once when none are). */
  backfilled: Promise<number>;
  close(): Promise<void>;
}

/**
 * Started with the ingest (server/liveData.ts): one maintenance pass before it resolves, so the
 * partitions ahead exist once the server is up, then one every `intervalMs`; the rollup backfill
 * of migrated positions runs in the background. A failed pass is logged and retried by the next
 * (the ingest creates a missing partition itself).
 */
export async function startPositionPartitions(
  options: PositionPartitionsOptions,
): Promise<PositionPartitions> {
  const { db, logger, retentionDays } = options;
  const now = options.now ?? Date.now;
  setPositionsRetentionDays(db, retentionDays);
  let running: Promise<void> | null = null;
  let closed = false;

  async function maintainOnce(): Promise<void> {
    const today = utcDayStart(now());
    for (const table of DAILY_PARTITIONED_TABLES)
      for (let ahead = 0; ahead <= PARTITIONS_AHEAD_DAYS; ahead++)
        await createPositionPartition(db, today + ahead * DAY_MS, table);
    const dropped = await dropExpiredPositionPartitions(db, now(), retentionDays);
    if (dropped.length > 0)
      logger.info({ dropped, retentionDays }, 'position partitions past retention dropped');
  }

  function maintain(): Promise<void> {
    running ??= maintainOnce()
      .catch((error: unknown) =>
        logger.error({ err: String(error) }, 'position partition maintenance failed'),
      )
      .finally(() => {
        running = null;
      });
    return running;
  }

  await maintain();
  const backfilled = backfillRollups(db, { isClosed: () => closed }).catch((error: unknown) => {
    logger.error({ err: String(error) }, 'rollup backfill failed; it resumes at the next start');
    return 0;
  });
  const timer = setInterval(() => {
    if (!closed) void maintain();
  }, options.intervalMs ?? PARTITION_MAINTENANCE_INTERVAL_MS);
  timer.unref();

  return {
    maintain,
    backfilled,
    async close() {
      closed = true;
      clearInterval(timer);
      await running;
      await backfilled;
    },
  };
}
