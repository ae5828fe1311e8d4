import { connect, type IPublishPacket, type MqttClient } from 'mqtt';
import { parseTopic, type RejectionReason, TOPIC_KINDS } from '../../src/domain/live';
import type { Config } from '../config';
import type { Db } from '../db/database';
import type { LivePublisher } from '../live/liveChanges';
import type { IngestLogger } from './ingestLogger';
import { ingestPayload } from './ingestMessage';
import { publishCommitted } from './publishChanges';
import { RejectionLog } from './rejectionLog';

export interface MqttIngestOptions {
  db: Db;
  config: Pick<Config, 'mqttTopicRoot' | 'mqttClientId'>;
  brokerUrl: string;
  publisher?: LivePublisher;
  logger: IngestLogger;
  /** `$share/sitewatch/…`: the broker splits messages between the server processes (DESIGN §1). */
  sharedSubscription: boolean;
  /** Tries per message before the connection is dropped for redelivery, and the first pause. */
  retry?: { attempts: number; delayMs: number };
  clock?: () => number;
}

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
}

export interface MqttIngest {
  close(): Promise<void>;
  stats(): MqttIngestStats;
}

const SHARE_GROUP = 'sitewatch';
const CLOSE_GRACE_MS = 2000;

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
 * Subscribes to every site's positions, nodes and events with QoS 1 on a persistent session and
 * stores each message before acknowledging it: MQTT.js sends the PUBACK when `handleMessage`
 * calls back, so a message is acknowledged only once its rows are committed. A write that keeps
 * failing is never acknowledged: the connection is dropped, and the broker redelivers the message
 * on reconnect (the writers are idempotent, so a redelivery stores nothing twice).
 *
 * MQTT.js hands over one packet at a time per connection and reads the next only after the
 * callback, so throughput comes from gateways sending arrays (one message, many positions), not
 * from concurrent messages.
 *
 * Resolves once subscribed.
 */
export async function startMqttIngest(options: MqttIngestOptions): Promise<MqttIngest> {
  const { db, config, publisher, logger } = options;
  const retry = options.retry ?? { attempts: 3, delayMs: 500 };
  const clock = options.clock ?? Date.now;
  const root = config.mqttTopicRoot;
  const rejectionLog = new RejectionLog({ logger, clock });
  const counters = {
    messages: 0,
    accepted: 0,
    writeFailures: 0,
    redeliveriesRequested: 0,
    droppedOnDataError: 0,
  };
  let closing = false;
  let current: Promise<void> = Promise.resolve();
  // Fan-out runs after the acknowledgement but in message order, so a slow socket layer never
  // shows an older state after a newer one.
  let publishing: Promise<void> = Promise.resolve();

  const client: MqttClient = connect(options.brokerUrl, {
    clientId: config.mqttClientId,
    clean: false,
    reconnectPeriod: 1000,
    connectTimeout: 10_000,
  });
  client.on('error', (error) => logger.warn({ err: error.message }, 'MQTT ingest connection error'));

  async function handle(packet: IPublishPacket): Promise<'ack' | 'redeliver'> {
    const target = parseTopic(packet.topic, root);
    if (!target) return 'ack';
    for (let attempt = 1; ; attempt++) {
      try {
        const outcome = await ingestPayload(
          db,
          target.siteId,
          target.kind,
          packet.payload,
          new Date(clock()),
        );
        counters.accepted += outcome.accepted;
        rejectionLog.record(outcome.rejections, { siteId: target.siteId, topic: packet.topic });
        const committed = outcome.committed;
        publishing = publishing
          .then(() => publishCommitted(db, publisher, target.siteId, committed))
          .catch((error: unknown) =>
            logger.error({ err: String(error), siteId: target.siteId }, 'live fan-out failed'),
          );
        return 'ack';
      } catch (error) {
        counters.writeFailures += 1;
        logger.error({ err: String(error), topic: packet.topic, attempt }, 'MQTT ingest write failed');
        if (isDataError(error) && attempt >= retry.attempts) {
          counters.droppedOnDataError += 1;
          return 'ack';
        }
        if (attempt >= retry.attempts || closing) return 'redeliver';
        await pause(retry.delayMs * attempt);
      }
    }
  }

  client.handleMessage = (packet, callback) => {
    if (closing) return; // not acknowledged: the broker keeps it for the next session
    const handled = handle(packet).then((verdict) => {
      counters.messages += 1;
      if (verdict === 'ack') return callback();
      // No callback: no PUBACK, and this connection reads nothing more. Dropping it makes
      // MQTT.js reconnect on the persistent session, and the broker sends the message again.
      counters.redeliveriesRequested += 1;
      client.stream.destroy();
    });
    current = handled.catch((error: unknown) => logger.error({ err: String(error) }, 'MQTT ingest failed'));
  };

  const prefix = options.sharedSubscription ? `$share/${SHARE_GROUP}/` : '';
  const topics = TOPIC_KINDS.map((kind) => `${prefix}${root}/+/${kind}`);
  await new Promise<void>((resolve, reject) => {
    client.once('connect', () => {
      client.subscribe(topics, { qos: 1 }, (error, granted) => {
        const refused = granted?.find((g) => g.qos !== 1 && g.qos !== 0);
        if (error || refused) {
          client.end(true);
          reject(error ?? new Error(`MQTT broker refused the subscription to ${refused?.topic}`));
        } else resolve();
      });
    });
  });
  logger.info({ topics, clientId: config.mqttClientId }, 'MQTT ingest subscribed');

  return {
    async close() {
      closing = true;
      await current;
      await new Promise<void>((resolve) => {
        // A message that arrived while closing is never acknowledged, so MQTT.js stops reading the
        // socket and a graceful end never sees it close: after a grace period the socket is
        // destroyed, and the broker redelivers that message to the next session.
        const grace = setTimeout(() => client.stream.destroy(), CLOSE_GRACE_MS);
        client.end(false, () => {
          clearTimeout(grace);
          resolve();
        });
      });
      await publishing;
    },
    stats: () => ({ ...counters, rejected: rejectionLog.stats() }),
  };
}
