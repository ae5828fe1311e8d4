import type { Evacuation, EvacuationCounts, EvacuationStatus } from './evacuation';
import { countEvacuation, type EvacuationWorkerRecord, type StatusChange } from './evacuationRules';

/**
 * The report of one evacuation session (issue 5, /safety): how long each worker took to reach
 * safety, how long until everyone was accounted for (safe or acknowledged), and who never was.
 * Pure: built from the stored session, its worker rows and its status events.
 */

/** Who a worker is, for the report's rows (the rules only know ids). */
export interface ReportWorkerIdentity {
  name: string | null;
  wntInventoryId: string | null;
}

export interface EvacuationReportWorker {
  workerId: number;
  name: string | null;
  wntInventoryId: string | null;
  includedAt: string;
  /** The status when the session ended (or now, while it runs). */
  finalStatus: EvacuationStatus;
  safeAt: string | null;
  /** safeAt − start, in whole seconds; null when the worker never reached safety. */
  timeToSafetySeconds: number | null;
  acknowledgedAt: string | null;
  accountedAt: string | null;
  /** accountedAt − start, in whole seconds; null when never accounted for. */
  timeToAccountedSeconds: number | null;
  /** How many status changes were stored for the worker (the first, at inclusion, counts). */
  statusChanges: number;
}

export interface EvacuationReport {
  evacuationSessionId: string;
  siteId: number;
  startedAt: string;
  endedAt: string | null;
  /** endedAt − start in whole seconds; null while it runs. */
  durationSeconds: number | null;
  startedBy: string | null;
  endedBy: string | null;
  /** Ordered by name, then worker id. */
  workers: EvacuationReportWorker[];
  /** When the last included worker was accounted for; null while someone never was. */
  allAccountedAt: string | null;
  /** allAccountedAt − start in whole seconds; null while someone never was. */
  timeUntilAllAccountedSeconds: number | null;
  /** The workers never accounted for (the same rows as in `workers`). */
  neverAccounted: EvacuationReportWorker[];
  /** The counters of the wall screen at the end (or now, while it runs). */
  countsAtEnd: EvacuationCounts;
}

function secondsBetween(from: string, to: string | null): number | null {
  if (to === null) return null;
  return Math.max(0, Math.round((Date.parse(to) - Date.parse(from)) / 1000));
}

function byNameThenId(a: EvacuationReportWorker, b: EvacuationReportWorker): number {
  if (a.name !== b.name) {
    if (a.name === null) return 1;
    if (b.name === null) return -1;
    const order = a.name.localeCompare(b.name);
    if (order !== 0) return order;
  }
  return a.workerId - b.workerId;
}

function earliest(a: string | null, b: string | null): string | null {
  if (a === null) return b;
  if (b === null) return a;
  return Date.parse(a) <= Date.parse(b) ? a : b;
}

/**
 * The report of a session. A worker's final status is the last stored change at or before the
 * end (the row's status when there is none); safeAt and accountedAt are the row's, or the first
 * change that made them true when the row lacks them. With nobody included everyone is
 * trivially accounted for at the start.
 */
export function buildEvacuationReport(
  evacuation: Evacuation,
  records: readonly EvacuationWorkerRecord[],
  events: readonly StatusChange[],
  identities: ReadonlyMap<number, ReportWorkerIdentity> = new Map(),
): EvacuationReport {
  const start = evacuation.evacuationStartAt;
  const endMs = evacuation.endedAt === null ? Number.POSITIVE_INFINITY : Date.parse(evacuation.endedAt);
  const eventsByWorker = new Map<number, StatusChange[]>();
  for (const event of events) {
    if (Date.parse(event.at) > endMs) continue;
    const list = eventsByWorker.get(event.workerId) ?? [];
    list.push(event);
    eventsByWorker.set(event.workerId, list);
  }

  const workers = records.map((record): EvacuationReportWorker => {
    const own = [...(eventsByWorker.get(record.workerId) ?? [])].sort(
      (a, b) => Date.parse(a.at) - Date.parse(b.at),
    );
    const firstSafe = own.find((e) => e.to === 'safe')?.at ?? null;
    const firstAccounted = own.find((e) => e.to === 'safe' || e.to === 'manualAcknowledge')?.at ?? null;
    const safeAt = earliest(record.safeAt, firstSafe);
    const accountedAt = earliest(earliest(record.accountedAt, firstAccounted), safeAt);
    const identity = identities.get(record.workerId);
    return {
      workerId: record.workerId,
      name: identity?.name ?? null,
      wntInventoryId: identity?.wntInventoryId ?? null,
      includedAt: record.includedAt,
      finalStatus: own.at(-1)?.to ?? record.status,
      safeAt,
      timeToSafetySeconds: secondsBetween(start, safeAt),
      acknowledgedAt: record.acknowledgedAt,
      accountedAt,
      timeToAccountedSeconds: secondsBetween(start, accountedAt),
      statusChanges: own.length,
    };
  });
  workers.sort(byNameThenId);

  const neverAccounted = workers.filter((w) => w.accountedAt === null);
  let allAccountedAt: string | null = null;
  if (neverAccounted.length === 0) {
    allAccountedAt = start;
    for (const worker of workers) {
      if (worker.accountedAt && Date.parse(worker.accountedAt) > Date.parse(allAccountedAt))
        allAccountedAt = worker.accountedAt;
    }
  }

  return {
    evacuationSessionId: evacuation.evacuationSessionId,
    siteId: evacuation.siteId,
    startedAt: start,
    endedAt: evacuation.endedAt,
    durationSeconds: secondsBetween(start, evacuation.endedAt),
    startedBy: evacuation.startedBy?.name ?? null,
    endedBy: evacuation.endedBy?.name ?? null,
    workers,
    allAccountedAt,
    timeUntilAllAccountedSeconds: secondsBetween(start, allAccountedAt),
    neverAccounted,
    countsAtEnd: countEvacuation(workers.map((w) => w.finalStatus)),
  };
}

/** One session in the list of past and running evacuations of a site, newest first. */
export interface EvacuationSessionSummary {
  evacuationSessionId: string;
  siteId: number;
  startedAt: string;
  endedAt: string | null;
  /** True while it runs. */
  started: boolean;
  startedBy: string | null;
  endedBy: string | null;
  evacuationFloorsIds: number[];
  /** The counters now (the end state for an ended session). */
  counts: EvacuationCounts;
}
