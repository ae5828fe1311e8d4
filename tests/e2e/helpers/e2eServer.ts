import type { AddressInfo } from 'node:net';
import { buildApp } from '../../../server/app';
import { loadConfig } from '../../../server/config';
import type { Db } from '../../../server/db/database';
import { seedDemo } from '../../../server/db/demoSeed';
import { createTestDatabase } from '../../server/helpers/testDatabase';

export interface E2eServer {
  baseUrl: string;
  db: Db;
  close(): Promise<void>;
}

/** The built console and the API from one server on a fresh demo database, for one test file. */
export async function startE2eServer(): Promise<E2eServer> {
  const database = await createTestDatabase();
  await seedDemo(database.db);
  const config = { ...loadConfig({}), loginMaxFailures: 1000 };
  const app = await buildApp({ db: database.db, config, consoleDir: 'test-output/console' });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;
  const baseUrl = `http://127.0.0.1:${port}`;
  // Links in e-mails must point at this server.
  config.publicUrl = baseUrl;
  return {
    baseUrl,
    db: database.db,
    async close() {
      await app.close();
      await database.dispose();
    },
  };
}
