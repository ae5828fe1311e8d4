import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Evacuation, EvacuationWorker, MarshalMark } from '../../src/domain/evacuation';
import type { EvacuationFacts, EvacuationWorkerRecord, StatusChange } from '../../src/domain/evacuationRules';
import type { WorkerOnMap } from '../../src/domain/inventory';
import type { Db } from '../db/database';
import type { Executor } from '../db/executor';
import {
  buildings,
  evacuationScopeEvents,
  evacuationSessions,
  floors,
  helmetEvents,
  inventoryItems,
  networks,
  sites,
  users,
  workers,
  workshifts,
  zones,
} from '../db/schema';
import { selectWorkersOnMap } from '../live/workersOnMap';
import { insertRecords, insertStatusEvents } from './evacuationRecords';
import { type AlarmDelivery, alarmDeliveries } from './helmetAlarms';
import { selectIncidents } from './incidentStore';
import { activeWorkerMarks } from './rollCall';

/**
 * The evacuation sessions and the facts the service reads about a site (helmets, floors, zones,
 * the wall's workers); the included workers' records are in evacuationRecords.ts. Statuses are
 * never computed here: the service folds facts read here through src/domain/evacuationRules.ts.
 */

export type SessionRow = typeof evacuationSessions.$inferSelect;
export type NewSessionRow = typeof evacuationSessions.$inferInsert;

// Incidents of a running session: those timestamped up to a day ahead (helmet clocks drift).
const ONE_DAY_MS = 24 * 3600_000;

/** A helmet of the site as the rules see it, with where it is. */
export interface HelmetFacts extends EvacuationFacts {
  inventoryItemId: number;
  /** The helmet's tag (wnt_inventory_id): what its alarm command is addressed to. */
  tag: string;
  /** The worker wearing it now, null for an unassigned helmet. */
  workerId: number | null;
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
      tag: inventoryItems.wntInventoryId,
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
    tag: r.tag,
    workerId: r.workerId,
    floorId: r.floorId,
    zoneId: r.zoneId,
    isOnline: r.isOnline,
    lastSeen: r.lastSeen?.toISOString() ?? null,
    // A raw subquery comes back as the driver's text, not a Date.
    acknowledgedAt: r.acknowledgedAt === null ? null : new Date(r.acknowledgedAt).toISOString(),
    // Marks are the session's, by worker: the service adds them (withMarks).
    markedAt: null,
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

/** Included workers as the wall screen shows them: the worker on the map plus the evacuation fields. */
export async function selectEvacuationWorkers(
  db: Executor,
  sessionId: string,
  records: readonly EvacuationWorkerRecord[],
  /** A session just started: no mark nor alarm exists yet, so none is looked for. */
  justStarted = false,
): Promise<EvacuationWorker[]> {
  if (records.length === 0) return [];
  const inventoryIds = records.map((r) => r.inventoryItemId);
  // A whole roll (a snapshot) reads the session's few marks and alarms at once rather than by id.
  const many = records.length > 500;
  const [onMap, marks, alarms] = await Promise.all([
    selectWorkersOnMap(db as Db, { inventoryIds }),
    justStarted
      ? new Map<number, MarshalMark>()
      : activeWorkerMarks(db, sessionId, many ? undefined : records.map((r) => r.workerId)),
    justStarted
      ? new Map<number, AlarmDelivery>()
      : alarmDeliveries(db as Db, sessionId, many ? undefined : inventoryIds),
  ]);
  const byInventory = new Map(onMap.map((worker) => [worker.inventory_id, worker]));
  // Only a helmet handed to someone else since needs its included worker's name looked up.
  const names = await workerNames(
    db,
    records.filter((r) => byInventory.get(r.inventoryItemId)?.id !== r.workerId),
  );
  return records.map((record) => {
    // A deleted helmet still counts: the worker stays on the list, with nothing known of where.
    const worker = byInventory.get(record.inventoryItemId) ?? unknownHelmet(record.inventoryItemId);
    const alarm = alarms.get(record.inventoryItemId);
    // Every field written out: an object literal spreading a 19-field row into 32 fields costs
    // V8 ~25 µs a worker (a quarter of a second for a 10,000-worker snapshot); this costs ~0.2 µs.
    return {
      id: record.workerId,
      inventory_id: worker.inventory_id,
      wnt_inventory_id: worker.wnt_inventory_id,
      coordinates: worker.coordinates,
      // The helmet may have been handed to someone else since: the record's worker is who counts.
      name: worker.id === record.workerId ? worker.name : (names.get(record.workerId) ?? worker.name),
      worker_tag_id: worker.worker_tag_id,
      contact_number: worker.contact_number,
      role_name: worker.role_name,
      subcontractor_name: worker.subcontractor_name,
      last_seen: worker.last_seen,
      is_online: worker.is_online,
      is_active: worker.is_active,
      profile_picture_path: worker.profile_picture_path,
      helmet_color: worker.helmet_color,
      zone_id: worker.zone_id,
      zone_name: worker.zone_name,
      blueprint_id: worker.blueprint_id,
      blueprint_name: worker.blueprint_name,
      isSafe: record.status === 'safe',
      isWorkerAcknowledged: record.acknowledgedAt !== null,
      isIncludedEvacuation: true,
      status: record.status,
      includedAt: record.includedAt,
      statusChangedAt: record.statusChangedAt,
      safeAt: record.safeAt,
      acknowledgedAt: record.acknowledgedAt,
      mark: marks.get(record.workerId) ?? null,
      alarmSentAt: alarm?.sentAt ?? null,
      alarmDeliveredAt: alarm?.deliveredAt ?? null,
      originFloorId: record.originFloorId,
      redirectZoneId: record.redirectZoneId,
      redirectedAt: record.redirectedAt,
    } satisfies Record<keyof EvacuationWorker, unknown>;
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
    .where(sql`${workers.id} = any(${sql.param(ids)}::int[])`);
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
    unsafeAssemblyZoneIds: await unsafeAssemblyZones(db, session.id),
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

/** The assembly zones of a session marked unsafe, in the order they were. */
export async function unsafeAssemblyZones(db: Executor, sessionId: string): Promise<number[]> {
  const rows = await db
    .select({ detail: evacuationScopeEvents.detail })
    .from(evacuationScopeEvents)
    .where(
      and(eq(evacuationScopeEvents.sessionId, sessionId), eq(evacuationScopeEvents.kind, 'assemblyUnsafe')),
    )
    .orderBy(asc(evacuationScopeEvents.id));
  return rows.map((row) => Number(row.detail.zoneId));
}

/** The workshifts of a site as the possibly-inside rule reads them, and the site's time zone. */
export async function siteShifts(db: Executor, siteId: number) {
  const [site] = await db.select({ timezone: sites.timezone }).from(sites).where(eq(sites.id, siteId));
  const shifts = await db
    .select({
      startTime: workshifts.startTime,
      endTime: workshifts.endTime,
      breaks: workshifts.breaks,
      nonWorkingDays: workshifts.nonWorkingDays,
    })
    .from(workshifts)
    .where(eq(workshifts.siteId, siteId));
  return { timeZone: site?.timezone ?? 'UTC', shifts };
}
