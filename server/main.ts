import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ROLES } from '../src/domain/roles';
import { buildApp } from './app';
import { DEMO_PASSWORD } from './auth/passwords';
import { loadConfig } from './config';
import { openDatabase } from './db/database';
import { lockDataDir } from './db/dataDirLock';
import { demoEmail, isEmpty, seedDemo } from './db/demoSeed';
import { ensureReferenceData } from './db/referenceData';
import { buildSafetyApp } from './safety/safetyApp';

const config = loadConfig(process.env, process.argv.slice(2));
const releaseLock = config.databaseUrl ? () => {} : lockDataDir(config.dataDir);
const database = await openDatabase(
  config.databaseUrl ? { url: config.databaseUrl } : { dataDir: join(config.dataDir, 'pg') },
);
await database.migrate();
await ensureReferenceData(database.db);
let seeded = false;
if (config.demo && (await isEmpty(database.db))) {
  await seedDemo(database.db);
  seeded = true;
}

const consoleDir = fileURLToPath(new URL('../dist', import.meta.url));
const app = await buildApp({ db: database.db, config, consoleDir, logger: { level: 'info' } });
const safety = await buildSafetyApp({ db: database.db, config });
await app.listen({ port: config.port, host: '0.0.0.0' });
await safety.listen({ port: config.safetyPort, host: '0.0.0.0' });

const url = config.publicUrl;
console.log(
  `\nSitewatch is running at ${url} (database: ${database.driver}${seeded ? ', demo site seeded' : ''})`,
);
console.log(`Safety service on port ${config.safetyPort}`);
if (config.demo && !config.production) {
  console.log(`Demo logins (password "${DEMO_PASSWORD}"):`);
  for (const role of ROLES) console.log(`  ${demoEmail(role)}`);
}

let stopping = false;
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  app.log.info(`${signal}: shutting down`);
  await Promise.allSettled([app.close(), safety.close()]);
  await database.close();
  releaseLock();
  process.exit(0);
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));
