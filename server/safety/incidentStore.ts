import { and, desc, eq, gte, inArray, lt, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { nextEscalationDue } from '../../src/domain/escalation';
import type { IncidentStatus, IncidentType, SafetyIncident } from '../../src/domain/incidents';
import type { Db } from '../db/database';
import {
  floors,
  incidentEvents,
  incidents,
  inventoryItems,
  users,
  workers,
  workPermits,
  zones,
} from '../db/schema';
import { escalationLevelsOf } from './safetySettings';

/** Which incidents to read: some by id, or a site's in a time window, optionally of one status. */
export type IncidentScope =
  | { ids: readonly number[] }
  | { siteId: number; from: Date; until: Date; status?: IncidentStatus };

const escalator = alias(users, 'escalator');
const acknowledger = alias(users, 'acknowledger');
const resolver = alias(users, 'resolver');

function scopeCondition(scope: IncidentScope): SQL | undefined {
  if ('ids' in scope) return inArray(incidents.id, scope.ids as number[]);
  return and(
    eq(incidents.siteId, scope.siteId),
    gte(incidents.ts, scope.from),
    lt(incidents.ts, scope.until),
    scope.status === undefined ? undefined : eq(incidents.status, scope.status),
  );
}

const person = (id: number | null, name: string | null) =>
  id === null || name === null ? null : { id, name };
const iso = (date: Date | null) => date?.toISOString() ?? null;

/**
 * Incidents as the safety screens show them (src/domain/incidents.ts), newest first, with the
 * names of the worker, floor and zone and of who escalated, acknowledged and resolved them.
 */
export async function selectIncidents(db: Db, scope: IncidentScope): Promise<SafetyIncident[]> {
  if ('ids' in scope && scope.ids.length === 0) return [];
  const rows = await db
    .select({
      id: incidents.id,
      siteId: incidents.siteId,
      type: incidents.type,
      status: incidents.status,
      ts: incidents.ts,
      workerId: incidents.workerId,
      workerName: workers.name,
      wntInventoryId: inventoryItems.wntInventoryId,
      floorId: incidents.floorId,
      floorName: floors.name,
      zoneId: incidents.zoneId,
      zoneName: zones.name,
      permitId: workPermits.id,
      permitNumber: workPermits.number,
      permitType: workPermits.type,
      escalatedAt: incidents.escalatedAt,
      escalatedById: escalator.id,
      escalatedByName: escalator.name,
      level: incidents.level,
      nextEscalationAt: incidents.nextEscalationAt,
      acknowledgedAt: incidents.acknowledgedAt,
      acknowledgedById: acknowledger.id,
      acknowledgedByName: acknowledger.name,
      resolvedAt: incidents.resolvedAt,
      resolvedById: resolver.id,
      resolvedByName: resolver.name,
    })
    .from(incidents)
    .innerJoin(inventoryItems, eq(inventoryItems.id, incidents.inventoryItemId))
    .leftJoin(workers, eq(workers.id, incidents.workerId))
    .leftJoin(floors, eq(floors.id, incidents.floorId))
    .leftJoin(zones, eq(zones.id, incidents.zoneId))
    .leftJoin(workPermits, eq(workPermits.id, incidents.workPermitId))
    .leftJoin(escalator, eq(escalator.id, incidents.escalatedBy))
    .leftJoin(acknowledger, eq(acknowledger.id, incidents.acknowledgedBy))
    .leftJoin(resolver, eq(resolver.id, incidents.resolvedBy))
    .where(scopeCondition(scope))
    .orderBy(desc(incidents.ts), desc(incidents.id));
  const levelsBySite = await escalationLevelsOf(
    db,
    rows.map((r) => r.siteId),
  );
  return rows.map((r) => ({
    id: r.id,
    siteId: r.siteId,
    type: r.type as IncidentType,
    status: r.status as IncidentStatus,
    ts: r.ts.toISOString(),
    workerId: r.workerId,
    workerName: r.workerName,
    wntInventoryId: r.wntInventoryId,
    floorId: r.floorId,
    floorName: r.floorName,
    zoneId: r.zoneId,
    zoneName: r.zoneName,
    permit:
      r.permitId === null || r.permitNumber === null || r.permitType === null
        ? null
        : { id: r.permitId, number: r.permitNumber, type: r.permitType },
    escalatedAt: iso(r.escalatedAt),
    escalatedBy: person(r.escalatedById, r.escalatedByName),
    level: r.level,
    levelCount: levelsBySite.get(r.siteId)?.length ?? 0,
    nextEscalationAt: iso(r.nextEscalationAt),
    acknowledgedAt: iso(r.acknowledgedAt),
    acknowledgedBy: person(r.acknowledgedById, r.acknowledgedByName),
    resolvedAt: iso(r.resolvedAt),
    resolvedBy: person(r.resolvedById, r.resolvedByName),
  }));
}

/** What raises an incident: where and when it happened, to whose helmet. */
export interface RaisedIncident {
  siteId: number;
  type: IncidentType;
  inventoryItemId: number;
  workerId: number | null;
  floorId: number | null;
  zoneId: number | null;
  /** When it happened (the helmet's or the evacuation's time). */
  ts: Date;
}

/**
 * Gives incidents just inserted (status open, level 0) their first escalation time and their
 * 'raised' event. The delay counts from when the server learned of the incident, not from the
 * helmet's timestamp: nobody could acknowledge it earlier (docs/decisions.md).
 */
export async function scheduleRaisedIncidents(
  tx: Db,
  siteId: number,
  incidentIds: readonly number[],
  now: Date = new Date(),
): Promise<void> {
  if (incidentIds.length === 0) return;
  const levels = (await escalationLevelsOf(tx, [siteId])).get(siteId) ?? [];
  await tx
    .update(incidents)
    .set({ nextEscalationAt: nextEscalationDue(levels, 0, now) })
    .where(inArray(incidents.id, incidentIds as number[]));
  await tx
    .insert(incidentEvents)
    .values(incidentIds.map((incidentId) => ({ incidentId, kind: 'raised', level: 0, at: now })));
}

/**
 * Raises one incident inside the caller's transaction, with its escalation schedule. Idempotent:
 * the same helmet, type and time raise nothing twice (null then).
 */
export async function raiseIncident(
  tx: Db,
  incident: RaisedIncident,
  now: Date = new Date(),
): Promise<number | null> {
  const [row] = await tx
    .insert(incidents)
    .values({ ...incident, status: 'open', level: 0 })
    .onConflictDoNothing()
    .returning({ id: incidents.id });
  if (!row) return null;
  await scheduleRaisedIncidents(tx, incident.siteId, [row.id], now);
  return row.id;
}

/** Incidents of every site due to escalate by `now`, earliest first (no lock: callers lock one by one). */
export async function dueIncidentIds(db: Db, now: Date, limit: number): Promise<number[]> {
  const rows = await db
    .select({ id: incidents.id })
    .from(incidents)
    .where(
      and(
        sql`${incidents.nextEscalationAt} <= ${now.toISOString()}::timestamptz`,
        inArray(incidents.status, ['open', 'escalated']),
      ),
    )
    .orderBy(incidents.nextEscalationAt)
    .limit(limit);
  return rows.map((row) => row.id);
}

/** When the earliest pending step is due, or null when nothing climbs. */
export async function earliestEscalationDue(db: Db): Promise<Date | null> {
  const [row] = await db
    .select({ at: sql<string | Date | null>`min(${incidents.nextEscalationAt})` })
    .from(incidents)
    .where(inArray(incidents.status, ['open', 'escalated']));
  return row?.at ? new Date(row.at) : null;
}
