import { and, count, eq, ne, sql } from 'drizzle-orm';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import { uniqueViolation } from '../db/errors';
import type { Executor, Tx } from '../db/executor';
import type { HttpError } from '../http/errors';
import { unprocessable } from '../http/errors';

/** A table of rows that belong to a floor and are named uniquely on it, case-insensitively. */
export interface FloorNamedTable {
  table: PgTable;
  id: AnyPgColumn;
  floorId: AnyPgColumn;
  name: AnyPgColumn;
  /** The 409 of a name already used on the floor. */
  duplicate: () => HttpError;
}

export async function nameTakenOnFloor(
  db: Executor,
  rows: FloorNamedTable,
  floorId: number,
  name: string,
  exceptId?: number,
): Promise<boolean> {
  const [row] = await db
    .select({ id: rows.id })
    .from(rows.table)
    .where(
      and(
        eq(rows.floorId, floorId),
        sql`lower(${rows.name}) = lower(${name})`,
        exceptId === undefined ? undefined : ne(rows.id, exceptId),
      ),
    )
    .limit(1);
  return row !== undefined;
}

/** The write, with a unique violation that slipped past the check (two writes at once) as the 409. */
export async function duplicateAsConflict<T>(rows: FloorNamedTable, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (uniqueViolation(error)) throw rows.duplicate();
    throw error;
  }
}

/**
 * Adds a row to the floor in one transaction: 422 with `tooMany` once the floor holds `limit`,
 * 409 when the name is taken. The floor row is locked, so two adds at once cannot both pass the count.
 */
export function addToFloor<T>(
  db: Executor,
  rows: FloorNamedTable,
  floorId: number,
  name: string,
  limit: { max: number; tooMany: string },
  insert: (tx: Tx) => Promise<T>,
): Promise<T> {
  return duplicateAsConflict(rows, () =>
    db.transaction(async (tx) => {
      await tx.execute(sql`select 1 from floors where id = ${floorId} for update`);
      const [{ total }] = await tx
        .select({ total: count() })
        .from(rows.table)
        .where(eq(rows.floorId, floorId));
      if (total >= limit.max) throw unprocessable({ floor_id: limit.tooMany });
      if (await nameTakenOnFloor(tx, rows, floorId, name)) throw rows.duplicate();
      return insert(tx);
    }),
  );
}
