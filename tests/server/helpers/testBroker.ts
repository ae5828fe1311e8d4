import { randomBytes } from 'node:crypto';
import { type EmbeddedBroker, startEmbeddedBroker } from '../../../server/mqtt/embeddedBroker';

export interface TestBroker {
  url: string;
  /** A topic root of this test alone, so test files sharing one broker never hear each other. */
  topicRoot: string;
  close(): Promise<void>;
}

/** The Mosquitto server of TEST_MQTT_URL when set, otherwise an embedded broker on a free port. */
export async function startTestBroker(): Promise<TestBroker> {
  const topicRoot = `sw-test-${randomBytes(6).toString('hex')}`;
  const external = process.env.TEST_MQTT_URL;
  if (external) return { url: external, topicRoot, close: async () => {} };
  const broker: EmbeddedBroker = await startEmbeddedBroker(0, '127.0.0.1');
  return { url: broker.url, topicRoot, close: () => broker.close() };
}
