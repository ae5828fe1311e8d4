import type { LiveCursor } from './live';

/** What to do with an update, by the cursor rule of the live channel. */
export type CursorVerdict = 'apply' | 'stale' | 'resync';

/** Apply only the next batch of the same stream; ignore old ones; anything else needs a snapshot. */
export function cursorVerdict(cursor: LiveCursor | null, update: LiveCursor): CursorVerdict {
  if (!cursor || cursor.stream !== update.stream) return 'resync';
  if (update.seq === cursor.seq + 1) return 'apply';
  return update.seq <= cursor.seq ? 'stale' : 'resync';
}
