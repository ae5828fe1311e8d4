import { and, desc, eq, gte, inArray, lt, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { IncidentStatus, IncidentType, SafetyIncident } from '../../src/domain/incidents';
import type { Db } from '../db/database';
import { floors, incidents, inventoryItems, users, workers, zones } from '../db/schema';

/** Which incidents to read: some by id, or a site's in a time window, optionally of one status. */
export type IncidentScope =
  | { ids: readonly number[] }
  | { siteId: number; from: Date; until: Date; status?: IncidentStatus };

const escalator = alias(users, 'escalator');

function scopeCondition(scope: IncidentScope): SQL | undefined {
  if ('ids' in scope) return inArray(incidents.id, scope.ids as number[]);
  return and(
    eq(incidents.siteId, scope.siteId),
    gte(incidents.ts, scope.from),
    lt(incidents.ts, scope.until),
    scope.status === undefined ? undefined : eq(incidents.status, scope.status),
  );
}

/**
 * Incidents as the safety screens show them (src/domain/incidents.ts), newest first, with the
 * names of the worker, floor and zone and of who escalated; one query.
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
      escalatedAt: incidents.escalatedAt,
      escalatedById: escalator.id,
      escalatedByName: escalator.name,
    })
    .from(incidents)
    .innerJoin(inventoryItems, eq(inventoryItems.id, incidents.inventoryItemId))
    .leftJoin(workers, eq(workers.id, incidents.workerId))
    .leftJoin(floors, eq(floors.id, incidents.floorId))
    .leftJoin(zones, eq(zones.id, incidents.zoneId))
    .leftJoin(escalator, eq(escalator.id, incidents.escalatedBy))
    .where(scopeCondition(scope))
    .orderBy(desc(incidents.ts), desc(incidents.id));
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
    escalatedAt: r.escalatedAt?.toISOString() ?? null,
    escalatedBy:
      r.escalatedById === null || r.escalatedByName === null
        ? null
        : { id: r.escalatedById, name: r.escalatedByName },
  }));
}
