import { createHash } from 'node:crypto';
import type { SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { Db } from './database';

/*
 * Statements that run on nearly every request (the session, the site, a list page) run on a
 * PostgreSQL server as named prepared statements: each pooled connection parses a shape once, and
 * plans it once where PostgreSQL finds a generic plan as good. For the worker list this halved the
 * database's CPU per request (bench/workerList.bench.ts). PGlite runs them as any other statement.
 * Only for statements with a bounded number of shapes: every value must be a parameter, never
 * spliced into the text.
 */

const dialect = new PgDialect();
const names = new Map<string, string>();

/** A statement's name from its text: the same shape always gets the same name, another shape another. */
function statementName(text: string): string {
  let name = names.get(text);
  if (name === undefined) {
    name = `sw_${createHash('sha1').update(text).digest('hex').slice(0, 20)}`;
    names.set(text, name);
  }
  return name;
}

/** The rows of a hand-written statement, prepared by its shape. */
export async function preparedRows<T>(db: Db, query: SQL): Promise<T[]> {
  const compiled = dialect.sqlToQuery(query);
  const prepared = db._.session.prepareQuery(compiled, undefined, statementName(compiled.sql), false);
  const result = (await prepared.execute()) as { rows: T[] };
  return result.rows;
}

interface Preparable<T> {
  toSQL(): { sql: string };
  prepare(name: string): { execute(): Promise<T> };
}

/** A query builder's result, prepared by its shape (the builder maps the rows as usual). */
export function runPrepared<T>(query: Preparable<T>): Promise<T> {
  return query.prepare(statementName(query.toSQL().sql)).execute();
}
