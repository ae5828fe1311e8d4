import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { createServer as createTlsServer } from 'node:tls';
import { Aedes } from 'aedes';
import { type BrokerAccessOptions, brokerAccessHooks } from './brokerAccess';

export interface EmbeddedBrokerOptions extends BrokerAccessOptions {
  port: number;
  /** The interface to listen on; loopback by default (MQTT_HOST opens it). */
  host?: string;
  /** Also listen with TLS (PEM files), with the same authentication. */
  tls?: { certFile: string; keyFile: string; port: number } | null;
}

export interface EmbeddedBroker {
  /** mqtt://<host>:<port>, the address devices on this machine use. */
  url: string;
  /** The address the broker is bound to (127.0.0.1 unless MQTT_HOST says otherwise). */
  host: string;
  port: number;
  /** mqtts://<host>:<port> when TLS is on. */
  tlsUrl: string | null;
  tlsPort: number | null;
  /** Publishes from inside the server (commands to helmets), past the devices' access rules. */
  publish(topic: string, payload: string, qos?: 0 | 1): Promise<void>;
  close(): Promise<void>;
}

/** Listens and resolves with the address actually bound. */
function listen(server: Server, port: number, host: string): Promise<{ address: string; port: number }> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      const bound = server.address();
      resolve(typeof bound === 'object' && bound ? bound : { address: host, port });
    });
  });
}

const closeServer = (server: Server) => new Promise<void>((resolve) => server.close(() => resolve()));

/** The address a local client dials for a listening host: a wildcard means loopback will do. */
function dialHost(host: string): string {
  if (host === '0.0.0.0' || host === '::' || host === '') return '127.0.0.1';
  return host.includes(':') ? `[${host}]` : host;
}

/**
 * The broker `npm start` runs when MQTT_URL is not set (DESIGN §1): aedes on a TCP port (and a
 * TLS port when configured), admitting only authenticated devices and storing what they publish
 * before acknowledging it (see brokerAccess.ts).
 */
export async function startEmbeddedBroker(options: EmbeddedBrokerOptions): Promise<EmbeddedBroker> {
  const host = options.host ?? '127.0.0.1';
  const broker = await Aedes.createBroker(brokerAccessHooks(options));
  const servers: Server[] = [];
  try {
    const plain = createServer(broker.handle);
    const bound = await listen(plain, options.port, host);
    const port = bound.port;
    servers.push(plain);
    let tlsPort: number | null = null;
    if (options.tls) {
      const [cert, key] = await Promise.all([readFile(options.tls.certFile), readFile(options.tls.keyFile)]);
      const secure = createTlsServer({ cert, key }, broker.handle);
      tlsPort = (await listen(secure, options.tls.port, host)).port;
      servers.push(secure);
    }
    return {
      url: `mqtt://${dialHost(host)}:${port}`,
      host: bound.address,
      port,
      tlsUrl: tlsPort === null ? null : `mqtts://${dialHost(host)}:${tlsPort}`,
      tlsPort,
      publish: (topic, payload, qos = 1) =>
        new Promise<void>((resolve, reject) =>
          broker.publish(
            { cmd: 'publish', topic, payload: Buffer.from(payload), qos, retain: false, dup: false },
            (error) => (error ? reject(error) : resolve()),
          ),
        ),
      async close() {
        // Stop accepting, then close the connected clients, which lets the servers finish closing.
        const closed = servers.map(closeServer);
        await new Promise<void>((resolve) => broker.close(() => resolve()));
        await Promise.all(closed);
      },
    };
  } catch (error) {
    await Promise.all(servers.map(closeServer));
    await new Promise<void>((resolve) => broker.close(() => resolve()));
    throw error;
  }
}
