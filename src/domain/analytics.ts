/**
 * Analytics constants shared by the ingest's rollups, the gateway and the console.
 *
 * A stored position stands for POSITION_SAMPLE_SECONDS of presence: helmets report at 1 Hz
 * (DESIGN §5), and counting samples rather than gaps between them makes every rollup an exact,
 * order-independent function of the stored rows, so a late, redelivered or replayed position can
 * never be counted twice or shift another's share (docs/decisions.md).
 */
export const POSITION_SAMPLE_SECONDS = 1;

/** Rollup bucket width. */
export const ROLLUP_BUCKET_MS = 60_000;

/** Raw positions are kept this many days by default (POSITIONS_RETENTION_DAYS). */
export const DEFAULT_POSITIONS_RETENTION_DAYS = 30;

/** Positions per history chunk. */
export const HISTORY_CHUNK_POSITIONS = 50_000;

/** Spec §9: the gateway client retries up to 4 times, waiting 2 s on "Continue wait". */
export const GATEWAY_RETRIES = 4;
export const GATEWAY_CONTINUE_WAIT_MS = 2_000;
/** How long the gateway holds a load request before answering "Continue wait". */
export const GATEWAY_HOLD_MS = 5_000;

/** The start of the rollup bucket holding `ms`. */
export function bucketStart(ms: number): number {
  return Math.floor(ms / ROLLUP_BUCKET_MS) * ROLLUP_BUCKET_MS;
}

/** The longest window one heatmap or history request may name: a month of minute rollups. */
export const ANALYTICS_MAX_WINDOW_DAYS = 31;

/** What the analytics fast paths answer to a bad window, cursor or worker list (422). */
export const ANALYTICS_MESSAGES = {
  fromInvalid: 'From must be an ISO 8601 date and time, e.g. 2026-11-26T08:00:00Z',
  toInvalid: 'To must be an ISO 8601 date and time, e.g. 2026-11-26T08:00:00Z',
  toNotAfterFrom: 'To must be later than From',
  windowTooLong: `The range may span at most ${ANALYTICS_MAX_WINDOW_DAYS} days`,
  cursorInvalid: 'Cursor is invalid: fetch the first chunk of the window again',
  workerIdsInvalid: 'Worker ids must be worker ids separated by commas, e.g. 12,40',
} as const;
