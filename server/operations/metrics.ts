import { Counter, collectDefaultMetrics, Gauge, Registry } from 'prom-client';
import { REJECTION_REASONS } from '../../src/domain/live';
import type { MqttIngestStats } from '../ingest/mqttIngest';
import type { OperationsState } from './operationsState';

export const METRICS_CONTENT_TYPE = Registry.PROMETHEUS_CONTENT_TYPE;

let nodeMetrics: Registry | null = null;

/**
 * Node's default metrics (event-loop lag among them) describe the process, so one registry serves
 * every app of it; made on the first scrape, so the many apps tests build start no monitor.
 */
function processMetrics(): Registry {
  if (!nodeMetrics) {
    nodeMetrics = new Registry();
    collectDefaultMetrics({ register: nodeMetrics });
  }
  return nodeMetrics;
}

/** The exposition `/metrics` answers with: Node's metrics, then Sitewatch's, made on first use. */
export function createMetricsScraper(state: OperationsState): () => Promise<string> {
  let merged: Registry | null = null;
  return () => {
    merged ??= Registry.merge([processMetrics(), sitewatchMetrics(state)]);
    return merged.metrics();
  };
}

/**
 * Sitewatch's metrics in a registry of this app's own, read from `state` at each scrape. The
 * ingest already counts; its totals are copied into counters, so a restarted ingest starts them
 * again from zero, as Prometheus expects of a counter reset.
 */
function sitewatchMetrics(state: OperationsState): Registry {
  const register = new Registry();
  const ingestStats = (): MqttIngestStats | null => state.ingest?.stats() ?? null;

  const totalOf = (name: string, help: string, read: (stats: MqttIngestStats) => number) => {
    const counter: Counter = new Counter({
      name,
      help,
      registers: [register],
      collect() {
        counter.reset();
        counter.inc(read(ingestStats() ?? emptyStats));
      },
    });
  };
  totalOf(
    'sitewatch_ingest_messages_total',
    'MQTT messages handled (stored and acknowledged, or given up for redelivery).',
    (s) => s.messages,
  );
  totalOf(
    'sitewatch_ingest_write_failures_total',
    'Failed ingest write attempts (each retry counts).',
    (s) => s.writeFailures,
  );
  totalOf(
    'sitewatch_ingest_redeliveries_requested_total',
    'Connections dropped so the broker redelivers an unacknowledged message.',
    (s) => s.redeliveriesRequested,
  );
  totalOf(
    'sitewatch_ingest_messages_dropped_total',
    'Messages dropped because the database refuses their data.',
    (s) => s.droppedOnDataError,
  );

  const entries: Counter<'result' | 'reason'> = new Counter({
    name: 'sitewatch_ingest_entries_total',
    help: 'Ingested entries by result (accepted, rejected) and rejection reason.',
    labelNames: ['result', 'reason'],
    registers: [register],
    collect() {
      const stats = ingestStats() ?? emptyStats;
      entries.reset();
      entries.inc({ result: 'accepted', reason: '' }, stats.accepted);
      for (const reason of REJECTION_REASONS)
        entries.inc({ result: 'rejected', reason }, stats.rejected[reason] ?? 0);
    },
  });

  const lag: Gauge = new Gauge({
    name: 'sitewatch_ingest_lag_seconds',
    help: "When the last message with valid entries committed, how far its newest entry's ts was behind.",
    registers: [register],
    collect() {
      const batch = ingestStats()?.lastCommittedBatch;
      // NaN before the first commit: 0 would read as "no lag".
      lag.set(batch ? (Date.parse(batch.committedAt) - Date.parse(batch.newestEntryTs)) / 1000 : Number.NaN);
    },
  });
  const lastCommit: Gauge = new Gauge({
    name: 'sitewatch_ingest_last_commit_timestamp_seconds',
    help: 'Unix time of the last committed message with valid entries (time() minus it: how long the ingest has been quiet).',
    registers: [register],
    collect() {
      const batch = ingestStats()?.lastCommittedBatch;
      lastCommit.set(batch ? Date.parse(batch.committedAt) / 1000 : Number.NaN);
    },
  });
  const brokerConnected: Gauge = new Gauge({
    name: 'sitewatch_ingest_broker_connected',
    help: 'Whether the MQTT ingest reaches its broker (1) or not (0).',
    registers: [register],
    collect() {
      brokerConnected.set(state.ingest?.connected() ? 1 : 0);
    },
  });

  const sockets: Gauge<'listener'> = new Gauge({
    name: 'sitewatch_live_sockets',
    help: "Sockets connected to this process's live channel, per listener.",
    labelNames: ['listener'],
    registers: [register],
    collect() {
      sockets.reset();
      for (const [listener, count] of Object.entries(state.liveSockets())) sockets.set({ listener }, count);
    },
  });

  const pool: Gauge<'state'> = new Gauge({
    name: 'sitewatch_database_pool_connections',
    help: 'Database pool connections: total, idle, and queries waiting for one (PGlite: its one connection).',
    labelNames: ['state'],
    registers: [register],
    collect() {
      pool.reset();
      const use = state.databasePool?.();
      if (!use) return;
      pool.set({ state: 'total' }, use.total);
      pool.set({ state: 'idle' }, use.idle);
      pool.set({ state: 'waiting' }, use.waiting);
    },
  });

  const evacuations: Gauge = new Gauge({
    name: 'sitewatch_evacuations_running',
    help: 'Evacuation sessions running (started, not ended), every site together.',
    registers: [register],
    async collect() {
      // A database that fails here must not cost the rest of the scrape: NaN says "unknown".
      evacuations.set(await state.evacuationsRunning().catch(() => Number.NaN));
    },
  });
  return register;
}

const emptyStats: MqttIngestStats = {
  messages: 0,
  accepted: 0,
  rejected: Object.fromEntries(REJECTION_REASONS.map((reason) => [reason, 0])) as MqttIngestStats['rejected'],
  writeFailures: 0,
  redeliveriesRequested: 0,
  droppedOnDataError: 0,
  lastCommittedBatch: null,
};
