import { asc, inArray } from 'drizzle-orm';
import type { DrillAlarm, DrillMark, DrillRoll, DrillRollPerson } from '../../src/domain/drillFigures';
import type { EvacuationStatus } from '../../src/domain/evacuation';
import type { EvacuationWorkerRecord, StatusCause, StatusChange } from '../../src/domain/evacuationRules';
import type { Executor } from '../db/executor';
import {
  evacuationAlarms,
  evacuationMarks,
  evacuationRollPeople,
  evacuationStatusEvents,
  evacuationWorkers,
} from '../db/schema';
import { toRecord } from './evacuationRecords';

/**
 * What the drill figures (src/domain/drillFigures.ts) are computed from, read for one or many
 * sessions at once: the included workers' records, their status changes, marks, the people
 * added without a helmet and the alarm commands.
 */

export interface DrillRows {
  records: EvacuationWorkerRecord[];
  events: StatusChange[];
  roll: DrillRoll;
}

type WritableRoll = { marks: DrillMark[]; rollPeople: DrillRollPerson[]; alarms: DrillAlarm[] };

const iso = (date: Date | null) => date?.toISOString() ?? null;

function emptyRows(): DrillRows {
  return { records: [], events: [], roll: { marks: [], rollPeople: [], alarms: [] } };
}

/** The rows of each session, by session id (a session without rows gets empty lists). */
export async function readDrillRows(
  db: Executor,
  sessionIds: readonly string[],
): Promise<Map<string, DrillRows>> {
  const bySession = new Map(sessionIds.map((id) => [id, emptyRows()]));
  if (sessionIds.length === 0) return bySession;
  const ids = [...sessionIds];
  const of = (sessionId: string) => bySession.get(sessionId) as DrillRows;

  const records = await db.select().from(evacuationWorkers).where(inArray(evacuationWorkers.sessionId, ids));
  for (const row of records) of(row.sessionId).records.push(toRecord(row));

  const events = await db
    .select({
      sessionId: evacuationStatusEvents.sessionId,
      workerId: evacuationStatusEvents.workerId,
      fromStatus: evacuationStatusEvents.fromStatus,
      toStatus: evacuationStatusEvents.toStatus,
      cause: evacuationStatusEvents.cause,
      at: evacuationStatusEvents.at,
    })
    .from(evacuationStatusEvents)
    .where(inArray(evacuationStatusEvents.sessionId, ids))
    .orderBy(asc(evacuationStatusEvents.at), asc(evacuationStatusEvents.id));
  for (const e of events)
    of(e.sessionId).events.push({
      workerId: e.workerId,
      from: e.fromStatus as EvacuationStatus | null,
      to: e.toStatus as EvacuationStatus,
      at: e.at.toISOString(),
      cause: e.cause as StatusCause,
    });

  const rolls = await readDrillRolls(db, ids);
  for (const [sessionId, roll] of rolls) of(sessionId).roll = roll;
  return bySession;
}

/** The marks, people without a helmet and alarm commands of each session, by session id. */
export async function readDrillRolls(
  db: Executor,
  sessionIds: readonly string[],
): Promise<Map<string, DrillRoll>> {
  const bySession = new Map<string, WritableRoll>(
    sessionIds.map((id) => [id, { marks: [], rollPeople: [], alarms: [] }]),
  );
  if (sessionIds.length === 0) return bySession;
  const ids = [...sessionIds];
  const of = (sessionId: string) => bySession.get(sessionId) as WritableRoll;

  const marks = await db
    .select({
      sessionId: evacuationMarks.sessionId,
      workerId: evacuationMarks.workerId,
      rollPersonId: evacuationMarks.rollPersonId,
      markedAt: evacuationMarks.markedAt,
      undoneAt: evacuationMarks.undoneAt,
    })
    .from(evacuationMarks)
    .where(inArray(evacuationMarks.sessionId, ids))
    .orderBy(asc(evacuationMarks.id));
  for (const m of marks)
    of(m.sessionId).marks.push({
      workerId: m.workerId,
      rollPersonId: m.rollPersonId,
      markedAt: m.markedAt.toISOString(),
      undoneAt: iso(m.undoneAt),
    });

  const people = await db
    .select({
      sessionId: evacuationRollPeople.sessionId,
      id: evacuationRollPeople.id,
      addedAt: evacuationRollPeople.addedAt,
    })
    .from(evacuationRollPeople)
    .where(inArray(evacuationRollPeople.sessionId, ids));
  for (const p of people) of(p.sessionId).rollPeople.push({ id: p.id, addedAt: p.addedAt.toISOString() });

  const alarms = await db
    .select({
      sessionId: evacuationAlarms.sessionId,
      inventoryItemId: evacuationAlarms.inventoryItemId,
      sentAt: evacuationAlarms.sentAt,
      deliveredAt: evacuationAlarms.deliveredAt,
    })
    .from(evacuationAlarms)
    .where(inArray(evacuationAlarms.sessionId, ids));
  for (const a of alarms)
    of(a.sessionId).alarms.push({
      inventoryItemId: a.inventoryItemId,
      sentAt: a.sentAt.toISOString(),
      deliveredAt: iso(a.deliveredAt),
    });

  return bySession;
}
