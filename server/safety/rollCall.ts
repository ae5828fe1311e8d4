import { and, asc, desc, eq, inArray, isNotNull, isNull } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { MarshalMark, RollPerson } from '../../src/domain/evacuation';
import type { Executor } from '../db/executor';
import { evacuationMarks, evacuationRollPeople, users } from '../db/schema';

/**
 * A session's roll beyond the helmets: marshals' marks (on workers and on people added without a
 * helmet) and the people added. A mark is never deleted: undoing it records who and when.
 */

const marker = alias(users, 'marker');
const adder = alias(users, 'adder');

const person = (id: number | null, name: string | null) => (id === null ? null : { id, name: name ?? '' });

interface MarkRow {
  id: number;
  workerId: number | null;
  rollPersonId: number | null;
  reason: string;
  markedAt: Date;
  markedById: number | null;
  markedByName: string | null;
}

async function selectActiveMarks(
  db: Executor,
  sessionId: string,
  subject: 'worker' | 'rollPerson',
  ids?: readonly number[],
): Promise<MarkRow[]> {
  if (ids?.length === 0) return [];
  const column = subject === 'worker' ? evacuationMarks.workerId : evacuationMarks.rollPersonId;
  return db
    .select({
      id: evacuationMarks.id,
      workerId: evacuationMarks.workerId,
      rollPersonId: evacuationMarks.rollPersonId,
      reason: evacuationMarks.reason,
      markedAt: evacuationMarks.markedAt,
      markedById: marker.id,
      markedByName: marker.name,
    })
    .from(evacuationMarks)
    .leftJoin(marker, eq(marker.id, evacuationMarks.markedBy))
    .where(
      and(
        eq(evacuationMarks.sessionId, sessionId),
        isNull(evacuationMarks.undoneAt),
        isNotNull(column),
        ids ? inArray(column, ids as number[]) : undefined,
      ),
    )
    .orderBy(asc(evacuationMarks.id));
}

const toMark = (row: MarkRow): MarshalMark => ({
  id: row.id,
  reason: row.reason,
  markedAt: row.markedAt.toISOString(),
  markedBy: person(row.markedById, row.markedByName),
});

/** The active mark of each marked worker of a session (the latest, should two have been made). */
export async function activeWorkerMarks(
  db: Executor,
  sessionId: string,
  workerIds?: readonly number[],
): Promise<Map<number, MarshalMark>> {
  const rows = await selectActiveMarks(db, sessionId, 'worker', workerIds);
  return new Map(rows.map((row) => [row.workerId as number, toMark(row)]));
}

/** The people added to a session's roll, with their active marks, in the order they were added. */
export async function selectRollPeople(
  db: Executor,
  sessionId: string,
  ids?: readonly number[],
): Promise<RollPerson[]> {
  if (ids?.length === 0) return [];
  const rows = await db
    .select({
      id: evacuationRollPeople.id,
      name: evacuationRollPeople.name,
      company: evacuationRollPeople.company,
      addedAt: evacuationRollPeople.addedAt,
      addedById: adder.id,
      addedByName: adder.name,
    })
    .from(evacuationRollPeople)
    .leftJoin(adder, eq(adder.id, evacuationRollPeople.addedBy))
    .where(
      and(
        eq(evacuationRollPeople.sessionId, sessionId),
        ids ? inArray(evacuationRollPeople.id, ids as number[]) : undefined,
      ),
    )
    .orderBy(asc(evacuationRollPeople.id));
  const marks = await selectActiveMarks(
    db,
    sessionId,
    'rollPerson',
    rows.map((r) => r.id),
  );
  const markByPerson = new Map(marks.map((m) => [m.rollPersonId as number, toMark(m)]));
  return rows.map((row) => {
    const mark = markByPerson.get(row.id) ?? null;
    return {
      id: row.id,
      name: row.name,
      company: row.company,
      addedAt: row.addedAt.toISOString(),
      addedBy: person(row.addedById, row.addedByName),
      status: mark ? 'marked' : 'noHelmet',
      mark,
    };
  });
}

export async function insertRollPerson(
  db: Executor,
  row: { sessionId: string; name: string; company: string; addedBy: number; addedAt: Date },
): Promise<number> {
  const [inserted] = await db
    .insert(evacuationRollPeople)
    .values(row)
    .returning({ id: evacuationRollPeople.id });
  return inserted.id;
}

export async function rollPersonOf(db: Executor, sessionId: string, id: number) {
  const [row] = await db
    .select({ id: evacuationRollPeople.id })
    .from(evacuationRollPeople)
    .where(and(eq(evacuationRollPeople.sessionId, sessionId), eq(evacuationRollPeople.id, id)));
  return row ?? null;
}

/** Adds a mark; an earlier active mark of the same person is undone by the new one (one active at a time). */
export async function insertMark(
  db: Executor,
  mark: {
    sessionId: string;
    workerId: number | null;
    rollPersonId: number | null;
    reason: string;
    markedBy: number;
    markedAt: Date;
  },
): Promise<number> {
  const subject =
    mark.workerId !== null
      ? eq(evacuationMarks.workerId, mark.workerId)
      : eq(evacuationMarks.rollPersonId, mark.rollPersonId as number);
  await db
    .update(evacuationMarks)
    .set({ undoneAt: mark.markedAt, undoneBy: mark.markedBy })
    .where(and(eq(evacuationMarks.sessionId, mark.sessionId), subject, isNull(evacuationMarks.undoneAt)));
  const [inserted] = await db.insert(evacuationMarks).values(mark).returning({ id: evacuationMarks.id });
  return inserted.id;
}

/** A mark of the session, locked for the undo. */
export async function lockMark(db: Executor, sessionId: string, markId: number) {
  const [row] = await db
    .select()
    .from(evacuationMarks)
    .where(and(eq(evacuationMarks.sessionId, sessionId), eq(evacuationMarks.id, markId)))
    .for('update');
  return row ?? null;
}

export async function undoMark(
  db: Executor,
  markId: number,
  undoneBy: number,
  undoneAt: Date,
): Promise<void> {
  await db.update(evacuationMarks).set({ undoneAt, undoneBy }).where(eq(evacuationMarks.id, markId));
}

/** Every mark of a session, newest first, for the report (made and undone). */
export async function selectMarkHistory(db: Executor, sessionId: string) {
  return db
    .select({
      id: evacuationMarks.id,
      workerId: evacuationMarks.workerId,
      rollPersonId: evacuationMarks.rollPersonId,
      reason: evacuationMarks.reason,
      markedAt: evacuationMarks.markedAt,
      undoneAt: evacuationMarks.undoneAt,
    })
    .from(evacuationMarks)
    .where(eq(evacuationMarks.sessionId, sessionId))
    .orderBy(desc(evacuationMarks.id));
}
