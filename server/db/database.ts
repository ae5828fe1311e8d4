import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePg, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import * as schema from './schema';

export type Schema = typeof schema;
/** One type for both drivers: PGlite is PostgreSQL, so the code paths never differ. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;

export interface Database {
  db: Db;
  driver: 'pglite' | 'pg';
  migrate(): Promise<void>;
  close(): Promise<void>;
  /** Connections of the pool (PGlite: its one connection), for the operations metrics. */
  poolUse(): DatabasePoolUse;
  /** PGlite only: the whole data directory as a tarball, to open copies from (`loadDataDir`). */
  dumpDataDir?(): Promise<Blob>;
}

export interface DatabasePoolUse {
  total: number;
  idle: number;
  waiting: number;
}

const migrationsFolder = fileURLToPath(new URL('./migrations', import.meta.url));

export interface DatabaseOptions {
  /** postgres://… runs on a PostgreSQL server; otherwise PGlite. */
  url?: string;
  /** PGlite data directory; omitted means in memory. */
  dataDir?: string;
  /** A PGlite data dump (from `dumpDataDir`) to start from. */
  loadDataDir?: Blob | File;
}

/**
 * drizzle-orm's transaction on a pool sends BEGIN before its try/finally: when BEGIN fails (the
 * connection died with the PostgreSQL server) the connection is never given back, and once the
 * pool's ten are lost that way every later query waits forever. Here each transaction runs on a
 * connection taken from the pool and always released; pg-pool discards it if it is broken.
 */
function releaseConnectionsOfTransactions(pool: pg.Pool, db: NodePgDatabase<Schema>): void {
  // One drizzle instance per pooled connection: building it costs a walk over the schema.
  const onConnection = new WeakMap<pg.PoolClient, NodePgDatabase<Schema>>();
  db.transaction = async (transaction, config) => {
    const client = await pool.connect();
    try {
      let connectionDb = onConnection.get(client);
      if (!connectionDb) {
        connectionDb = drizzlePg(client, { schema });
        onConnection.set(client, connectionDb);
      }
      return await connectionDb.transaction(transaction, config);
    } finally {
      client.release();
    }
  };
}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.url) {
    const pool = new pg.Pool({ connectionString: options.url, max: 10 });
    // An idle connection the server drops (a restart, a failover) is replaced on the next query;
    // without a listener its error would end the process.
    pool.on('error', (error) => console.warn(`PostgreSQL connection lost: ${error.message}`));
    // The pool listens only to idle connections: one checked out for a query or a transaction
    // when the server goes away emits 'error' with nobody listening, which ended the process.
    // Its query fails on its own and the pool discards the connection when it is released.
    pool.on('connect', (client) => {
      client.on('error', (error) =>
        console.warn(`PostgreSQL connection lost during a query: ${error.message}`),
      );
    });
    const db = drizzlePg(pool, { schema });
    releaseConnectionsOfTransactions(pool, db);
    return {
      db: db as unknown as Db,
      driver: 'pg',
      migrate: () => migratePg(db, { migrationsFolder }),
      close: () => pool.end(),
      poolUse: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    };
  }
  // The options-object form: `new PGlite(undefined, { loadDataDir })` ignores the dump.
  const client = new PGlite({
    ...(options.dataDir ? { dataDir: options.dataDir } : {}),
    ...(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {}),
  });
  await client.waitReady;
  const db = drizzlePglite(client, { schema });
  return {
    db: db as unknown as Db,
    driver: 'pglite',
    migrate: () => migratePglite(db, { migrationsFolder }),
    close: () => client.close(),
    poolUse: () => ({ total: 1, idle: 0, waiting: 0 }),
    dumpDataDir: () => client.dumpDataDir('none'),
  };
}
