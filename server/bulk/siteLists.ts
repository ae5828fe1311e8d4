import { asc, eq, sql } from 'drizzle-orm';
import { nameKey } from '../../src/domain/bulkCells';
import type { BulkKindDefinition, BulkListSource } from '../../src/domain/bulkKinds';
import type { Db } from '../db/database';
import {
  activityCodes,
  buildings,
  crews,
  floors,
  locationGroups,
  type sites,
  subcontractors,
  workerRoles,
  workerStatuses,
  workers,
  workshifts,
  zones,
} from '../db/schema';
import { selectCrewManagerUsers } from '../workforce/crewManagerUsers';
import { ensureWorkerStatuses } from './workerStatuses';

type SiteRow = typeof sites.$inferSelect;

/** The allowed values of one list column: what the template offers and what a cell may name. */
export interface SiteList {
  /** The values as the template's drop-down shows them, in order. */
  labels: string[];
  /** nameKey(value) → row id. */
  ids: Map<string, number>;
}

/** A site's rows an upload's cells may name, loaded once per upload (and again at commit). */
export interface SiteLists {
  lists: Partial<Record<BulkListSource, SiteList>>;
  /** nameKey(worker tag id) → worker id; only for kinds with a worker column. */
  workersByTag: Map<string, number>;
}

const toList = (rows: { id: number; label: string }[]): SiteList => {
  const ids = new Map<string, number>();
  for (const row of rows) if (!ids.has(nameKey(row.label))) ids.set(nameKey(row.label), row.id);
  return { labels: rows.map((row) => row.label), ids };
};

/** "North Block / Level 1 / Core": how a zone is named in a sheet, since zone names repeat per floor. */
export const zonePath = (building: string, floor: string, zone: string) => `${building} / ${floor} / ${zone}`;

async function loadList(db: Db, site: SiteRow, source: BulkListSource): Promise<SiteList> {
  const named = async (
    table: typeof workerRoles | typeof subcontractors | typeof crews | typeof workshifts,
  ) =>
    toList(
      await db
        .select({ id: table.id, label: table.name })
        .from(table)
        .where(eq(table.siteId, site.id))
        .orderBy(sql`lower(${table.name})`, asc(table.id)),
    );
  switch (source) {
    case 'workerRoles':
      return named(workerRoles);
    case 'subcontractors':
      return named(subcontractors);
    case 'crews':
      return named(crews);
    case 'workshifts':
      return named(workshifts);
    case 'locationGroups':
    case 'workerStatuses': {
      if (source === 'workerStatuses') await ensureWorkerStatuses(db, site.id);
      const table = source === 'locationGroups' ? locationGroups : workerStatuses;
      return toList(
        await db
          .select({ id: table.id, label: table.name })
          .from(table)
          .where(eq(table.siteId, site.id))
          .orderBy(sql`lower(${table.name})`, asc(table.id)),
      );
    }
    case 'activityCodes':
      return toList(
        await db
          .select({ id: activityCodes.id, label: activityCodes.code })
          .from(activityCodes)
          .where(eq(activityCodes.siteId, site.id))
          .orderBy(sql`lower(${activityCodes.code})`),
      );
    case 'zones': {
      const rows = await db
        .select({ id: zones.id, building: buildings.name, floor: floors.name, zone: zones.name })
        .from(zones)
        .innerJoin(floors, eq(floors.id, zones.floorId))
        .innerJoin(buildings, eq(buildings.id, floors.buildingId))
        .where(eq(buildings.siteId, site.id))
        .orderBy(asc(buildings.name), asc(floors.name), asc(zones.name), asc(zones.id));
      const list = toList(
        rows.map((row) => ({ id: row.id, label: zonePath(row.building, row.floor, row.zone) })),
      );
      // A zone name found on one floor only may be written alone.
      const byName = new Map<string, number[]>();
      for (const row of rows)
        byName.set(nameKey(row.zone), [...(byName.get(nameKey(row.zone)) ?? []), row.id]);
      for (const [name, ids] of byName)
        if (ids.length === 1 && !list.ids.has(name)) list.ids.set(name, ids[0]);
      return list;
    }
    case 'crewManagerUsers':
      return toList(
        (await selectCrewManagerUsers(db, site)).map((user) => ({ id: user.id, label: user.email })),
      );
    case 'yesNo':
      return { labels: ['Yes', 'No'], ids: new Map() };
  }
}

export async function loadSiteLists(
  db: Db,
  site: SiteRow,
  definition: BulkKindDefinition,
): Promise<SiteLists> {
  const lists: SiteLists['lists'] = {};
  for (const column of definition.columns) {
    if (column.list && !lists[column.list]) lists[column.list] = await loadList(db, site, column.list);
  }
  const workersByTag = new Map<string, number>();
  if (definition.columns.some((column) => column.type === 'worker')) {
    const rows = await db
      .select({ id: workers.id, tag: workers.workerTagId })
      .from(workers)
      .where(eq(workers.siteId, site.id))
      .orderBy(asc(workers.id));
    for (const row of rows)
      if (row.tag && !workersByTag.has(nameKey(row.tag))) workersByTag.set(nameKey(row.tag), row.id);
  }
  return { lists, workersByTag };
}
