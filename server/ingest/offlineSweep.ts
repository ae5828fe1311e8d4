import { and, eq, lt, sql } from 'drizzle-orm';
import type { Db } from '../db/database';
import { inventoryItems } from '../db/schema';
import type { LivePublisher } from '../live/liveChanges';
import type { IngestLogger } from './ingestLogger';
import { publishHelmetChanges } from './publishChanges';

export interface OfflineSweepOptions {
  db: Db;
  publisher?: LivePublisher;
  logger: IngestLogger;
  /** A helmet silent this long is offline (OFFLINE_AFTER). */
  offlineAfterSeconds: number;
  /** How often to look; a few seconds in production, shorter in tests. */
  intervalMs?: number;
}

export interface OfflineSweep {
  /** Runs one sweep now (also what the timer runs); resolves with the helmets it turned offline. */
  sweep(): Promise<number[]>;
  close(): Promise<void>;
}

/**
 * Turns helmets that have not been heard from for `offlineAfterSeconds` offline and publishes
 * them, grouped per site. It runs once at start, so a restarted server does not show helmets
 * online that went silent while it was down, and then every `intervalMs`. The UPDATE re-checks
 * last_seen after any row lock, so a helmet whose position is being written stays online.
 */
export function startOfflineSweep(options: OfflineSweepOptions): OfflineSweep {
  const { db, publisher, logger, offlineAfterSeconds } = options;
  let running: Promise<number[]> | null = null;
  let closed = false;

  async function sweepOnce(): Promise<number[]> {
    const rows = await db
      .update(inventoryItems)
      .set({ isOnline: false })
      .where(
        and(
          eq(inventoryItems.type, 'helmet'),
          eq(inventoryItems.isOnline, true),
          lt(inventoryItems.lastSeen, sql`now() - make_interval(secs => ${offlineAfterSeconds})`),
        ),
      )
      .returning({ id: inventoryItems.id, siteId: inventoryItems.siteId, floorId: inventoryItems.floorId });
    const bySite = new Map<number, typeof rows>();
    for (const row of rows) bySite.set(row.siteId, [...(bySite.get(row.siteId) ?? []), row]);
    for (const [siteId, swept] of bySite) {
      try {
        await publishHelmetChanges(
          db,
          publisher,
          siteId,
          swept.map((r) => r.id),
          new Map(swept.map((r) => [r.id, r.floorId])),
        );
      } catch (error) {
        logger.error({ err: String(error), siteId }, 'offline sweep fan-out failed');
      }
    }
    if (rows.length > 0) logger.info({ count: rows.length }, 'helmets went offline');
    return rows.map((r) => r.id);
  }

  function sweep(): Promise<number[]> {
    // One sweep at a time: a slow one is not overtaken by the next tick.
    running ??= sweepOnce()
      .catch((error: unknown) => {
        logger.error({ err: String(error) }, 'offline sweep failed');
        return [];
      })
      .finally(() => {
        running = null;
      });
    return running;
  }

  void sweep();
  const timer = setInterval(() => {
    if (!closed) void sweep();
  }, options.intervalMs ?? 5000);
  timer.unref();

  return {
    sweep,
    async close() {
      closed = true;
      clearInterval(timer);
      await running;
    },
  };
}
