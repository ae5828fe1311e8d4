import type { createClient } from 'redis';
import type { LiveCursor } from '../../src/domain/live';
import { type LiveSequence, newStreamId } from './liveSequence';

export type RedisClient = ReturnType<typeof createClient>;

/**
 * Several server processes share one sequence per room: INCR on a per-room key. The stream id
 * lives beside the counters (the first process to start sets it), so when Redis loses the
 * counters it loses the stream id with them and every client resyncs on the new one.
 */
export function redisLiveSequence(client: RedisClient, keyPrefix: string): LiveSequence {
  const streamKey = `${keyPrefix}:live:stream`;
  const seqKey = (room: string) => `${keyPrefix}:live:seq:${room}`;
  const candidateStream = newStreamId();

  async function read(room: string, advance: boolean): Promise<LiveCursor> {
    const transaction = client.multi().set(streamKey, candidateStream, { condition: 'NX' }).get(streamKey);
    const [, stream, seq] = await (advance
      ? transaction.incr(seqKey(room))
      : transaction.get(seqKey(room))
    ).exec();
    return { stream: String(stream), seq: Number(seq ?? 0) };
  }

  return {
    current: (room) => read(room, false),
    next: (room) => read(room, true),
  };
}
