import { connect, type MqttClient } from 'mqtt';
import { TOPIC_KINDS } from '../../src/domain/live';
import type { Config } from '../config';
import type { Db } from '../db/database';
import type { LivePublisher } from '../live/liveChanges';
import type { IngestLogger } from './ingestLogger';
import { createMessagePipeline, type MqttIngestStats } from './messagePipeline';

export type { MqttIngestStats } from './messagePipeline';

export interface MqttIngestOptions {
  db: Db;
  config: Pick<Config, 'mqttTopicRoot' | 'mqttClientId'> &
    Partial<Pick<Config, 'mqttUsername' | 'mqttPassword'>>;
  brokerUrl: string;
  publisher?: LivePublisher;
  logger: IngestLogger;
  /** `$share/sitewatch/…`: the broker splits messages between the server processes (DESIGN §1). */
  sharedSubscription: boolean;
  /** Tries per message before the connection is dropped for redelivery, and the first pause. */
  retry?: { attempts: number; delayMs: number };
  clock?: () => number;
}

export interface MqttIngest {
  close(): Promise<void>;
  stats(): MqttIngestStats;
  /** Whether the broker is reachable: the client's connection, or the embedded broker still running. */
  connected(): boolean;
  /** Publishes to devices (commands to helmets) with QoS 1 on the ingest's own connection. */
  publish(topic: string, payload: string): Promise<void>;
}

const SHARE_GROUP = 'sitewatch';
const CLOSE_GRACE_MS = 2000;
/** CONNACK codes for bad credentials and not authorised (MQTT 3.1.1: 4, 5; MQTT 5: 134, 135). */
const CREDENTIALS_REFUSED = new Set<unknown>([4, 5, 134, 135]);

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
  const { config, logger } = options;
  const root = config.mqttTopicRoot;
  const pipeline = createMessagePipeline({
    db: options.db,
    topicRoot: root,
    publisher: options.publisher,
    logger,
    retry: options.retry,
    clock: options.clock,
  });
  let current: Promise<void> = Promise.resolve();

  const client: MqttClient = connect(options.brokerUrl, {
    clientId: config.mqttClientId,
    clean: false,
    reconnectPeriod: 1000,
    connectTimeout: 10_000,
    username: config.mqttUsername,
    password: config.mqttPassword,
  });
  client.on('error', (error) => logger.warn({ err: error.message }, 'MQTT ingest connection error'));

  client.handleMessage = (packet, callback) => {
    if (pipeline.closing) return; // not acknowledged: the broker keeps it for the next session
    current = pipeline.handle(packet.topic, packet.payload).then((verdict) => {
      if (verdict === 'ack') return callback();
      // No callback: no PUBACK, and this connection reads nothing more. Dropping it makes
      // MQTT.js reconnect on the persistent session, and the broker sends the message again.
      pipeline.countRedelivery();
      client.stream.destroy();
    });
  };

  const prefix = options.sharedSubscription ? `$share/${SHARE_GROUP}/` : '';
  const topics = TOPIC_KINDS.map((kind) => `${prefix}${root}/+/${kind}`);
  await new Promise<void>((resolve, reject) => {
    // A broker refusing the credentials (CONNACK 4 or 5) stops the start instead of retrying forever.
    const refused = (error: Error & { code?: unknown }) => {
      if (!CREDENTIALS_REFUSED.has(error.code)) return;
      client.end(true);
      reject(new Error(`MQTT broker refused the ingest (MQTT_USERNAME/MQTT_PASSWORD?): ${error.message}`));
    };
    client.on('error', refused);
    client.once('connect', () => {
      client.off('error', refused);
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
      const drained = pipeline.drain();
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
      await drained;
    },
    stats: () => pipeline.stats(),
    connected: () => client.connected,
    publish: async (topic, payload) => {
      await client.publishAsync(topic, payload, { qos: 1 });
    },
  };
}
