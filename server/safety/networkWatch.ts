import { and, eq, isNotNull, max } from 'drizzle-orm';
import { type NetworkFailure, SAFETY_EVENTS, safetyRoom } from '../../src/domain/evacuation';
import type { Db } from '../db/database';
import { inventoryItems, networks } from '../db/schema';
import type { LiveServer } from '../live/liveSocketTypes';

export interface NetworkWatchOptions {
  db: Db;
  io: LiveServer;
  /** A network heard before and silent this long has failed (NETWORK_SILENCE). */
  silenceSeconds: number;
  /** How often to look; a few seconds in production, shorter in tests. */
  intervalMs?: number;
  now?: () => Date;
  onError(error: unknown): void;
}

export interface NetworkWatch {
  /** One check now (also what the timer runs); resolves with what it sent. */
  check(): Promise<NetworkFailure[]>;
  /** The site's networks failed at the last check, for a socket that joins after they failed. */
  currentFailures(siteId: number): NetworkFailure[];
  stop(): void;
}

export const DEFAULT_NETWORK_CHECK_MS = 5000;

/**
 * Tells a site's safety room when one of its networks goes silent (no helmet of it heard for
 * NETWORK_SILENCE) and when it is heard again: `networkFailure` once per change, never every
 * check. A network none of whose helmets was ever heard is not watched: it never worked. The
 * failures stand until heard again, so a socket joining meanwhile is told them as it joins.
 */
export function startNetworkWatch(options: NetworkWatchOptions): NetworkWatch {
  const { db, io, silenceSeconds } = options;
  const now = options.now ?? (() => new Date());
  const failed = new Map<number, boolean>();
  const failures = new Map<number, { failure: NetworkFailure; lastHeardMs: number }>();
  let running: Promise<NetworkFailure[]> | null = null;

  async function checkOnce(): Promise<NetworkFailure[]> {
    const rows = await db
      .select({
        id: networks.id,
        name: networks.name,
        siteId: networks.siteId,
        lastHeard: max(inventoryItems.lastSeen),
      })
      .from(networks)
      .leftJoin(
        inventoryItems,
        and(eq(inventoryItems.networkId, networks.id), eq(inventoryItems.type, 'helmet')),
      )
      .where(isNotNull(networks.siteId))
      .groupBy(networks.id);
    const sent: NetworkFailure[] = [];
    const at = now().getTime();
    for (const row of rows) {
      if (row.siteId === null || row.lastHeard === null) continue;
      const lastHeard = new Date(row.lastHeard);
      const silentForSeconds = Math.max(0, Math.floor((at - lastHeard.getTime()) / 1000));
      const isSilent = silentForSeconds >= silenceSeconds;
      if (isSilent === (failed.get(row.id) ?? false)) continue;
      failed.set(row.id, isSilent);
      const failure: NetworkFailure = {
        siteId: row.siteId,
        networkId: row.id,
        networkName: row.name,
        failed: isSilent,
        lastHeardAt: lastHeard.toISOString(),
        silentForSeconds,
      };
      // Updated in the same tick as the emit: a socket joins either before both or after both.
      if (isSilent) failures.set(row.id, { failure, lastHeardMs: lastHeard.getTime() });
      else failures.delete(row.id);
      io.to(safetyRoom(row.siteId)).emit(SAFETY_EVENTS.networkFailure, failure);
      sent.push(failure);
    }
    return sent;
  }

  const check = () => {
    running ??= checkOnce().finally(() => {
      running = null;
    });
    return running;
  };
  const timer = setInterval(() => {
    check().catch(options.onError);
  }, options.intervalMs ?? DEFAULT_NETWORK_CHECK_MS);
  timer.unref();

  function currentFailures(siteId: number): NetworkFailure[] {
    const at = now().getTime();
    return [...failures.values()]
      .filter(({ failure }) => failure.siteId === siteId)
      .map(({ failure, lastHeardMs }) => ({
        ...failure,
        silentForSeconds: Math.max(0, Math.floor((at - lastHeardMs) / 1000)),
      }));
  }

  return { check, currentFailures, stop: () => clearInterval(timer) };
}
