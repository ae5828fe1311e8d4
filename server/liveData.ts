import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config';
import type { Db } from './db/database';
import { type MqttIngest, startMqttIngest } from './ingest/mqttIngest';
import { type OfflineSweep, startOfflineSweep } from './ingest/offlineSweep';
import type { LivePublisher } from './live/liveChanges';
import { type EmbeddedBroker, startEmbeddedBroker } from './mqtt/embeddedBroker';

export interface LiveData {
  /** Where devices publish: MQTT_URL, or the embedded broker's address. */
  brokerUrl: string;
  ingest: MqttIngest;
  close(): Promise<void>;
}

/**
 * The live-data path of one server process (DESIGN §1): the embedded broker unless MQTT_URL
 * names one, the MQTT ingest (a shared subscription on an external broker, so several
 * processes split the messages) and the offline sweep, all publishing to the socket fan-out.
 */
export async function startLiveData(options: {
  db: Db;
  config: Config;
  publisher: LivePublisher;
  logger: FastifyBaseLogger;
}): Promise<LiveData> {
  const { db, config, publisher, logger } = options;
  const broker: EmbeddedBroker | null = config.mqttUrl ? null : await embeddedBroker(config, logger);
  const brokerUrl = config.mqttUrl ?? broker!.url;
  const ingest = await startMqttIngest({
    db,
    config,
    brokerUrl,
    publisher,
    logger,
    sharedSubscription: Boolean(config.mqttUrl),
  });
  const sweep: OfflineSweep = startOfflineSweep({
    db,
    publisher,
    logger,
    offlineAfterSeconds: config.offlineAfterSeconds,
  });
  return {
    brokerUrl,
    ingest,
    async close() {
      await sweep.close();
      await ingest.close();
      await broker?.close();
    },
  };
}

/**
 * The embedded broker on MQTT_PORT. When the default port is taken (a broker already runs on this
 * machine) and MQTT_PORT was not set, it takes a free port and says which, so `npm start` still
 * starts; an explicit MQTT_PORT that is taken stops the server.
 */
async function embeddedBroker(config: Config, logger: FastifyBaseLogger): Promise<EmbeddedBroker> {
  const port = config.mqttPort;
  try {
    return await startEmbeddedBroker(port);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
    if (!config.mqttPortExplicit) {
      const broker = await startEmbeddedBroker(0);
      logger.warn(`MQTT port ${port} is in use; the embedded broker listens on ${broker.port} instead`);
      return broker;
    }
    throw new Error(
      `MQTT_PORT ${port} is in use (another broker?): set MQTT_PORT to a free port, or MQTT_URL to use that broker`,
    );
  }
}
