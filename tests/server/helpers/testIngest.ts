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
  return startMqttIngest({
    db: t.db,
    config: {
      ...t.config,
      mqttTopicRoot: broker.topicRoot,
      mqttClientId: options.clientId ?? uniqueClientId(),
    },
    brokerUrl: broker.url,
    publisher: options.publisher,
    logger: quietLogger,
    sharedSubscription: false,
  });
}

/** An ingest and a client publishing to it, as the gateways do. */
export interface IngestWithSender {
  ingest: MqttIngest;
  sender: MqttClient;
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
  const sender = await connectAsync(broker.url, { clientId: uniqueClientId() });
  return {
    ingest,
    sender,
    async send(siteId, kind, payload) {
      const before = ingest.stats().messages;
      const body = typeof payload === 'string' ? payload : JSON.stringify(payload);
      await sender.publishAsync(topicFor(siteId, kind, broker.topicRoot), body, { qos: 1 });
      await vi.waitFor(() => expect(ingest.stats().messages).toBeGreaterThan(before), { timeout: 5000 });
    },
    async close() {
      await sender.endAsync();
      await ingest.close();
    },
  };
}
