import { and, eq, gte, inArray, lt, lte, type SQL, sql } from 'drizzle-orm';
import type { InventoryMeta } from '../../src/domain/floor';
import type { AnchorStatistics, DeviceCounts, InventoryStatistics } from '../../src/domain/schemas/floors';
import { isStorableInstant } from '../../src/domain/storableInstant';
import type { Db } from '../db/database';
import { floors, inventoryItems } from '../db/schema';
import { unprocessable } from '../http/errors';

/** Which devices a count covers: a floor's, a building's (through its floors) or a site's. */
export const inventoryScope = {
  floor: (floorId: number) => eq(inventoryItems.floorId, floorId),
  building: (buildingId: number) =>
    inArray(
      inventoryItems.floorId,
      sql`(select ${floors.id} from ${floors} where ${floors.buildingId} = ${buildingId})`,
    ),
  site: (siteId: number) => eq(inventoryItems.siteId, siteId),
};

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})(T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/** An ISO date or date-time, UTC unless it carries an offset; undefined when absent. */
function parseIsoDate(
  raw: string | undefined,
  field: string,
  label: string,
): { at: Date; dateOnly: boolean } | undefined {
  if (raw === undefined || raw.trim() === '') return undefined;
  const text = raw.trim();
  const match = ISO_DATE.exec(text);
  const invalid = () => unprocessable({ [field]: `${label} is invalid` });
  if (!match) throw invalid();
  const hasTime = match[4] !== undefined;
  const hasZone = match[7] !== undefined;
  const at = new Date(hasTime ? (hasZone ? text : `${text}Z`) : `${text}T00:00:00Z`);
  if (!isStorableInstant(at)) throw invalid();
  // new Date() rolls 30 February over into March; such a day does not exist.
  const day = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
  if (day.getUTCMonth() !== Number(match[2]) - 1 || day.getUTCDate() !== Number(match[3])) throw invalid();
  return { at, dateOnly: !hasTime };
}

/**
 * The last_seen window of the optional startDate and endDate: a date-only endDate covers that
 * whole day; a date-time one is inclusive.
 */
export function lastSeenWindow(query: { startDate?: string; endDate?: string }): SQL | undefined {
  const start = parseIsoDate(query.startDate, 'startDate', 'Start date');
  const end = parseIsoDate(query.endDate, 'endDate', 'End date');
  if (start && end && end.at < start.at)
    throw unprocessable({ endDate: 'End date must not be before start date' });
  const endBound = end
    ? end.dateOnly
      ? lt(inventoryItems.lastSeen, new Date(end.at.getTime() + 86_400_000))
      : lte(inventoryItems.lastSeen, end.at)
    : undefined;
  return and(start ? gte(inventoryItems.lastSeen, start.at) : undefined, endBound);
}

const count = (condition: SQL) => sql<number>`(count(*) filter (where ${condition}))::int`;
const online = sql`${inventoryItems.isOnline}`;
const active = sql`${inventoryItems.isOnline} and ${inventoryItems.isActive}`;
const inactive = sql`${inventoryItems.isOnline} and not ${inventoryItems.isActive}`;
const offline = sql`not ${inventoryItems.isOnline}`;

/**
 * Spec §3 "Asset status counts" over the helmets (worker tags) in scope. A helmet's status
 * follows spec §3: not online is offline, online and active is active, online and not active
 * is inactive, so active + inactive + offline = total.
 */
export async function inventoryMeta(db: Db, scope: SQL, window?: SQL): Promise<InventoryMeta> {
  const [row] = await db
    .select({
      totalUnassignedAssets: count(sql`${inventoryItems.workerId} is null`),
      totalActiveAssets: count(active),
      totalInActiveAssets: count(inactive),
      totalOfflineAssets: count(offline),
      totalAssets: sql<number>`count(*)::int`,
    })
    .from(inventoryItems)
    .where(and(eq(inventoryItems.type, 'helmet'), scope, window));
  return row;
}

/** Every device type in scope by status; helmets also by assignment. */
export async function inventoryStatistics(db: Db, scope: SQL): Promise<InventoryStatistics> {
  const rows = await db
    .select({
      type: inventoryItems.type,
      total: sql<number>`count(*)::int`,
      active: count(active),
      inactive: count(inactive),
      offline: count(offline),
      assigned: count(sql`${inventoryItems.workerId} is not null`),
    })
    .from(inventoryItems)
    .where(scope)
    .groupBy(inventoryItems.type);
  const of = (type: string): DeviceCounts & { assigned: number } => {
    const row = rows.find((r) => r.type === type);
    return row
      ? {
          total: row.total,
          active: row.active,
          inactive: row.inactive,
          offline: row.offline,
          assigned: row.assigned,
        }
      : { total: 0, active: 0, inactive: 0, offline: 0, assigned: 0 };
  };
  const { assigned, ...helmets } = of('helmet');
  const { assigned: _a, ...anchors } = of('anchor');
  const { assigned: _s, ...sinks } = of('sink');
  return {
    helmets: { ...helmets, assigned, unassigned: helmets.total - assigned },
    anchors,
    sinks,
    total: helmets.total + anchors.total + sinks.total,
  };
}

/** Anchors in scope: approved (placed and confirmed, spec §4) or not, online or not. */
export async function anchorStatistics(db: Db, scope: SQL): Promise<AnchorStatistics> {
  const [row] = await db
    .select({
      total: sql<number>`count(*)::int`,
      approved: count(sql`${inventoryItems.isApproved}`),
      unapproved: count(sql`not ${inventoryItems.isApproved}`),
      online: count(online),
      offline: count(offline),
    })
    .from(inventoryItems)
    .where(and(eq(inventoryItems.type, 'anchor'), scope));
  return row;
}
