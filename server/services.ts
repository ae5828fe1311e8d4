import type { Config } from './config';
import type { Db } from './db/database';

/** What route plugins are given: the database and the configuration, nothing global. */
export interface Services {
  db: Db;
  config: Config;
}
