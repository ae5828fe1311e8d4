import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
import { type Database, openDatabase } from '../../../server/db/database';
import { ensureReferenceData } from '../../../server/db/referenceData';
import { databaseUrlFor } from './templateDatabase';

export interface TestDatabase extends Database {
  dispose(): Promise<void>;
}

/**
 * A fresh, migrated database for one test file: in-memory PGlite, or on a PostgreSQL server
 * (TEST_DATABASE_URL) a new database copied from the migrated template.
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (process.env.SITEWATCH_TEST_DRIVER === 'pg' && adminUrl) {
    const name = `sitewatch_test_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name} TEMPLATE ${inject('templateDatabase')}`);
    await admin.end();
    const database = await openDatabase({ url: databaseUrlFor(adminUrl, name) });
    return {
      ...database,
      async dispose() {
        await database.close();
        const dropper = new pg.Client({ connectionString: adminUrl });
        await dropper.connect();
        await dropper.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await dropper.end();
      },
    };
  }
  const database = await openDatabase({ loadDataDir: await migratedPgliteDump() });
  return { ...database, dispose: () => database.close() };
}

let migratedDump: Promise<Blob> | null = null;

/**
 * A migrated PGlite with its reference data, dumped once per test worker. A database opened from
 * it skips PGlite's initdb and the migrations: about 1 s instead of 6 to 8 on the two-core CI
 * machine, for each of the hundred-odd databases the suite opens.
 */
function migratedPgliteDump(): Promise<Blob> {
  migratedDump ??= (async () => {
    const template = await openDatabase({});
    await template.migrate();
    await ensureReferenceData(template.db);
    if (!template.dumpDataDir) throw new Error('PGlite can dump its data directory');
    const dump = await template.dumpDataDir();
    await template.close();
    return dump;
  })();
  return migratedDump;
}
