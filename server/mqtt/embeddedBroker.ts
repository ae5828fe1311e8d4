import { createServer, type Server } from 'node:net';
import { Aedes } from 'aedes';

export interface EmbeddedBroker {
  /** mqtt://127.0.0.1:<port> */
  url: string;
  port: number;
  close(): Promise<void>;
}

/** The broker `npm start` runs when MQTT_URL is not set (DESIGN §1): aedes on a TCP port. */
export async function startEmbeddedBroker(port: number, host = '0.0.0.0'): Promise<EmbeddedBroker> {
  const broker = await Aedes.createBroker();
  const server: Server = createServer(broker.handle);
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (error) {
    await new Promise<void>((resolve) => broker.close(() => resolve()));
    throw error;
  }
  const address = server.address();
  const boundPort = typeof address === 'object' && address ? address.port : port;
  return {
    url: `mqtt://127.0.0.1:${boundPort}`,
    port: boundPort,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => broker.close(() => resolve()));
      }),
  };
}
