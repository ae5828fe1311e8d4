import type { SQL } from 'drizzle-orm';
import type { Db } from '../db/database';

/** The rows of a plain SQL statement, typed as the caller's select list says. */
export async function rows<T>(db: Db, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

/** A timestamp as the driver returns it (a Date, or text from a raw select) as ISO-8601, or null. */
export const iso = (value: Date | string | null): string | null =>
  value === null ? null : new Date(value).toISOString();
