import { mkdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { build } from 'vite';
import type { TestProject } from 'vitest/node';
import { buildApp } from '../../../server/app';
import { loadConfig } from '../../../server/config';
import { openDatabase } from '../../../server/db/database';
import { seedDemo } from '../../../server/db/demoSeed';
import { ensureReferenceData } from '../../../server/db/referenceData';

export const CONSOLE_DIR = 'test-output/console';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
  }
}

/**
 * Builds the console once and serves it with the API from one server on a fresh, seeded
 * database (PGlite, or a PostgreSQL server when TEST_DATABASE_URL is set).
 */
export default async function setup(project: TestProject) {
  mkdirSync('test-output/screenshots', { recursive: true });
  await build({ logLevel: 'warn', build: { outDir: CONSOLE_DIR, emptyOutDir: true, sourcemap: false } });
  const database = await openDatabase({});
  await database.migrate();
  await ensureReferenceData(database.db);
  await seedDemo(database.db);
  const config = { ...loadConfig({}), loginMaxFailures: 1000 };
  const app = await buildApp({ db: database.db, config, consoleDir: CONSOLE_DIR });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;
  const baseUrl = `http://127.0.0.1:${port}`;
  config.publicUrl = baseUrl;
  project.provide('baseUrl', baseUrl);
  return async () => {
    await app.close();
    await database.close();
  };
}
