import type { DatabasePoolUse, Db } from '../db/database';
import type { MqttIngestStats } from '../ingest/mqttIngest';
import { runningSessions } from '../safety/evacuationStore';

/** What the ingest shows the operations endpoints: its counters and its broker connection. */
export interface ObservedIngest {
  stats(): MqttIngestStats;
  connected(): boolean;
}

/**
 * The process's moving parts as the operations endpoints read them, shared by both listeners.
 * `main.ts` fills it in as each part starts; a test sets what it needs.
 */
export interface OperationsState {
  db: Db;
  /** True while the migrations run: not ready. */
  migrating: boolean;
  /** Whether this process runs an ingest at all (the server does; API-only tests do not). */
  expectsIngest: boolean;
  /** Null until the ingest has started (not ready when one is expected). */
  ingest: ObservedIngest | null;
  /** Sockets connected to this process's live channel, per listener. */
  liveSockets: () => Record<string, number>;
  /** Null when the database does not say (a test's bare Db). */
  databasePool: (() => DatabasePoolUse) | null;
  /** Evacuation sessions running (not ended), every site together. */
  evacuationsRunning: () => Promise<number>;
  /**
   * `METRICS_TOKEN`: the bearer token `/metrics` asks for. Null: `/metrics` answers only to
   * requests from this machine (127.0.0.1, ::1) that no proxy forwarded.
   */
  metricsToken: string | null;
}

export function createOperationsState(
  db: Db,
  overrides: Partial<Omit<OperationsState, 'db'>> = {},
): OperationsState {
  return {
    db,
    migrating: false,
    expectsIngest: false,
    ingest: null,
    liveSockets: () => ({}),
    databasePool: null,
    evacuationsRunning: async () => (await runningSessions(db)).length,
    metricsToken: null,
    ...overrides,
  };
}
