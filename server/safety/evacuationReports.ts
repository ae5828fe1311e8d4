import { and, asc, desc, eq, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import ExcelJS from 'exceljs';
import type { Evacuation, EvacuationStatus } from '../../src/domain/evacuation';
import {
  buildEvacuationReport,
  type EvacuationReport,
  type EvacuationSessionSummary,
  type ReportWorkerIdentity,
} from '../../src/domain/evacuationReport';
import { countEvacuation, type StatusCause } from '../../src/domain/evacuationRules';
import type { Principal } from '../auth/principal';
import { visibleSitesWhere } from '../auth/tenancy';
import type { Db } from '../db/database';
import {
  evacuationSessions,
  evacuationStatusEvents,
  evacuationWorkers,
  inventoryItems,
  sites,
  users,
  workers,
} from '../db/schema';
import { notFound } from '../http/errors';
import { toRecord } from './evacuationRecords';
import { evacuationWithNames } from './evacuationStore';

const starter = alias(users, 'starter');
const ender = alias(users, 'ender');

const sessionColumns = {
  session: evacuationSessions,
  siteName: sites.name,
  startedById: starter.id,
  startedByName: starter.name,
  endedById: ender.id,
  endedByName: ender.name,
};

type SessionRow = {
  session: typeof evacuationSessions.$inferSelect;
  siteName: string;
  startedById: number | null;
  startedByName: string | null;
  endedById: number | null;
  endedByName: string | null;
};

/** A session and the name of its site. */
export interface StoredEvacuation {
  evacuation: Evacuation;
  siteName: string;
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
  return { evacuation: await toEvacuation(db, row), siteName: row.siteName };
}

/** Past and running sessions of a site, newest first, with their counters. */
export async function listEvacuations(db: Db, siteId: number): Promise<EvacuationSessionSummary[]> {
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
  return buildEvacuationReport(evacuation, records, events, identities);
}

const orBlank = <T>(value: T | null) => value ?? '';

/** The report as an .xlsx workbook: a Summary sheet and a Workers sheet; times are ISO-8601 UTC. */
export async function evacuationReportWorkbook(report: EvacuationReport, siteName: string): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  workbook.creator = 'Sitewatch';
  const summary = workbook.addWorksheet('Summary');
  summary.columns = [
    { header: 'Field', key: 'field', width: 36 },
    { header: 'Value', key: 'value', width: 40 },
  ];
  const counts = report.countsAtEnd;
  const summaryRows: [string, string | number][] = [
    ['Site', siteName],
    ['Evacuation session', report.evacuationSessionId],
    ['Started at', report.startedAt],
    ['Ended at', orBlank(report.endedAt)],
    ['Duration (s)', orBlank(report.durationSeconds)],
    ['Started by', orBlank(report.startedBy)],
    ['Ended by', orBlank(report.endedBy)],
    ['Workers included', counts.included],
    ['Safe', counts.safe],
    ['Manual acknowledge', counts.manualAcknowledge],
    ['Auto acknowledge', counts.autoAcknowledge],
    ['Offline', counts.offline],
    ['Still inside', counts.stillInside],
    ['Everyone accounted for at', orBlank(report.allAccountedAt)],
    ['Time until everyone was accounted for (s)', orBlank(report.timeUntilAllAccountedSeconds)],
    ['Never accounted for', report.neverAccounted.length],
  ];
  for (const [field, value] of summaryRows) summary.addRow({ field, value });
  summary.getRow(1).font = { bold: true };

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
  ];
  for (const worker of report.workers) {
    sheet.addRow({
      name: worker.name ?? `Worker ${worker.workerId}`,
      helmet: orBlank(worker.wntInventoryId),
      includedAt: worker.includedAt,
      status: worker.finalStatus,
      safeAt: orBlank(worker.safeAt),
      timeToSafety: orBlank(worker.timeToSafetySeconds),
      acknowledgedAt: orBlank(worker.acknowledgedAt),
      accountedAt: orBlank(worker.accountedAt),
      timeToAccounted: orBlank(worker.timeToAccountedSeconds),
      never: worker.accountedAt === null ? 'yes' : 'no',
    });
  }
  sheet.getRow(1).font = { bold: true };
  return Buffer.from(await workbook.xlsx.writeBuffer());
}
