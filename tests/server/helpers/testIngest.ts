import { randomBytes } from 'node:crypto';
import { connectAsync, type MqttClient } from 'mqtt';
import { expect, vi } from 'vitest';
import type { IngestLogger } from '../../../server/ingest/ingestLogger';
import { type MqttIngest, startMqttIngest } from '../../../server/ingest/mqttIngest';
import type { LivePublisher } from '../../../server/live/liveChanges';
import { type TopicKind, topicFor } from '../../../src/domain/live';
import type { TestApp } from './testApp';
import type { TestBroker } from './testBroker';

export const quietLogger: IngestLogger = { info() {}, warn() {}, error() {} };

/** An MQTT client id no other test (nor an earlier run against the same broker) uses. */
export const uniqueClientId = () => `sitewatch-test-${randomBytes(6).toString('hex')}`;

/** The MQTT ingest of the test's database, subscribed under the broker's topic root of this test. */
export function startTestIngest(
  t: TestApp,
  broker: TestBroker,
  options: { publisher?: LivePublisher; clientId?: string } = {},
): Promise<MqttIngest> {
  broker.bindDatabase(t.db);
  return startMqttIngest({
    db: t.db,
    config: {
      ...t.config,
      mqttTopicRoot: broker.topicRoot,
      mqttClientId: options.clientId ?? uniqueClientId(),
      mqttUsername: broker.internalLogin.username,
      mqttPassword: broker.internalLogin.password,
    },
    brokerUrl: broker.url,
    publisher: options.publisher,
    logger: quietLogger,
    sharedSubscription: false,
  });
}

/** A gateway of a site: an MQTT client logged in with a new device token of the site. */
export async function connectGateway(broker: TestBroker, siteId: number): Promise<MqttClient> {
  const login = await broker.deviceLogin(siteId);
  return connectAsync(broker.url, { clientId: uniqueClientId(), ...login });
}

/** An ingest and gateways publishing to it (one per site, logged in with its device token). */
export interface IngestWithSender {
  ingest: MqttIngest;
  /** Publishes with QoS 1 and waits until the ingest has handled it (acknowledged or not). */
  send(siteId: number, kind: TopicKind, payload: unknown): Promise<void>;
  close(): Promise<void>;
}

export async function startIngestWithSender(
  t: TestApp,
  broker: TestBroker,
  publisher?: LivePublisher,
): Promise<IngestWithSender> {
  const ingest = await startTestIngest(t, broker, { publisher });
  const gateways = new Map<number, Promise<MqttClient>>();
  const gatewayOf = (siteId: number) => {
    const gateway = gateways.get(siteId) ?? connectGateway(broker, siteId);
    gateways.set(siteId, gateway);
    return gateway;
  };
  return {
    ingest,
    async send(siteId, kind, payload) {
      const sender = await gatewayOf(siteId);
      const before = ingest.stats().messages;
      const body = typeof payload === 'string' ? payload : JSON.stringify(payload);
      await sender.publishAsync(topicFor(siteId, kind, broker.topicRoot), body, { qos: 1 });
      await vi.waitFor(() => expect(ingest.stats().messages).toBeGreaterThan(before), { timeout: 5000 });
    },
    async close() {
      for (const gateway of gateways.values()) await (await gateway).endAsync();
      await ingest.close();
    },
  };
}
