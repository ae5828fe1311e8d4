import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../db/database';
import type { CubeDeclaration } from './cubes';
import { annotationFor } from './meta';
import { type NormalisedQuery, QueryError } from './query';
import { buildStatement, rowOf } from './statement';

/** Runs one statement and returns its rows. */
export type GatewayExecutor = (db: Db, statement: SQL) => Promise<Record<string, unknown>[]>;

/** A statement may run this long before PostgreSQL cancels it. */
export const GATEWAY_STATEMENT_TIMEOUT_MS = 120_000;

/**
 * The production executor: a read-only transaction with a statement timeout, so even a
 * statement that somehow carried a caller's text could change nothing and hold nothing for long.
 */
export const readOnlyExecutor: GatewayExecutor = (db, statement) =>
  db.transaction(async (tx) => {
    await tx.execute(sql`set transaction read only`);
    await tx.execute(sql.raw(`set local statement_timeout = ${GATEWAY_STATEMENT_TIMEOUT_MS}`));
    // Both drivers (pg, PGlite) answer raw SQL with `{ rows }`.
    const result = (await tx.execute(statement)) as unknown as { rows: Record<string, unknown>[] };
    return result.rows;
  });

export interface LoadResult {
  data: Record<string, unknown>[];
  annotation: ReturnType<typeof annotationFor>;
}

/** PostgreSQL's "invalid parameter value" (a time zone its database does not know). */
const INVALID_PARAMETER = '22023';

function codeOf(error: unknown): string | undefined {
  for (let current = error; current instanceof Error; current = current.cause) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
  }
  return undefined;
}

/** One load: the statement for the caller's sites, run, its rows keyed by member. */
export async function runLoad(
  db: Db,
  cube: CubeDeclaration,
  query: NormalisedQuery,
  siteIds: readonly number[],
  executor: GatewayExecutor = readOnlyExecutor,
): Promise<LoadResult> {
  const annotation = annotationFor(query);
  if (siteIds.length === 0) return { data: [], annotation };
  const statement = buildStatement(cube, query, siteIds);
  let rows: Record<string, unknown>[];
  try {
    rows = await executor(db, statement.sql);
  } catch (error) {
    const code = codeOf(error);
    if (code === INVALID_PARAMETER) throw new QueryError(`Unknown timezone: ${query.timezone}`);
    // Class 22, data exceptions: a value of the query out of the column's range.
    if (code?.startsWith('22')) throw new QueryError('A value of the query is out of range');
    throw error;
  }
  return { data: rows.map((row) => rowOf(row, statement.columns)), annotation };
}
