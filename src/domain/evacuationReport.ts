import {
  type DrillFigures,
  type DrillRoll,
  drillFigures,
  EMPTY_DRILL_ROLL,
  musterTimes,
} from './drillFigures';
import type { Evacuation, EvacuationCounts, EvacuationStatus } from './evacuation';
import { countEvacuation, type EvacuationWorkerRecord, type StatusChange } from './evacuationRules';
import type { SitePlace } from './placeNames';

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

/**
 * The site's floors and zones by id, each named with its floor and building (two blocks both have
 * a "Level 2"), and where each included worker's helmet was when the worker was included.
 */
export interface ReportPlaces {
  floors: ReadonlyMap<number, SitePlace>;
  zones: ReadonlyMap<number, { floorId: number; place: SitePlace }>;
  /** By worker id. */
  workersIncludedAt: ReadonlyMap<number, { floorId: number | null; zoneId: number | null }>;
}

const NO_PLACES: ReportPlaces = { floors: new Map(), zones: new Map(), workersIncludedAt: new Map() };

/** What the evacuation covered, by name: the floors and zones to clear, where to gather. */
export interface EvacuationScopePlaces {
  floors: SitePlace[];
  zones: SitePlace[];
  assemblyZones: SitePlace[];
  safeZone: SitePlace | null;
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
  /** From inclusion to first safe or marked, in whole seconds (src/domain/drillFigures.ts); null: never. */
  timeToMusterSeconds: number | null;
  /** How many status changes were stored for the worker (the first, at inclusion, counts). */
  statusChanges: number;
  /** Where the worker was when included (the zone when in one): where to look for them. */
  placeWhenIncluded: SitePlace | null;
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
  scopePlaces: EvacuationScopePlaces;
  /** The drill's figures (src/domain/drillFigures.ts). */
  figures: DrillFigures;
  /** The figures' floors in order of clearing, each named with its building. */
  floorsCleared: ReportFloorClearance[];
}

/** When an evacuated floor was cleared, with its name (null when the floor is gone). */
export interface ReportFloorClearance {
  floorId: number;
  place: SitePlace | null;
  clearedAfterSeconds: number | null;
  remaining: number;
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

function floorPlaces(ids: readonly number[], places: ReportPlaces): SitePlace[] {
  return ids.flatMap((id) => places.floors.get(id) ?? []);
}

function zonePlaces(ids: readonly number[], places: ReportPlaces): SitePlace[] {
  return ids.flatMap((id) => places.zones.get(id)?.place ?? []);
}

/** A worker's zone when it lies on the worker's floor, else the floor alone. */
function placeWhenIncluded(
  at: { floorId: number | null; zoneId: number | null } | undefined,
  places: ReportPlaces,
): SitePlace | null {
  if (!at || at.floorId === null) return null;
  const zone = at.zoneId === null ? undefined : places.zones.get(at.zoneId);
  if (zone && zone.floorId === at.floorId) return zone.place;
  return places.floors.get(at.floorId) ?? null;
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
  places: ReportPlaces = NO_PLACES,
  roll: DrillRoll = EMPTY_DRILL_ROLL,
): EvacuationReport {
  const start = evacuation.evacuationStartAt;
  const toMuster = musterTimes(evacuation, records, events);
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
      timeToMusterSeconds: toMuster.get(record.workerId) ?? null,
      statusChanges: own.length,
      placeWhenIncluded: placeWhenIncluded(places.workersIncludedAt.get(record.workerId), places),
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

  const figures = drillFigures(
    { startedAt: start, endedAt: evacuation.endedAt, evacuationFloorsIds: evacuation.evacuationFloorsIds },
    records,
    events,
    roll,
  );
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
    scopePlaces: {
      floors: floorPlaces(evacuation.floorIds, places),
      zones: zonePlaces(evacuation.zoneIds, places),
      assemblyZones: zonePlaces(evacuation.assemblyZoneIds, places),
      safeZone: zonePlaces(evacuation.safeZone === null ? [] : [evacuation.safeZone], places)[0] ?? null,
    },
    figures,
    floorsCleared: figures.floorsCleared.map((floor) => ({
      ...floor,
      place: places.floors.get(floor.floorId) ?? null,
    })),
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
  /** Those floors by name, each with its building. */
  evacuatedFloors: SitePlace[];
  /** The counters now (the end state for an ended session). */
  counts: EvacuationCounts;
}
