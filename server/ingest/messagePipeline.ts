import { parseTopic, type RejectionReason } from '../../src/domain/live';
import type { Db } from '../db/database';
import type { CommittedHelmetEvent, LivePublisher } from '../live/liveChanges';
import { recordAlarmDeliveries } from '../safety/helmetAlarms';
import type { IngestLogger } from './ingestLogger';
import { ingestPayload } from './ingestMessage';
import { publishCommitted } from './publishChanges';
import { RejectionLog } from './rejectionLog';

export interface MqttIngestStats {
  /** Messages done with: committed and acknowledged, or given up for redelivery. */
  messages: number;
  /** Entries stored, redelivered ones included. */
  accepted: number;
  rejected: Record<RejectionReason, number>;
  /** Failed write attempts (each retry counts). */
  writeFailures: number;
  /** Times the connection was dropped so the broker redelivers an unacknowledged message. */
  redeliveriesRequested: number;
  /** Messages dropped after their write failed on the data itself (retrying cannot help). */
  droppedOnDataError: number;
  /** The last committed message with valid entries: its newest entry's ts and when it committed. */
  lastCommittedBatch: { newestEntryTs: string; committedAt: string } | null;
}

/** What to do with a message once handled: acknowledge it, or leave it for redelivery. */
export type IngestVerdict = 'ack' | 'redeliver';

export interface MessagePipelineOptions {
  db: Db;
  topicRoot: string;
  publisher?: LivePublisher;
  logger: IngestLogger;
  /** Tries per message before it is left unacknowledged, and the first pause. */
  retry?: { attempts: number; delayMs: number };
  clock?: () => number;
}

export interface MessagePipeline {
  /**
   * Queues one MQTT message; resolves once it is committed ('ack') or given up ('redeliver').
   * Messages are handled one at a time in the order they were queued: the writers assume it.
   */
  handle(topic: string, payload: Uint8Array | string): Promise<IngestVerdict>;
  /** Stops taking messages (later ones resolve 'redeliver') and waits for the queue and the fan-out. */
  drain(): Promise<void>;
  readonly closing: boolean;
  /** Counts a connection dropped so that the broker or device sends a message again. */
  countRedelivery(): void;
  stats(): MqttIngestStats;
}

/** PostgreSQL data exceptions (22…) and constraint violations (23…): the same rows fail every time. */
function isDataError(error: unknown): boolean {
  for (let e = error; e && typeof e === 'object'; e = (e as { cause?: unknown }).cause) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^2[23]/.test(code)) return true;
  }
  return false;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Helmets confirming an alarm command mark it delivered before the message is acknowledged, so a
 * failure here retries the message (both steps are idempotent) and the fan-out that follows
 * (the evacuation's onHelmetEvents) reads the delivery already stored.
 */
async function recordConfirmedAlarms(
  db: Db,
  siteId: number,
  events: readonly CommittedHelmetEvent[] | undefined,
): Promise<void> {
  const confirmations = (events ?? []).filter((event) => event.type === 'alarmReceived');
  if (confirmations.length > 0) await recordAlarmDeliveries(db, siteId, confirmations);
}

/**
 * The ingest's handling of one message, shared by the embedded broker (in-process) and the MQTT
 * client of an external broker: store it (retrying a failing database a few times), then hand
 * what was committed to the live fan-out, in message order, without holding up the next message.
 */
export function createMessagePipeline(options: MessagePipelineOptions): MessagePipeline {
  const { db, publisher, logger, topicRoot } = options;
  const retry = options.retry ?? { attempts: 3, delayMs: 500 };
  const clock = options.clock ?? Date.now;
  const rejectionLog = new RejectionLog({ logger, clock });
  const counters = {
    messages: 0,
    accepted: 0,
    writeFailures: 0,
    redeliveriesRequested: 0,
    droppedOnDataError: 0,
  };
  let lastCommittedBatch: MqttIngestStats['lastCommittedBatch'] = null;
  let closing = false;
  let queue: Promise<unknown> = Promise.resolve();
  // Fan-out runs after the acknowledgement but in message order, so a slow socket layer never
  // shows an older state after a newer one.
  let publishing: Promise<void> = Promise.resolve();

  async function store(topic: string, payload: Uint8Array | string): Promise<IngestVerdict> {
    const target = parseTopic(topic, topicRoot);
    if (!target) return 'ack';
    for (let attempt = 1; ; attempt++) {
      try {
        const outcome = await ingestPayload(db, target.siteId, target.kind, payload, new Date(clock()));
        await recordConfirmedAlarms(db, target.siteId, outcome.committed.helmetEvents);
        counters.accepted += outcome.accepted;
        rejectionLog.record(outcome.rejections, { siteId: target.siteId, topic });
        if (outcome.newestEntryMs !== undefined)
          lastCommittedBatch = {
            newestEntryTs: new Date(outcome.newestEntryMs).toISOString(),
            committedAt: new Date(clock()).toISOString(),
          };
        const committed = outcome.committed;
        publishing = publishing
          .then(() => publishCommitted(db, publisher, target.siteId, committed))
          .catch((error: unknown) =>
            logger.error({ err: String(error), siteId: target.siteId }, 'live fan-out failed'),
          );
        return 'ack';
      } catch (error) {
        counters.writeFailures += 1;
        logger.error({ err: String(error), topic, attempt }, 'MQTT ingest write failed');
        if (isDataError(error) && attempt >= retry.attempts) {
          counters.droppedOnDataError += 1;
          return 'ack';
        }
        if (attempt >= retry.attempts || closing) return 'redeliver';
        await pause(retry.delayMs * attempt);
      }
    }
  }

  return {
    handle(topic, payload) {
      if (closing) return Promise.resolve('redeliver');
      const handled = queue.then(async () => {
        const verdict = await store(topic, payload);
        counters.messages += 1;
        return verdict;
      });
      queue = handled.catch(() => undefined);
      return handled.catch((error: unknown) => {
        logger.error({ err: String(error), topic }, 'MQTT ingest failed');
        return 'redeliver' as const;
      });
    },
    async drain() {
      closing = true;
      await queue;
      await publishing;
    },
    get closing() {
      return closing;
    },
    countRedelivery() {
      counters.redeliveriesRequested += 1;
    },
    stats: () => ({ ...counters, rejected: rejectionLog.stats(), lastCommittedBatch }),
  };
}
