import { and, count, eq, ne, sql } from 'drizzle-orm';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import { uniqueViolation } from '../db/errors';
import type { Executor, Tx } from '../db/executor';
import type { HttpError } from '../http/errors';
import { unprocessable } from '../http/errors';

/**
 * A table of rows named uniquely, case-insensitively, within a scope: zones, walls and planning
 * anchors on their floor, work permits' numbers on their site.
 */
export interface NamedRows {
  table: PgTable;
  id: AnyPgColumn;
  /** The column of the scope the name is unique in (the floor's or the site's id). */
  scope: AnyPgColumn;
  name: AnyPgColumn;
  /** The 409 of a name already used in the scope. */
  duplicate: () => HttpError;
}

export async function nameTaken(
  db: Executor,
  rows: NamedRows,
  scopeId: number,
  name: string,
  exceptId?: number,
): Promise<boolean> {
  const [row] = await db
    .select({ id: rows.id })
    .from(rows.table)
    .where(
      and(
        eq(rows.scope, scopeId),
        sql`lower(${rows.name}) = lower(${name})`,
        exceptId === undefined ? undefined : ne(rows.id, exceptId),
      ),
    )
    .limit(1);
  return row !== undefined;
}

/** The write, with a unique violation that slipped past the check (two writes at once) as the 409. */
export async function duplicateAsConflict<T>(rows: NamedRows, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (uniqueViolation(error)) throw rows.duplicate();
    throw error;
  }
}

/**
 * Adds a row to a floor (rows scoped by floor) in one transaction: 422 with `tooMany` once the
 * floor holds `limit`, 409 when the name is taken. The floor row is locked, so two adds at once
 * cannot both pass the count.
 */
export function addToFloor<T>(
  db: Executor,
  rows: NamedRows,
  floorId: number,
  name: string,
  limit: { max: number; tooMany: string },
  insert: (tx: Tx) => Promise<T>,
): Promise<T> {
  return duplicateAsConflict(rows, () =>
    db.transaction(async (tx) => {
      await tx.execute(sql`select 1 from floors where id = ${floorId} for update`);
      const [{ total }] = await tx.select({ total: count() }).from(rows.table).where(eq(rows.scope, floorId));
      if (total >= limit.max) throw unprocessable({ floor_id: limit.tooMany });
      if (await nameTaken(tx, rows, floorId, name)) throw rows.duplicate();
      return insert(tx);
    }),
  );
}
