import mqtt, { type MqttClient } from 'mqtt';

/** One position as a device sends it; (tag, ts) names it. */
export interface DevicePosition {
  tag: string;
  ts: string;
  lat: number;
  long: number;
  floorId: number;
  online: boolean;
  active: boolean;
}

export interface DevicePublishersOptions {
  brokerUrl: string;
  topic: string;
  /** MQTT login of the devices (a device token: username its id, password the token), if any. */
  credentials?: { username: string; password: string };
  clients: number;
  /** Positions per message. */
  entriesPerMessage: number;
  /** Messages a client has sent and not yet seen acknowledged before it waits. */
  window: number;
  /** Pause between two messages of one client, so the loop leaves the machine some CPU. */
  pauseMs: number;
  tags: readonly string[];
  floorId: number;
  at: { lat: number; long: number };
  /** The first position's time; each later one is a millisecond after the previous one. */
  firstTsMs: number;
}

export interface DevicePublishers {
  /** `${tag}|${ts}` of every position whose message was PUBACKed. */
  readonly acknowledged: ReadonlySet<string>;
  /** Positions handed to a client (acknowledged or not). */
  published(): number;
  /** Messages sent and not yet acknowledged, over all clients. */
  inFlight(): number;
  /** Stops sending new messages; what is in flight is still sent again until acknowledged. */
  stopPublishing(): void;
  /** Resolves once nothing is in flight, or after `timeoutMs`. */
  settle(timeoutMs: number): Promise<void>;
  close(): Promise<void>;
}

export const positionKey = (tag: string, ts: string) => `${tag}|${ts}`;

/**
 * Device clients as a gateway runs them: clean sessions, QoS 1, reconnecting quickly. MQTT.js
 * keeps every unacknowledged QoS 1 message and sends it again after a reconnect, so a publish
 * callback without an error means the broker acknowledged that message.
 */
export async function startDevicePublishers(options: DevicePublishersOptions): Promise<DevicePublishers> {
  const acknowledged = new Set<string>();
  let next = 0;
  let inFlight = 0;
  let publishing = true;
  const clients: MqttClient[] = [];

  const nextMessage = (): DevicePosition[] =>
    Array.from({ length: options.entriesPerMessage }, () => {
      const n = next++;
      return {
        tag: options.tags[n % options.tags.length],
        ts: new Date(options.firstTsMs + n).toISOString(),
        ...options.at,
        floorId: options.floorId,
        online: true,
        active: true,
      };
    });

  const runClient = async (client: MqttClient) => {
    let mine = 0;
    while (publishing) {
      if (!client.connected || mine >= options.window) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        continue;
      }
      const entries = nextMessage();
      mine++;
      inFlight++;
      client.publish(options.topic, JSON.stringify(entries), { qos: 1 }, (error) => {
        mine--;
        inFlight--;
        if (!error) for (const entry of entries) acknowledged.add(positionKey(entry.tag, entry.ts));
      });
      await new Promise((resolve) => setTimeout(resolve, options.pauseMs));
    }
  };

  for (let i = 0; i < options.clients; i++) {
    const client = mqtt.connect(options.brokerUrl, {
      clientId: `ack-device-${process.pid}-${i}-${Date.now()}`,
      clean: true,
      reconnectPeriod: 200,
      connectTimeout: 5000,
      keepalive: 10,
      ...options.credentials,
    });
    // Refused and dropped connections are expected while the server is down: MQTT.js reconnects.
    client.on('error', () => {});
    clients.push(client);
  }
  const loops = clients.map(runClient);

  return {
    acknowledged,
    published: () => next,
    inFlight: () => inFlight,
    stopPublishing() {
      publishing = false;
    },
    async settle(timeoutMs) {
      publishing = false;
      await Promise.all(loops);
      const deadline = Date.now() + timeoutMs;
      while (inFlight > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    },
    async close() {
      publishing = false;
      await Promise.all(loops);
      await Promise.all(clients.map((client) => client.endAsync(true)));
    },
  };
}
