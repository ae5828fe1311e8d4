import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Evacuation, EvacuationStatus, EvacuationWorker } from '../../src/domain/evacuation';
import type { EvacuationFacts, EvacuationWorkerRecord, StatusChange } from '../../src/domain/evacuationRules';
import type { WorkerOnMap } from '../../src/domain/inventory';
import type { Db } from '../db/database';
import {
  buildings,
  evacuationSessions,
  evacuationStatusEvents,
  evacuationWorkers,
  floors,
  helmetEvents,
  inventoryItems,
  networks,
  users,
  workers,
  zones,
} from '../db/schema';
import { chunks } from '../ingest/chunks';
import { selectWorkersOnMap } from '../live/workersOnMap';
import { selectIncidents } from './incidentStore';

/**
 * Everything the evacuation service stores and reads. Statuses are never computed here: the
 * service folds facts read here through src/domain/evacuationRules.ts and writes the result.
 */

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
/** The database, or a transaction of it. */
export type Executor = Db | Tx;

export type SessionRow = typeof evacuationSessions.$inferSelect;
export type NewSessionRow = typeof evacuationSessions.$inferInsert;

const ROWS_PER_INSERT = 1000;
// Incidents of a running session: those timestamped up to a day ahead (helmet clocks drift).
const ONE_DAY_MS = 24 * 3600_000;

/** A helmet of the site as the rules see it, with where it is. */
export interface HelmetFacts extends EvacuationFacts {
  inventoryItemId: number;
  /** The worker wearing it now, null for an unassigned helmet. */
  workerId: number | null;
  floorId: number | null;
}

/**
 * The helmets of a site (all, or some by inventory id) with their latest state and their first
 * acknowledge press at or after `since`.
 */
export async function readHelmetFacts(
  db: Executor,
  siteId: number,
  since: string,
  inventoryIds?: readonly number[],
): Promise<HelmetFacts[]> {
  if (inventoryIds?.length === 0) return [];
  const rows = await db
    .select({
      inventoryItemId: inventoryItems.id,
      workerId: inventoryItems.workerId,
      floorId: inventoryItems.floorId,
      zoneId: inventoryItems.zoneId,
      isOnline: inventoryItems.isOnline,
      lastSeen: inventoryItems.lastSeen,
      // Table-qualified by hand: drizzle leaves a single-table select's columns unqualified.
      acknowledgedAt: sql<string | Date | null>`(select min(pressed.ts) from ${helmetEvents} pressed
        where pressed.inventory_item_id = ${inventoryItems}."id"
          and pressed.type = 'acknowledge' and pressed.ts >= ${since}::timestamptz)`,
    })
    .from(inventoryItems)
    .where(
      and(
        eq(inventoryItems.siteId, siteId),
        eq(inventoryItems.type, 'helmet'),
        inventoryIds ? inArray(inventoryItems.id, inventoryIds as number[]) : undefined,
      ),
    )
    .orderBy(asc(inventoryItems.id));
  return rows.map((r) => ({
    inventoryItemId: r.inventoryItemId,
    workerId: r.workerId,
    floorId: r.floorId,
    zoneId: r.zoneId,
    isOnline: r.isOnline,
    lastSeen: r.lastSeen?.toISOString() ?? null,
    // A raw subquery comes back as the driver's text, not a Date.
    acknowledgedAt: r.acknowledgedAt === null ? null : new Date(r.acknowledgedAt).toISOString(),
  }));
}

/** Inserts a session, its included workers and their 'start' status events in one transaction. */
export async function createSession(
  db: Db,
  session: NewSessionRow,
  records: readonly EvacuationWorkerRecord[],
  changes: readonly StatusChange[],
): Promise<SessionRow> {
  return db.transaction(async (tx) => {
    const [row] = await tx.insert(evacuationSessions).values(session).returning();
    await insertRecords(tx, row.id, records);
    await insertStatusEvents(tx, row.id, changes);
    return row;
  });
}

/** Ends a running session; null when it was not running (ended already, by anyone). */
export async function endSession(
  db: Executor,
  sessionId: string,
  endedBy: number | null,
  endedAt: Date,
): Promise<SessionRow | null> {
  const [row] = await db
    .update(evacuationSessions)
    .set({ endedAt, endedBy })
    .where(and(eq(evacuationSessions.id, sessionId), isNull(evacuationSessions.endedAt)))
    .returning();
  return row ?? null;
}

export async function runningSession(db: Executor, siteId: number): Promise<SessionRow | null> {
  const [row] = await db
    .select()
    .from(evacuationSessions)
    .where(and(eq(evacuationSessions.siteId, siteId), isNull(evacuationSessions.endedAt)))
    .limit(1);
  return row ?? null;
}

export async function runningSessions(db: Executor): Promise<SessionRow[]> {
  return db.select().from(evacuationSessions).where(isNull(evacuationSessions.endedAt));
}

export async function sessionById(db: Executor, sessionId: string): Promise<SessionRow | null> {
  const [row] = await db.select().from(evacuationSessions).where(eq(evacuationSessions.id, sessionId));
  return row ?? null;
}

const iso = (date: Date | null) => date?.toISOString() ?? null;

function toRecord(row: typeof evacuationWorkers.$inferSelect): EvacuationWorkerRecord {
  return {
    workerId: row.workerId,
    inventoryItemId: row.inventoryItemId,
    status: row.status as EvacuationStatus,
    includedAt: row.includedAt.toISOString(),
    statusChangedAt: row.statusChangedAt.toISOString(),
    safeAt: iso(row.safeAt),
    acknowledgedAt: iso(row.acknowledgedAt),
    accountedAt: iso(row.accountedAt),
  };
}

function toRow(sessionId: string, record: EvacuationWorkerRecord): typeof evacuationWorkers.$inferInsert {
  const date = (value: string | null) => (value === null ? null : new Date(value));
  return {
    sessionId,
    workerId: record.workerId,
    inventoryItemId: record.inventoryItemId,
    status: record.status,
    includedAt: new Date(record.includedAt),
    statusChangedAt: new Date(record.statusChangedAt),
    safeAt: date(record.safeAt),
    acknowledgedAt: date(record.acknowledgedAt),
    accountedAt: date(record.accountedAt),
  };
}

/** The included workers' records (all, or those of some helmets), without locking them. */
export function readRecords(
  db: Executor,
  sessionId: string,
  inventoryIds?: readonly number[],
): Promise<EvacuationWorkerRecord[]> {
  return selectRecords(db, sessionId, inventoryIds, false);
}

/**
 * The same, locked until the transaction ends, so that two processes evaluating the same workers
 * write one after the other.
 */
export function lockRecords(
  tx: Tx,
  sessionId: string,
  inventoryIds?: readonly number[],
): Promise<EvacuationWorkerRecord[]> {
  return selectRecords(tx, sessionId, inventoryIds, true);
}

async function selectRecords(
  db: Executor,
  sessionId: string,
  inventoryIds: readonly number[] | undefined,
  lock: boolean,
): Promise<EvacuationWorkerRecord[]> {
  if (inventoryIds?.length === 0) return [];
  const query = db
    .select()
    .from(evacuationWorkers)
    .where(
      and(
        eq(evacuationWorkers.sessionId, sessionId),
        inventoryIds ? inArray(evacuationWorkers.inventoryItemId, inventoryIds as number[]) : undefined,
      ),
    )
    .orderBy(asc(evacuationWorkers.workerId));
  const rows = lock ? await query.for('update') : await query;
  return rows.map(toRecord);
}

/** Adds included workers; one already included (by another process) is left as it is. Returns who was added. */
export async function insertRecords(
  tx: Executor,
  sessionId: string,
  records: readonly EvacuationWorkerRecord[],
): Promise<Set<number>> {
  const added = new Set<number>();
  for (const slice of chunks(records, ROWS_PER_INSERT)) {
    const rows = await tx
      .insert(evacuationWorkers)
      .values(slice.map((record) => toRow(sessionId, record)))
      .onConflictDoNothing()
      .returning({ workerId: evacuationWorkers.workerId });
    for (const row of rows) added.add(row.workerId);
  }
  return added;
}

export async function updateRecords(
  tx: Executor,
  sessionId: string,
  records: readonly EvacuationWorkerRecord[],
): Promise<void> {
  for (const slice of chunks(records, ROWS_PER_INSERT))
    await tx
      .insert(evacuationWorkers)
      .values(slice.map((record) => toRow(sessionId, record)))
      .onConflictDoUpdate({
        target: [evacuationWorkers.sessionId, evacuationWorkers.workerId],
        set: {
          status: sql`excluded.status`,
          statusChangedAt: sql`excluded.status_changed_at`,
          safeAt: sql`excluded.safe_at`,
          acknowledgedAt: sql`excluded.acknowledged_at`,
          accountedAt: sql`excluded.accounted_at`,
        },
      });
}

export async function insertStatusEvents(
  tx: Executor,
  sessionId: string,
  changes: readonly StatusChange[],
): Promise<void> {
  for (const slice of chunks(changes, ROWS_PER_INSERT))
    await tx.insert(evacuationStatusEvents).values(
      slice.map((change) => ({
        sessionId,
        workerId: change.workerId,
        fromStatus: change.from,
        toStatus: change.to,
        cause: change.cause,
        at: new Date(change.at),
      })),
    );
}

export async function readStatuses(db: Executor, sessionId: string): Promise<EvacuationStatus[]> {
  const rows = await db
    .select({ status: evacuationWorkers.status })
    .from(evacuationWorkers)
    .where(eq(evacuationWorkers.sessionId, sessionId));
  return rows.map((r) => r.status as EvacuationStatus);
}

/** Included workers as the wall screen shows them: the worker on the map plus the evacuation fields. */
export async function selectEvacuationWorkers(
  db: Executor,
  records: readonly EvacuationWorkerRecord[],
): Promise<EvacuationWorker[]> {
  const onMap = await selectWorkersOnMap(db as Db, { inventoryIds: records.map((r) => r.inventoryItemId) });
  const byInventory = new Map(onMap.map((worker) => [worker.inventory_id, worker]));
  const names = await workerNames(db, records);
  return records.map((record) => {
    // A deleted helmet still counts: the worker stays on the list, with nothing known of where.
    const worker = byInventory.get(record.inventoryItemId) ?? unknownHelmet(record.inventoryItemId);
    return {
      ...worker,
      id: record.workerId,
      // The helmet may have been handed to someone else since: the record's worker is who counts.
      name: worker.id === record.workerId ? worker.name : (names.get(record.workerId) ?? worker.name),
      isSafe: record.status === 'safe',
      isWorkerAcknowledged: record.acknowledgedAt !== null,
      isIncludedEvacuation: true,
      status: record.status,
      includedAt: record.includedAt,
      statusChangedAt: record.statusChangedAt,
      safeAt: record.safeAt,
      acknowledgedAt: record.acknowledgedAt,
    };
  });
}

function unknownHelmet(inventoryId: number): WorkerOnMap {
  return {
    id: null,
    inventory_id: inventoryId,
    wnt_inventory_id: '',
    coordinates: null,
    name: null,
    worker_tag_id: null,
    contact_number: null,
    role_name: null,
    subcontractor_name: null,
    last_seen: null,
    is_online: false,
    is_active: false,
    profile_picture_path: null,
    helmet_color: null,
    zone_id: null,
    zone_name: null,
    blueprint_id: null,
    blueprint_name: null,
  };
}

async function workerNames(
  db: Executor,
  records: readonly EvacuationWorkerRecord[],
): Promise<Map<number, string>> {
  const ids = records.map((r) => r.workerId);
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ id: workers.id, name: workers.name })
    .from(workers)
    .where(inArray(workers.id, ids));
  return new Map(rows.map((r) => [r.id, r.name]));
}

const starter = alias(users, 'starter');
const ender = alias(users, 'ender');

/** The session as sent (spec §3 "Evacuation"), with who started and ended it and its incidents. */
export async function evacuationOf(db: Executor, session: SessionRow): Promise<Evacuation> {
  const [people] = await db
    .select({ starter: starter.name, ender: ender.name })
    .from(evacuationSessions)
    .leftJoin(starter, eq(starter.id, evacuationSessions.startedBy))
    .leftJoin(ender, eq(ender.id, evacuationSessions.endedBy))
    .where(eq(evacuationSessions.id, session.id));
  return evacuationWithNames(db, session, people ?? { starter: null, ender: null });
}

/** The same, when the names of who started and ended it are already at hand. */
export async function evacuationWithNames(
  db: Executor,
  session: SessionRow,
  names: { starter: string | null; ender: string | null },
): Promise<Evacuation> {
  const person = (id: number | null, name: string | null) => (id === null ? null : { id, name: name ?? '' });
  return {
    evacuationSessionId: session.id,
    siteId: session.siteId,
    evacuationStartAt: session.startedAt.toISOString(),
    floorIds: session.floorIds,
    zoneIds: session.zoneIds,
    assemblyZoneIds: session.assemblyZoneIds,
    safeZone: session.safeZoneId,
    gateWayId: session.gatewayId,
    evacuationFloorsIds: session.evacuationFloorIds,
    safetyEvents: await selectIncidents(db as Db, {
      siteId: session.siteId,
      from: session.startedAt,
      until: session.endedAt ?? new Date(Date.now() + ONE_DAY_MS),
    }),
    started: session.endedAt === null,
    endedAt: iso(session.endedAt),
    startedBy: person(session.startedBy, names.starter),
    endedBy: person(session.endedBy, names.ender),
  };
}

/** The floors among `floorIds` and the zones among `zoneIds` that belong to the site. */
export async function siteFloorsAndZones(
  db: Executor,
  siteId: number,
  floorIds: readonly number[],
  zoneIds: readonly number[],
): Promise<{ floorIds: Set<number>; zoneFloorById: Map<number, number> }> {
  const floorRows =
    floorIds.length === 0
      ? []
      : await db
          .select({ id: floors.id })
          .from(floors)
          .innerJoin(buildings, eq(buildings.id, floors.buildingId))
          .where(and(inArray(floors.id, floorIds as number[]), eq(buildings.siteId, siteId)));
  const zoneRows =
    zoneIds.length === 0
      ? []
      : await db
          .select({ id: zones.id, floorId: zones.floorId })
          .from(zones)
          .innerJoin(floors, eq(floors.id, zones.floorId))
          .innerJoin(buildings, eq(buildings.id, floors.buildingId))
          .where(and(inArray(zones.id, zoneIds as number[]), eq(buildings.siteId, siteId)));
  return {
    floorIds: new Set(floorRows.map((r) => r.id)),
    zoneFloorById: new Map(zoneRows.map((r) => [r.id, r.floorId])),
  };
}

/** Whether the network (gateway) belongs to the site. */
export async function isSiteNetwork(db: Executor, siteId: number, networkId: number): Promise<boolean> {
  const [row] = await db
    .select({ id: networks.id })
    .from(networks)
    .where(and(eq(networks.id, networkId), eq(networks.siteId, siteId)));
  return row !== undefined;
}
