import { and, asc, desc, eq, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import ExcelJS from 'exceljs';
import type { Evacuation, EvacuationStatus } from '../../src/domain/evacuation';
import {
  buildEvacuationReport,
  type EvacuationReport,
  type EvacuationSessionSummary,
  type ReportPlaces,
  type ReportWorkerIdentity,
} from '../../src/domain/evacuationReport';
import { countEvacuation, type StatusCause } from '../../src/domain/evacuationRules';
import { type SitePlace, sitePlaceName } from '../../src/domain/placeNames';
import { neutraliseFormula } from '../../src/domain/spreadsheetText';
import type { Principal } from '../auth/principal';
import { visibleSitesWhere } from '../auth/tenancy';
import type { Db } from '../db/database';
import {
  buildings,
  evacuationSessions,
  evacuationStatusEvents,
  evacuationWorkers,
  floors,
  inventoryItems,
  positions,
  sites,
  users,
  workers,
  zones,
} from '../db/schema';
import { notFound } from '../http/errors';
import { readDrillRolls } from './drillRecords';
import { toRecord } from './evacuationRecords';
import { evacuationWithNames } from './evacuationStore';

const starter = alias(users, 'starter');
const ender = alias(users, 'ender');

const sessionColumns = {
  session: evacuationSessions,
  siteName: sites.name,
  siteTimeZone: sites.timezone,
  startedById: starter.id,
  startedByName: starter.name,
  endedById: ender.id,
  endedByName: ender.name,
};

type SessionRow = {
  session: typeof evacuationSessions.$inferSelect;
  siteName: string;
  siteTimeZone: string;
  startedById: number | null;
  startedByName: string | null;
  endedById: number | null;
  endedByName: string | null;
};

/** A session and the name and time zone of its site. */
export interface StoredEvacuation {
  evacuation: Evacuation;
  siteName: string;
  siteTimeZone: string;
}

function toEvacuation(db: Db, row: SessionRow): Promise<Evacuation> {
  return evacuationWithNames(db, row.session, { starter: row.startedByName, ender: row.endedByName });
}

/** A session of a site the caller may see; another client's (or an unknown one) is 404. */
export async function requireEvacuation(
  db: Db,
  principal: Principal,
  sessionId: string,
): Promise<StoredEvacuation> {
  const [row] = await db
    .select(sessionColumns)
    .from(evacuationSessions)
    .innerJoin(sites, eq(sites.id, evacuationSessions.siteId))
    .leftJoin(starter, eq(starter.id, evacuationSessions.startedBy))
    .leftJoin(ender, eq(ender.id, evacuationSessions.endedBy))
    .where(and(eq(evacuationSessions.id, sessionId), visibleSitesWhere(principal)))
    .limit(1);
  if (!row) throw notFound('Evacuation');
  return { evacuation: await toEvacuation(db, row), siteName: row.siteName, siteTimeZone: row.siteTimeZone };
}

type SitePlaces = Pick<ReportPlaces, 'floors' | 'zones'>;

/** The site's floors and zones named with their floor and building, for the reports. */
async function readSitePlaces(db: Db, siteId: number): Promise<SitePlaces> {
  const floorRows = await db
    .select({ id: floors.id, floor: floors.name, building: buildings.name })
    .from(floors)
    .innerJoin(buildings, eq(buildings.id, floors.buildingId))
    .where(eq(buildings.siteId, siteId));
  const zoneRows = await db
    .select({
      id: zones.id,
      floorId: zones.floorId,
      zone: zones.name,
      floor: floors.name,
      building: buildings.name,
    })
    .from(zones)
    .innerJoin(floors, eq(floors.id, zones.floorId))
    .innerJoin(buildings, eq(buildings.id, floors.buildingId))
    .where(eq(buildings.siteId, siteId));
  return {
    floors: new Map(floorRows.map((r) => [r.id, { building: r.building, floor: r.floor, zone: null }])),
    zones: new Map(
      zoneRows.map((r) => [
        r.id,
        { floorId: r.floorId, place: { building: r.building, floor: r.floor, zone: r.zone } },
      ]),
    ),
  };
}

/**
 * The helmet's last stored position at the worker's inclusion: where the live state had them.
 * Bounded to a few minutes after the inclusion, so the primary key's range stays short on a
 * helmet that has worn on for months since.
 */
function positionAtInclusion<T>(column: typeof positions.floorId | typeof positions.zoneId) {
  return sql<T>`(select ${column} from ${positions}
    where ${positions.inventoryItemId} = ${evacuationWorkers.inventoryItemId}
      and ${positions.ts} <= ${evacuationWorkers.includedAt} + interval '5 minutes'
      and ${positions.receivedAt} <= ${evacuationWorkers.includedAt}
    order by ${positions.ts} desc limit 1)`;
}

/** Past and running sessions of a site, newest first, with their counters. */
export async function listEvacuations(db: Db, siteId: number): Promise<EvacuationSessionSummary[]> {
  const places = await readSitePlaces(db, siteId);
  const rows = await db
    .select({
      ...sessionColumns,
      statuses: sql<
        EvacuationStatus[] | null
      >`(select array_agg(${evacuationWorkers.status}) from ${evacuationWorkers} where ${evacuationWorkers.sessionId} = ${evacuationSessions.id})`,
    })
    .from(evacuationSessions)
    .innerJoin(sites, eq(sites.id, evacuationSessions.siteId))
    .leftJoin(starter, eq(starter.id, evacuationSessions.startedBy))
    .leftJoin(ender, eq(ender.id, evacuationSessions.endedBy))
    .where(eq(evacuationSessions.siteId, siteId))
    .orderBy(desc(evacuationSessions.startedAt), desc(evacuationSessions.id));
  return rows.map((row) => ({
    evacuationSessionId: row.session.id,
    siteId: row.session.siteId,
    startedAt: row.session.startedAt.toISOString(),
    endedAt: row.session.endedAt?.toISOString() ?? null,
    started: row.session.endedAt === null,
    startedBy: row.startedByName,
    endedBy: row.endedByName,
    evacuationFloorsIds: row.session.evacuationFloorIds,
    evacuatedFloors: row.session.evacuationFloorIds.flatMap((id) => places.floors.get(id) ?? []),
    counts: countEvacuation(row.statuses ?? []),
  }));
}

/** The report of a session (src/domain/evacuationReport.ts) from its stored rows. */
export async function readEvacuationReport(db: Db, evacuation: Evacuation): Promise<EvacuationReport> {
  const sessionId = evacuation.evacuationSessionId;
  const workerRows = await db
    .select({
      row: evacuationWorkers,
      name: workers.name,
      wntInventoryId: inventoryItems.wntInventoryId,
      floorAtInclusion: positionAtInclusion<number | null>(positions.floorId),
      zoneAtInclusion: positionAtInclusion<number | null>(positions.zoneId),
    })
    .from(evacuationWorkers)
    .leftJoin(workers, eq(workers.id, evacuationWorkers.workerId))
    .leftJoin(inventoryItems, eq(inventoryItems.id, evacuationWorkers.inventoryItemId))
    .where(eq(evacuationWorkers.sessionId, sessionId));
  const eventRows = await db
    .select()
    .from(evacuationStatusEvents)
    .where(eq(evacuationStatusEvents.sessionId, sessionId))
    .orderBy(asc(evacuationStatusEvents.at), asc(evacuationStatusEvents.id));
  const records = workerRows.map(({ row }) => toRecord(row));
  const identities = new Map<number, ReportWorkerIdentity>(
    workerRows.map((w) => [w.row.workerId, { name: w.name, wntInventoryId: w.wntInventoryId }]),
  );
  const events = eventRows.map((e) => ({
    workerId: e.workerId,
    from: e.fromStatus as EvacuationStatus | null,
    to: e.toStatus as EvacuationStatus,
    at: e.at.toISOString(),
    cause: e.cause as StatusCause,
  }));
  const sitePlaces = await readSitePlaces(db, evacuation.siteId);
  const workersIncludedAt = new Map(
    workerRows.map((w) => {
      // The floor the service stored as the one to clear wins over the position's.
      const floorId = w.row.originFloorId ?? w.floorAtInclusion;
      const zoneId = floorId === w.floorAtInclusion ? w.zoneAtInclusion : null;
      return [w.row.workerId, { floorId, zoneId }];
    }),
  );
  const roll = (await readDrillRolls(db, [sessionId])).get(sessionId);
  return buildEvacuationReport(
    evacuation,
    records,
    events,
    identities,
    { ...sitePlaces, workersIncludedAt },
    roll,
  );
}

const orBlank = <T>(value: T | null) => value ?? '';
const placeList = (places: readonly SitePlace[]) => places.map(sitePlaceName).join('; ');

/** A sheet of field/value rows, every text cell neutralised (a name may start with '='). */
function fieldSheet(
  workbook: ExcelJS.Workbook,
  name: string,
  rows: readonly [string, string | number][],
): void {
  const sheet = workbook.addWorksheet(name);
  sheet.columns = [
    { header: 'Field', key: 'field', width: 44 },
    { header: 'Value', key: 'value', width: 40 },
  ];
  for (const [field, value] of rows)
    sheet.addRow({ field: neutraliseFormula(field), value: neutraliseFormula(value) });
  sheet.getRow(1).font = { bold: true };
}

/** The drill figures as field/value rows (times in seconds; blank: never reached). */
export function figureRows(report: EvacuationReport): [string, string | number][] {
  const f = report.figures;
  return [
    ['People on the roll', f.rollSize],
    ['Workers mustered', f.mustered],
    ['Median time to muster (s)', orBlank(f.medianSecondsToMuster)],
    ['90th percentile time to muster (s)', orBlank(f.p90SecondsToMuster)],
    ['Maximum time to muster (s)', orBlank(f.maxSecondsToMuster)],
    ['50 % accounted for after (s)', orBlank(f.secondsTo50Percent)],
    ['90 % accounted for after (s)', orBlank(f.secondsTo90Percent)],
    ['100 % accounted for after (s)', orBlank(f.secondsTo100Percent)],
    ['Alarms sent', f.alarmsSent],
    ['Alarms undelivered', f.alarmsUndelivered],
    ['Marks made', f.marksMade],
    ['Marks undone', f.marksUndone],
    ['Re-entries', f.reEntries],
    ...report.floorsCleared.map((floor): [string, string | number] => [
      `Floor cleared after (s): ${floor.place ? sitePlaceName(floor.place) : `Floor ${floor.floorId}`}`,
      orBlank(floor.clearedAfterSeconds),
    ]),
  ];
}

/**
 * The report as an .xlsx workbook: a Summary sheet, a Workers sheet and a Figures sheet (the
 * drill figures); times are ISO-8601 UTC, durations in seconds.
 */
export async function evacuationReportWorkbook(report: EvacuationReport, siteName: string): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  workbook.creator = 'Sitewatch';
  const counts = report.countsAtEnd;
  fieldSheet(workbook, 'Summary', [
    ['Site', siteName],
    ['Evacuation session', report.evacuationSessionId],
    ['Started at', report.startedAt],
    ['Ended at', orBlank(report.endedAt)],
    ['Duration (s)', orBlank(report.durationSeconds)],
    ['Started by', orBlank(report.startedBy)],
    ['Ended by', orBlank(report.endedBy)],
    ['Floors evacuated', placeList(report.scopePlaces.floors)],
    ['Zones evacuated', placeList(report.scopePlaces.zones)],
    ['Assembly zones', placeList(report.scopePlaces.assemblyZones)],
    ['Safe zone', orBlank(report.scopePlaces.safeZone && sitePlaceName(report.scopePlaces.safeZone))],
    ['Workers included', counts.included],
    ['Safe', counts.safe],
    ['Manual acknowledge', counts.manualAcknowledge],
    ['Auto acknowledge', counts.autoAcknowledge],
    ['Offline', counts.offline],
    ['Still inside', counts.stillInside],
    ['Everyone accounted for at', orBlank(report.allAccountedAt)],
    ['Time until everyone was accounted for (s)', orBlank(report.timeUntilAllAccountedSeconds)],
    ['Never accounted for', report.neverAccounted.length],
  ]);

  const sheet = workbook.addWorksheet('Workers');
  sheet.columns = [
    { header: 'Worker', key: 'name', width: 28 },
    { header: 'Helmet', key: 'helmet', width: 16 },
    { header: 'Included at', key: 'includedAt', width: 26 },
    { header: 'Final status', key: 'status', width: 20 },
    { header: 'Safe at', key: 'safeAt', width: 26 },
    { header: 'Time to safety (s)', key: 'timeToSafety', width: 18 },
    { header: 'Acknowledged at', key: 'acknowledgedAt', width: 26 },
    { header: 'Accounted for at', key: 'accountedAt', width: 26 },
    { header: 'Time to accounted (s)', key: 'timeToAccounted', width: 20 },
    { header: 'Never accounted for', key: 'never', width: 20 },
    // After the columns readers already rely on: where to look for each worker, by building.
    { header: 'Building when included', key: 'building', width: 24 },
    { header: 'Floor when included', key: 'floor', width: 20 },
    { header: 'Zone when included', key: 'zone', width: 24 },
    { header: 'Time to muster (s)', key: 'timeToMuster', width: 18 },
  ];
  for (const worker of report.workers) {
    const row = {
      name: worker.name ?? `Worker ${worker.workerId}`,
      helmet: orBlank(worker.wntInventoryId),
      building: orBlank(worker.placeWhenIncluded?.building ?? null),
      floor: orBlank(worker.placeWhenIncluded?.floor ?? null),
      zone: orBlank(worker.placeWhenIncluded?.zone ?? null),
      includedAt: worker.includedAt,
      status: worker.finalStatus,
      safeAt: orBlank(worker.safeAt),
      timeToSafety: orBlank(worker.timeToSafetySeconds),
      acknowledgedAt: orBlank(worker.acknowledgedAt),
      accountedAt: orBlank(worker.accountedAt),
      timeToAccounted: orBlank(worker.timeToAccountedSeconds),
      never: worker.accountedAt === null ? 'yes' : 'no',
      timeToMuster: orBlank(worker.timeToMusterSeconds),
    };
    sheet.addRow(
      Object.fromEntries(Object.entries(row).map(([key, value]) => [key, neutraliseFormula(value)])),
    );
  }
  sheet.getRow(1).font = { bold: true };

  fieldSheet(workbook, 'Figures', figureRows(report));
  return Buffer.from(await workbook.xlsx.writeBuffer());
}
