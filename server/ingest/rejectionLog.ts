import type { Rejection } from '../../src/domain/ingestValidation';
import { REJECTION_REASONS, type RejectionReason } from '../../src/domain/live';
import type { IngestLogger } from './ingestLogger';

export interface RejectionLogOptions {
  logger: IngestLogger;
  /** Milliseconds since the epoch; injectable so tests control the minute. */
  clock?: () => number;
  /** At most one log line per reason per this many milliseconds. */
  intervalMs?: number;
}

/** Where a rejected entry came from, for the log line. */
export interface RejectionSource {
  siteId: number;
  topic: string;
}

/** Longest sample of a rejected entry a log line carries: a flood of junk must not flood the log. */
const SAMPLE_CHARS = 200;

function sampleOf(entry: unknown): string | undefined {
  if (entry === undefined) return undefined;
  let text: string;
  try {
    text = JSON.stringify(entry) ?? String(entry);
  } catch {
    text = String(entry);
  }
  return text.length > SAMPLE_CHARS ? `${text.slice(0, SAMPLE_CHARS)}…` : text;
}

/**
 * Counts dropped messages per reason since start (for stats and monitoring) and logs each reason
 * at most once a minute, with how many were dropped since its last line and one sample, so a
 * misconfigured gateway sending thousands of bad entries a second costs one line a minute.
 */
export class RejectionLog {
  private readonly totals = Object.fromEntries(REJECTION_REASONS.map((r) => [r, 0])) as Record<
    RejectionReason,
    number
  >;
  private readonly sinceLastLine = new Map<RejectionReason, number>();
  private readonly lastLineAt = new Map<RejectionReason, number>();
  private readonly logger: IngestLogger;
  private readonly clock: () => number;
  private readonly intervalMs: number;

  constructor({ logger, clock = Date.now, intervalMs = 60_000 }: RejectionLogOptions) {
    this.logger = logger;
    this.clock = clock;
    this.intervalMs = intervalMs;
  }

  record(rejections: readonly Rejection[], source: RejectionSource): void {
    for (const { reason, entry } of rejections) {
      this.totals[reason] += 1;
      const pending = (this.sinceLastLine.get(reason) ?? 0) + 1;
      const last = this.lastLineAt.get(reason);
      const now = this.clock();
      if (last !== undefined && now - last < this.intervalMs) {
        this.sinceLastLine.set(reason, pending);
        continue;
      }
      this.logger.warn(
        { reason, dropped: pending, total: this.totals[reason], ...source, sample: sampleOf(entry) },
        `ingest dropped ${pending} ${reason} ${pending === 1 ? 'entry' : 'entries'}`,
      );
      this.lastLineAt.set(reason, now);
      this.sinceLastLine.set(reason, 0);
    }
  }

  /** Dropped entries per reason since start. */
  stats(): Record<RejectionReason, number> {
    return { ...this.totals };
  }
}
