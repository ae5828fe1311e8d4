import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { type Database, openDatabase } from '../server/db/database';

async function admin(adminUrl: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  await client.query(statement);
  await client.end();
}

/** An empty database for one benchmark run: in-memory PGlite, or a throwaway database on a server. */
export async function openScratchDatabase(
  adminUrl: string | undefined,
): Promise<{ database: Database; dispose(): Promise<void> }> {
  if (!adminUrl) {
    const database = await openDatabase({});
    return { database, dispose: () => database.close() };
  }
  const name = `sitewatch_bench_${randomBytes(4).toString('hex')}`;
  await admin(adminUrl, `CREATE DATABASE ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ url: url.toString() });
  return {
    database,
    async dispose() {
      await database.close();
      await admin(adminUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
}
