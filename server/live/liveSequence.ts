import { randomBytes } from 'node:crypto';
import type { LiveCursor } from '../../src/domain/live';

/**
 * Where each live room's cursor comes from: `next` hands out the cursor of a new batch (seq one
 * more than the last), `current` the cursor of the last batch sent (seq 0 before the first).
 */
export interface LiveSequence {
  current(room: string): Promise<LiveCursor>;
  next(room: string): Promise<LiveCursor>;
}

export function newStreamId(): string {
  return randomBytes(9).toString('base64url');
}

/** One process alone: the stream is new at every start, so clients resync after a restart. */
export function memoryLiveSequence(stream = newStreamId()): LiveSequence {
  const seqByRoom = new Map<string, number>();
  return {
    async current(room) {
      return { stream, seq: seqByRoom.get(room) ?? 0 };
    },
    async next(room) {
      const seq = (seqByRoom.get(room) ?? 0) + 1;
      seqByRoom.set(room, seq);
      return { stream, seq };
    },
  };
}
