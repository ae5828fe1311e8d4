import type { FastifyBaseLogger } from 'fastify';
import { type PositionPartitions, startPositionPartitions } from './analytics/positionPartitions';
import type { Config } from './config';
import type { Db } from './db/database';
import { createMessagePipeline } from './ingest/messagePipeline';
import { type MqttIngest, startMqttIngest } from './ingest/mqttIngest';
import { type OfflineSweep, startOfflineSweep } from './ingest/offlineSweep';
import type { LivePublisher } from './live/liveChanges';
import { authenticateDevice } from './mqtt/deviceCredentials';
import { createDeviceSessions, type DeviceSessions } from './mqtt/deviceSessions';
import { type EmbeddedBroker, type EmbeddedBrokerOptions, startEmbeddedBroker } from './mqtt/embeddedBroker';
import { commandTopic } from './mqtt/topicAccess';

export interface LiveData {
  /** Where devices publish: MQTT_URL, or the embedded broker's address. */
  brokerUrl: string;
  /** The embedded broker, or null with MQTT_URL. */
  broker: EmbeddedBroker | null;
  ingest: MqttIngest;
  /** Sends a command to a site's helmets on `{root}/{siteId}/commands` (QoS 1). */
  publishCommand(siteId: number, command: unknown): Promise<void>;
  close(): Promise<void>;
}

/**
 * The live-data path of one server process (DESIGN §1), all publishing to the socket fan-out and
 * the offline sweep: with the embedded broker, the ingest runs inside the broker (a message is
 * stored before its PUBACK, and no network client can stand in for the ingest); with MQTT_URL, an
 * MQTT client on a shared subscription, so several processes split the messages.
 */
export async function startLiveData(options: {
  db: Db;
  config: Config;
  publisher: LivePublisher;
  logger: FastifyBaseLogger;
  /** The registry the device-token routes revoke through; one of its own when not given. */
  deviceSessions?: DeviceSessions;
}): Promise<LiveData> {
  const { db, config, publisher, logger } = options;
  // Before the ingest: today's and the next days' partitions exist, expired ones are dropped.
  const partitions: PositionPartitions = await startPositionPartitions({
    db,
    logger,
    retentionDays: config.positionsRetentionDays,
  });
  let broker: EmbeddedBroker | null = null;
  let ingest: MqttIngest;
  if (config.mqttUrl) {
    ingest = await startMqttIngest({
      db,
      config,
      brokerUrl: config.mqttUrl,
      publisher,
      logger,
      sharedSubscription: true,
    });
  } else {
    const pipeline = createMessagePipeline({ db, topicRoot: config.mqttTopicRoot, publisher, logger });
    const started = await embeddedBroker(config, logger, {
      authenticateDevice: (username, password) => authenticateDevice(db, username, password),
      topicRoot: config.mqttTopicRoot,
      sessions: options.deviceSessions ?? createDeviceSessions(),
      reservedClientIds: [config.mqttClientId],
      ingest: (topic, payload) => pipeline.handle(topic, payload),
      onRedelivery: () => pipeline.countRedelivery(),
    });
    broker = started;
    ingest = {
      close: () => pipeline.drain(),
      stats: () => pipeline.stats(),
      connected: () => !pipeline.closing,
      publish: (topic, payload) => started.publish(topic, payload),
    };
    logger.info({ url: started.url, tls: started.tlsUrl }, 'embedded MQTT broker listening');
  }
  const sweep: OfflineSweep = startOfflineSweep({
    db,
    publisher,
    logger,
    offlineAfterSeconds: config.offlineAfterSeconds,
  });
  return {
    brokerUrl: config.mqttUrl ?? broker!.url,
    broker,
    ingest,
    publishCommand: (siteId, command) =>
      ingest.publish(commandTopic(siteId, config.mqttTopicRoot), JSON.stringify(command)),
    async close() {
      await sweep.close();
      // The ingest stops first: a message arriving now is refused unacknowledged and sent again later.
      await ingest.close();
      await broker?.close();
      await partitions.close();
    },
  };
}

/**
 * The embedded broker on MQTT_HOST:MQTT_PORT. When the default port is taken (a broker already
 * runs on this machine) and MQTT_PORT was not set, it takes a free port and says which, so
 * `npm start` still starts; an explicit MQTT_PORT that is taken stops the server.
 */
async function embeddedBroker(
  config: Config,
  logger: FastifyBaseLogger,
  access: Omit<EmbeddedBrokerOptions, 'port' | 'host' | 'tls'>,
): Promise<EmbeddedBroker> {
  const port = config.mqttPort;
  const start = (onPort: number) =>
    startEmbeddedBroker({ ...access, port: onPort, host: config.mqttHost, tls: config.mqttTls });
  try {
    return await start(port);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
    if (!config.mqttPortExplicit) {
      const broker = await start(0);
      logger.warn(`MQTT port ${port} is in use; the embedded broker listens on ${broker.port} instead`);
      return broker;
    }
    throw new Error(
      `MQTT_PORT ${port} is in use (another broker?): set MQTT_PORT to a free port, or MQTT_URL to use that broker`,
    );
  }
}
