import { sql } from 'drizzle-orm';
import type { OperationsState } from './operationsState';

/** A database that does not answer `select 1` within this is not ready. */
export const DATABASE_CHECK_TIMEOUT_MS = 1000;

export type Readiness = { ready: true } | { ready: false; reason: string };

function withinTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/**
 * Readiness of one process: not migrating, the database answering, and the broker reachable.
 * Probes share one `select 1` until it settles, so a hanging database is never sent a query per
 * probe (each would hold a pool connection); each probe waits for it at most the timeout.
 */
export function createReadinessCheck(state: OperationsState): () => Promise<Readiness> {
  let pendingQuery: Promise<unknown> | null = null;

  const checkDatabase = async (): Promise<string | null> => {
    pendingQuery ??= state.db.execute(sql`select 1`).finally(() => {
      pendingQuery = null;
    });
    try {
      await withinTimeout(pendingQuery, DATABASE_CHECK_TIMEOUT_MS);
      return null;
    } catch {
      // Not the driver's message: /readyz is public, and it may name internal hosts.
      return 'The database is unreachable';
    }
  };

  return async () => {
    if (state.migrating) return { ready: false, reason: 'The database is being migrated' };
    if (state.expectsIngest) {
      if (!state.ingest) return { ready: false, reason: 'The MQTT ingest is starting' };
      if (!state.ingest.connected()) return { ready: false, reason: 'The MQTT broker is unreachable' };
    }
    const databaseFailure = await checkDatabase();
    return databaseFailure ? { ready: false, reason: databaseFailure } : { ready: true };
  };
}
