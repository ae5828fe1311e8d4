import { ACCOUNTED_STATUSES } from './evacuation';
import type { EvacuationWorkerRecord, StatusChange } from './evacuationRules';
import { floorClearances } from './floorClearance';

/**
 * The figures that compare one evacuation (a drill) with the site's others (issue 17): how long
 * people took to muster, when half, nine in ten and all of the roll were accounted for, when each
 * floor was cleared, and what went wrong on the way (alarms undelivered, marks undone,
 * re-entries). Pure; the definitions are in docs/decisions.md "Drill figures".
 */

/** A marshal's mark as stored: on an included worker or on a person added without a helmet. */
export interface DrillMark {
  workerId: number | null;
  rollPersonId: number | null;
  markedAt: string;
  undoneAt: string | null;
}

/** A person added to the roll without a helmet. */
export interface DrillRollPerson {
  id: number;
  addedAt: string;
}

/** One alarm command sent to a helmet, and when the helmet confirmed it (null: never). */
export interface DrillAlarm {
  inventoryItemId: number;
  sentAt: string;
  deliveredAt: string | null;
}

/** What the figures need of a session besides its included workers' records and status events. */
export interface DrillSession {
  startedAt: string;
  /** Nothing after the end counts; null while it runs. */
  endedAt: string | null;
  evacuationFloorsIds: readonly number[];
}

/** The roll beyond the helmets' records: marks, people without a helmet, alarm commands. */
export interface DrillRoll {
  marks: readonly DrillMark[];
  rollPeople: readonly DrillRollPerson[];
  alarms: readonly DrillAlarm[];
}

export const EMPTY_DRILL_ROLL: DrillRoll = { marks: [], rollPeople: [], alarms: [] };

/** When an evacuated floor was cleared, in seconds after the start (null: never). */
export interface FloorClearTime {
  floorId: number;
  clearedAfterSeconds: number | null;
  /** Included workers still holding it open at the end. */
  remaining: number;
}

export interface DrillFigures {
  /** Everyone on the roll at the end: included workers and people added without a helmet. */
  rollSize: number;
  /** Included workers who mustered (have a time to muster). */
  mustered: number;
  /** Over the included workers who mustered, in seconds; null when nobody did. */
  medianSecondsToMuster: number | null;
  p90SecondsToMuster: number | null;
  maxSecondsToMuster: number | null;
  /** Seconds after the start when 50 %, 90 % and 100 % of the roll were accounted for at once. */
  secondsTo50Percent: number | null;
  secondsTo90Percent: number | null;
  secondsTo100Percent: number | null;
  /** In order of clearing, the floors never cleared last. */
  floorsCleared: FloorClearTime[];
  alarmsSent: number;
  /** Included helmets whose latest alarm command was never confirmed, or who were never sent one. */
  alarmsUndelivered: number;
  marksMade: number;
  marksUndone: number;
  /** Times an accounted-for worker was seen back inside the evacuated area. */
  reEntries: number;
}

const ms = (iso: string) => Date.parse(iso);
const isAccounted = (status: StatusChange['to']) => ACCOUNTED_STATUSES.includes(status);
const secondsAfter = (from: string, to: string) => Math.max(0, Math.round((ms(to) - ms(from)) / 1000));

/** The events up to the end, by worker, in the order they happened (stored order on a tie). */
function eventsByWorker(events: readonly StatusChange[], endMs: number): Map<number, StatusChange[]> {
  const byWorker = new Map<number, StatusChange[]>();
  for (const event of events) {
    if (ms(event.at) > endMs) continue;
    const list = byWorker.get(event.workerId) ?? [];
    list.push(event);
    byWorker.set(event.workerId, list);
  }
  for (const list of byWorker.values()) list.sort((a, b) => ms(a.at) - ms(b.at));
  return byWorker;
}

/** A worker's stored changes, or the one their record implies when none were stored. */
function changesOf(record: EvacuationWorkerRecord, byWorker: Map<number, StatusChange[]>): StatusChange[] {
  const own = byWorker.get(record.workerId);
  if (own && own.length > 0) return own;
  return [
    { workerId: record.workerId, from: null, to: record.status, at: record.statusChangedAt, cause: 'start' },
  ];
}

/**
 * When the worker mustered: the first moment at or after their inclusion at which they were
 * accounted for (safe by helmet, or marked). A redirected worker is judged from the latest
 * redirect instead (the walk to the new muster point counts); one still accounted for through
 * the redirect (marked) mustered at the redirect.
 */
function musteredAt(record: EvacuationWorkerRecord, changes: readonly StatusChange[]): string | null {
  const anchor = ms(record.redirectedAt ?? record.includedAt);
  const atAnchor = changes.filter((change) => ms(change.at) <= anchor).at(-1);
  if (atAnchor && isAccounted(atAnchor.to)) return record.redirectedAt ?? record.includedAt;
  return changes.find((change) => ms(change.at) > anchor && isAccounted(change.to))?.at ?? null;
}

/**
 * Each included worker's time to muster in whole seconds from their inclusion (null: never
 * mustered), by worker id. Status events after the end do not count.
 */
export function musterTimes(
  session: Pick<DrillSession, 'endedAt'>,
  records: readonly EvacuationWorkerRecord[],
  events: readonly StatusChange[],
): Map<number, number | null> {
  const endMs = session.endedAt === null ? Number.POSITIVE_INFINITY : ms(session.endedAt);
  const byWorker = eventsByWorker(events, endMs);
  return new Map(
    records.map((record) => {
      const at = musteredAt(record, changesOf(record, byWorker));
      return [record.workerId, at === null ? null : secondsAfter(record.includedAt, at)];
    }),
  );
}

/**
 * The p-th percentile (0–100) of sorted values by linear interpolation between closest ranks
 * (Excel's PERCENTILE.INC, R's type 7): the median is the 50th. Rounded to tenths of a second.
 */
export function percentile(sorted: readonly number[], p: number): number | null {
  if (sorted.length === 0) return null;
  const rank = ((sorted.length - 1) * p) / 100;
  const below = Math.floor(rank);
  const above = Math.min(below + 1, sorted.length - 1);
  const value = sorted[below] + (rank - below) * (sorted[above] - sorted[below]);
  return Math.round(value * 10) / 10;
}

/** One person's moves in and out of being accounted for. */
type Transition = { at: number; person: string; accounted: boolean };

function workerTransitions(
  records: readonly EvacuationWorkerRecord[],
  byWorker: Map<number, StatusChange[]>,
): Transition[] {
  return records.flatMap((record) =>
    changesOf(record, byWorker).map((change) => ({
      at: ms(change.at),
      person: `w${record.workerId}`,
      accounted: isAccounted(change.to),
    })),
  );
}

/** A person without a helmet is accounted for while a mark on them is in force. */
function rollPersonTransitions(roll: DrillRoll, endMs: number): Transition[] {
  const onRoll = new Set(roll.rollPeople.map((p) => p.id));
  const steps: { at: number; person: string; delta: number }[] = [];
  for (const mark of roll.marks) {
    if (mark.rollPersonId === null || !onRoll.has(mark.rollPersonId) || ms(mark.markedAt) > endMs) continue;
    const person = `p${mark.rollPersonId}`;
    steps.push({ at: ms(mark.markedAt), person, delta: 1 });
    if (mark.undoneAt !== null && ms(mark.undoneAt) <= endMs)
      steps.push({ at: ms(mark.undoneAt), person, delta: -1 });
  }
  steps.sort((a, b) => a.at - b.at);
  const inForce = new Map<string, number>();
  return steps.map(({ at, person, delta }) => {
    const count = (inForce.get(person) ?? 0) + delta;
    inForce.set(person, count);
    return { at, person, accounted: count > 0 };
  });
}

/**
 * Seconds after the start when at least `percent` % of the roll (rounded up to whole people)
 * was accounted for at the same moment; null when that never happened or the roll is empty.
 */
function timesToShare(
  transitions: Transition[],
  rollSize: number,
  startedAt: string,
  percents: readonly number[],
): (number | null)[] {
  const reached: (number | null)[] = percents.map(() => null);
  if (rollSize === 0) return reached;
  const needed = percents.map((percent) => Math.ceil((percent * rollSize) / 100));
  const sorted = [...transitions].sort((a, b) => a.at - b.at);
  const accounted = new Set<string>();
  for (let i = 0; i < sorted.length; i++) {
    const { at, person } = sorted[i];
    if (sorted[i].accounted) accounted.add(person);
    else accounted.delete(person);
    // Everything that happened at the same instant is one step.
    if (i + 1 < sorted.length && sorted[i + 1].at === at) continue;
    needed.forEach((count, index) => {
      if (reached[index] === null && accounted.size >= count)
        reached[index] = Math.max(0, Math.round((at - ms(startedAt)) / 1000));
    });
  }
  return reached;
}

/** Included helmets whose latest alarm (by send time) was never confirmed, or never sent. */
function undeliveredAlarms(
  records: readonly EvacuationWorkerRecord[],
  alarms: readonly DrillAlarm[],
): number {
  const latest = new Map<number, DrillAlarm>();
  for (const alarm of alarms) {
    const known = latest.get(alarm.inventoryItemId);
    if (!known || ms(alarm.sentAt) >= ms(known.sentAt)) latest.set(alarm.inventoryItemId, alarm);
  }
  return records.filter((r) => (latest.get(r.inventoryItemId)?.deliveredAt ?? null) === null).length;
}

/** The figures of one session from its stored rows. */
export function drillFigures(
  session: DrillSession,
  records: readonly EvacuationWorkerRecord[],
  events: readonly StatusChange[],
  roll: DrillRoll = EMPTY_DRILL_ROLL,
): DrillFigures {
  const endMs = session.endedAt === null ? Number.POSITIVE_INFINITY : ms(session.endedAt);
  const byWorker = eventsByWorker(events, endMs);
  const times = [...musterTimes(session, records, events).values()]
    .filter((t): t is number => t !== null)
    .sort((a, b) => a - b);
  const rollSize = records.length + roll.rollPeople.length;
  const [secondsTo50Percent, secondsTo90Percent, secondsTo100Percent] = timesToShare(
    [...workerTransitions(records, byWorker), ...rollPersonTransitions(roll, endMs)],
    rollSize,
    session.startedAt,
    [50, 90, 100],
  );
  const marksMade = roll.marks.filter((m) => ms(m.markedAt) <= endMs);
  let reEntries = 0;
  for (const list of byWorker.values()) reEntries += list.filter((e) => e.to === 'reEntered').length;

  return {
    rollSize,
    mustered: times.length,
    medianSecondsToMuster: percentile(times, 50),
    p90SecondsToMuster: percentile(times, 90),
    maxSecondsToMuster: times.at(-1) ?? null,
    secondsTo50Percent,
    secondsTo90Percent,
    secondsTo100Percent,
    floorsCleared: floorClearances(session.evacuationFloorsIds, records, session.startedAt).map((floor) => ({
      floorId: floor.floorId,
      clearedAfterSeconds: floor.clearedAt === null ? null : secondsAfter(session.startedAt, floor.clearedAt),
      remaining: floor.remaining,
    })),
    alarmsSent: roll.alarms.filter((a) => ms(a.sentAt) <= endMs).length,
    alarmsUndelivered: undeliveredAlarms(records, roll.alarms),
    marksMade: marksMade.length,
    marksUndone: marksMade.filter((m) => m.undoneAt !== null && ms(m.undoneAt) <= endMs).length,
    reEntries,
  };
}

/** One past evacuation of a site with its figures, for the comparison across drills. */
export interface DrillComparisonEntry {
  evacuationSessionId: string;
  startedAt: string;
  endedAt: string | null;
  figures: DrillFigures;
}

/** How many past evacuations the comparison covers (the latest ones). */
export const DRILL_COMPARISON_LIMIT = 50;
