import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ROLES } from '../src/domain/roles';
import { buildApp } from './app';
import { DEMO_PASSWORD } from './auth/passwords';
import { loadConfigOrExit } from './config';
import { openDatabase } from './db/database';
import { lockDataDir } from './db/dataDirLock';
import { demoEmail, findDemoSiteId, isEmpty, seedDemo } from './db/demoSeed';
import { ensureReferenceData } from './db/referenceData';
import { type LiveData, startLiveData } from './liveData';
import { createDeviceSessions } from './mqtt/deviceSessions';
import { createOperationsState } from './operations/operationsState';
import { bindDrill, buildSafetyApp, startLive } from './safety/safetyApp';
import { createEvacuationDrill } from './simulator/evacuationDrill';
import { startSimulator } from './simulator/simulator';
import { mintSimulatorLogin } from './simulator/simulatorToken';

const config = loadConfigOrExit(process.env, process.argv.slice(2));
const releaseLock = config.databaseUrl ? () => {} : lockDataDir(config.dataDir);
const database = await openDatabase(
  config.databaseUrl ? { url: config.databaseUrl } : { dataDir: join(config.dataDir, 'pg') },
);
// What /livez, /readyz and /metrics of both listeners read, filled in as each part starts.
const operations = createOperationsState(database.db, {
  migrating: true,
  expectsIngest: true,
  databasePool: database.poolUse,
  metricsToken: config.metricsToken,
});
await database.migrate();
operations.migrating = false;
await ensureReferenceData(database.db);
let seeded = false;
if (config.demo && (await isEmpty(database.db))) {
  await seedDemo(database.db);
  seeded = true;
}

const consoleDir = fileURLToPath(new URL('../dist', import.meta.url));
// Shared by the device-token routes (revoking) and the embedded broker (connecting).
const deviceSessions = createDeviceSessions();
let liveData: LiveData | null = null;
const safety = await buildSafetyApp(
  { db: database.db, config },
  { logger: { level: 'info' }, ingestStats: () => liveData?.ingest.stats() ?? null, operations },
);
const live = await startLive({ app: safety, db: database.db, config });
operations.liveSockets = () => ({ safety: live.io.of('/').sockets.size });
// Sessions that ran when the process stopped: their machines and statuses, from the database.
await live.evacuation.reconcile();
const app = await buildApp({
  db: database.db,
  config,
  consoleDir,
  logger: { level: 'info' },
  publisher: live.publisher,
  deviceSessions,
  operations,
});
await app.listen({ port: config.port, host: config.host });
await safety.listen({ port: config.safetyPort, host: config.host });
liveData = await startLiveData({
  db: database.db,
  config,
  publisher: live.publisher,
  logger: app.log,
  deviceSessions,
});
operations.ingest = liveData.ingest;
live.evacuation.bindCommands(liveData.publishCommand);
// Only ever the demo site: SIMULATOR=on must never write made-up positions into a real client's site.
const demoSiteId = config.simulator ? await findDemoSiteId(database.db) : null;
const simulator = demoSiteId
  ? await startSimulator({
      db: database.db,
      brokerUrl: liveData.brokerUrl,
      login: await mintSimulatorLogin(database.db, demoSiteId),
      topicRoot: config.mqttTopicRoot,
      siteId: demoSiteId,
      logger: app.log,
      // The maintenance screens' last days: written in the background, once (nodeHistoryBackfill.ts).
      backfillNodeHistory: true,
    })
  : null;
// The safety demo's scripted evacuation walks the simulator's workers: it exists only with it.
const drill =
  simulator && demoSiteId
    ? createEvacuationDrill({
        db: database.db,
        simulator,
        evacuation: live.evacuation,
        siteId: demoSiteId,
        logger: app.log,
      })
    : null;
bindDrill(safety, drill);

const url = config.publicUrl;
// One write, so whoever reads the output sees the whole banner once it sees its first line.
const banner = [
  `\nSitewatch is running at ${url} (database: ${database.driver}${seeded ? ', demo site seeded' : ''})`,
];
if (simulator)
  banner.push("Simulator: the demo site's helmets and anchors are live (SIMULATOR=off stops it)");
banner.push(`Safety service and live channel on port ${config.safetyPort}`);
banner.push(
  `MQTT: devices publish to ${liveData.brokerUrl} (topics ${config.mqttTopicRoot}/{siteId}/positions|nodes|events)`,
);
if (liveData.broker)
  banner.push(
    `  devices log in with a device token of their site (user name: the token's id, password: the token)${liveData.broker.tlsUrl ? `; TLS on ${liveData.broker.tlsUrl}` : ''}`,
  );
if (config.demo && !config.production) {
  banner.push(`Demo logins (password "${DEMO_PASSWORD}"):`);
  for (const role of ROLES) banner.push(`  ${demoEmail(role)}`);
}
console.log(banner.join('\n'));

let stopping = false;
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  app.log.info(`${signal}: shutting down`);
  // The ingest stops first, so nothing is acknowledged that is not committed.
  drill?.close();
  await simulator?.close().catch((error) => app.log.error(error));
  await liveData?.close().catch((error) => app.log.error(error));
  await Promise.allSettled([app.close(), live.close().then(() => safety.close())]);
  await database.close();
  releaseLock();
  process.exit(0);
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));
