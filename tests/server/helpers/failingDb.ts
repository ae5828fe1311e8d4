import type { Db } from '../../../server/db/database';

/** The database, except that its first `failures` transactions fail as if the connection dropped. */
export function failingFirst(db: Db, failures: number): Db & { failed(): number } {
  let failed = 0;
  return new Proxy(db, {
    get(target, property, receiver) {
      if (property === 'failed') return () => failed;
      if (property === 'transaction' && failed < failures) {
        return async () => {
          failed += 1;
          throw new Error('connection to the database was lost');
        };
      }
      return Reflect.get(target, property, receiver);
    },
  }) as Db & { failed(): number };
}
