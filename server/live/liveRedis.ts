import { createClient } from 'redis';
import type { RedisClient } from './redisLiveSequence';

/** The two connections the socket.io Redis adapter needs: subscribing takes one over. */
export interface RedisPair {
  pub: RedisClient;
  sub: RedisClient;
  close(): Promise<void>;
}

export async function connectRedisPair(url: string, onError: (error: unknown) => void): Promise<RedisPair> {
  const pub: RedisClient = createClient({ url });
  const sub: RedisClient = pub.duplicate();
  // node-redis reconnects by itself; an unheard 'error' event would end the process instead.
  pub.on('error', onError);
  sub.on('error', onError);
  await Promise.all([pub.connect(), sub.connect()]);
  return {
    pub,
    sub,
    async close() {
      await Promise.allSettled([pub.close(), sub.close()]);
    },
  };
}
