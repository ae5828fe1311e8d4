import type { Db } from './database';

/** A transaction of the database, as drizzle hands it to the transaction's callback. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
/** The database, or a transaction of it. */
export type Executor = Db | Tx;
