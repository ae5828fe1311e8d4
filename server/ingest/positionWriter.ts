import { sql } from 'drizzle-orm';
import type { Rejection } from '../../src/domain/ingestValidation';
import type { PositionMessage } from '../../src/domain/live';
import { addRollups, rollupsOf, type StoredPosition } from '../analytics/rollupWriter';
import type { Db } from '../db/database';
import { incidents, inventoryItems, positions, zoneEvents, zones } from '../db/schema';
import { type HelmetMove, raisePermitAreaIncidents } from '../permits/permitAreaIncidents';
import { scheduleRaisedIncidents } from '../safety/incidentStore';
import { chunks } from './chunks';
import { floorGeometryCacheFor } from './floorGeometry';
import { helmetsByTag, type TaggedHelmet } from './helmetsByTag';
import { refuseBeyondRetention, writeIntoDays } from './retainedDays';

export interface PositionWriteResult {
  /** Entries dropped against the database: beyondRetention, unknownTag, unknownFloor. */
  rejections: Rejection[];
  /** Entries that passed every check (a redelivered one counts: it is stored, once). */
  accepted: number;
  /** Helmets whose live state (position, floor, zone, flags) moved forward in this call. */
  changedInventoryIds: number[];
  /** For each changed helmet, the floor it was on before the call. */
  previousFloorById: Map<number, number | null>;
  /** Incidents raised by this write (entering a restricted zone or an active hot-work permit's area). */
  incidentIds: number[];
}

/** A helmet's live state as locked at the start of the call and advanced message by message. */
interface HelmetState extends TaggedHelmet {
  changed: boolean;
}

type PositionRow = typeof positions.$inferInsert;
type ZoneEventRow = typeof zoneEvents.$inferInsert;

export interface PositionWriteOptions {
  /**
   * Write the rollups (presence_cell_minutes, presence_minutes) in the same transaction: always,
   * except in the ingest benchmark, which measures what they cost.
   */
  rollups?: boolean;
  /** The clock the retention is judged by (tests). */
  nowMs?: number;
}

/** Rows per statement: zone events go in as VALUES lists (8 parameters a row, far below PostgreSQL's 65,535); positions and state as arrays, in the same slices. */
const ROWS_PER_INSERT = 1000;

/**
 * Stores a batch of one site's helmet positions in ONE transaction: the time series row of every
 * known entry (a redelivered message inserts nothing), the helmets' live state, and zone entries
 * and exits. Live state only moves forward: an entry older than the helmet's last_seen is kept in
 * the history but changes nothing else, so a late or redelivered message never regresses a
 * marker. The helmets' rows are locked (FOR UPDATE, in id order) for the transaction, so two
 * ingest processes sharing a subscription agree on each helmet's previous zone.
 *
 * Positions before the retention's cutoff are refused (beyondRetention); the partitions of the
 * other entries' days are created first when missing. The rollups are added in the same
 * transaction from the rows its INSERT returned, so a redelivery or a retried batch after a
 * crash counts each position once (server/analytics/rollupWriter.ts).
 */
export async function writePositions(
  db: Db,
  siteId: number,
  messages: readonly PositionMessage[],
  options: PositionWriteOptions = {},
): Promise<PositionWriteResult> {
  const { kept, refused } = refuseBeyondRetention(db, messages, options.nowMs);
  if (kept.length === 0)
    return {
      rejections: refused,
      accepted: 0,
      changedInventoryIds: [],
      previousFloorById: new Map(),
      incidentIds: [],
    };
  return writeIntoDays(db, 'positions', kept, () =>
    writeInTransaction(db, siteId, kept, refused, options.rollups ?? true),
  );
}

async function writeInTransaction(
  db: Db,
  siteId: number,
  messages: readonly PositionMessage[],
  early: readonly Rejection[],
  rollups: boolean,
): Promise<PositionWriteResult> {
  const rejections: Rejection[] = [...early];
  const cache = floorGeometryCacheFor(db);

  return db.transaction(async (tx) => {
    const tagged = await helmetsByTag(
      tx,
      siteId,
      messages.map((m) => m.tag),
      { lock: true },
    );
    const helmets = new Map<string, HelmetState>(
      [...tagged].map(([tag, helmet]) => [tag, { ...helmet, changed: false }]),
    );
    const previousFloor = new Map([...tagged.values()].map((h) => [h.id, h.floorId]));
    const floorIds = [...new Set(messages.map((m) => m.floorId))];
    const floorsOfSite = await cache.floorsOfSite(tx, siteId, floorIds);

    // Stable sort: entries of one helmet are applied in ts order, ties in arrival order.
    const known: { message: PositionMessage; helmet: HelmetState; ms: number }[] = [];
    for (const message of messages) {
      const helmet = helmets.get(message.tag);
      if (!helmet) rejections.push({ reason: 'unknownTag', entry: message });
      else if (!floorsOfSite.has(message.floorId))
        rejections.push({ reason: 'unknownFloor', entry: message });
      else known.push({ message, helmet, ms: Date.parse(message.ts) });
    }
    known.sort((a, b) => a.ms - b.ms);

    const positionRows: PositionRow[] = [];
    const eventRows: ZoneEventRow[] = [];
    const moves: HelmetMove[] = [];
    for (const { message, helmet, ms } of known) {
      const zoneId = floorsOfSite.get(message.floorId)?.zoneAt(message.lat, message.long) ?? null;
      const ts = new Date(ms);
      positionRows.push({
        siteId,
        inventoryItemId: helmet.id,
        workerId: helmet.workerId,
        floorId: message.floorId,
        zoneId,
        lat: message.lat,
        long: message.long,
        isOnline: message.online,
        isActive: message.active,
        ts,
      });
      if (helmet.lastSeen !== null && ms <= helmet.lastSeen.getTime()) continue;
      if (zoneId !== helmet.zoneId) {
        const common = { siteId, inventoryItemId: helmet.id, workerId: helmet.workerId, ts };
        if (helmet.zoneId !== null)
          eventRows.push({ ...common, floorId: helmet.floorId, zoneId: helmet.zoneId, kind: 'exit' });
        if (zoneId !== null) eventRows.push({ ...common, floorId: message.floorId, zoneId, kind: 'enter' });
      }
      moves.push({
        inventoryItemId: helmet.id,
        workerId: helmet.workerId,
        previous:
          helmet.floorId !== null && helmet.lat !== null && helmet.long !== null
            ? { floorId: helmet.floorId, point: [helmet.long, helmet.lat] }
            : null,
        floorId: message.floorId,
        point: [message.long, message.lat],
        ts,
      });
      Object.assign(helmet, {
        floorId: message.floorId,
        zoneId,
        lat: message.lat,
        long: message.long,
        isOnline: message.online,
        isActive: message.active,
        lastSeen: ts,
        lastActiveAt: message.active ? ts : helmet.lastActiveAt,
        changed: true,
      });
    }

    const inserted: StoredPosition[] = [];
    for (const rows of chunks(positionRows, ROWS_PER_INSERT))
      inserted.push(...(await insertPositions(tx, rows, rollups)));
    // Only the rows this transaction inserted: a redelivered position adds nothing.
    if (rollups)
      await addRollups(
        tx,
        rollupsOf(inserted, (floorId, lat, long) => floorsOfSite.get(floorId)?.cellOf(lat, long) ?? null),
      );
    for (const rows of chunks(eventRows, ROWS_PER_INSERT))
      await tx.insert(zoneEvents).values(rows).onConflictDoNothing();
    const incidentIds = await raiseRestrictedZoneIncidents(
      tx,
      siteId,
      eventRows.filter((row) => row.kind === 'enter'),
    );
    incidentIds.push(...(await raisePermitAreaIncidents(tx, siteId, moves)));
    const changed = [...helmets.values()].filter((h) => h.changed);
    for (const rows of chunks(changed, ROWS_PER_INSERT)) await updateLiveState(tx, rows);

    return {
      rejections,
      accepted: known.length,
      changedInventoryIds: changed.map((h) => h.id),
      previousFloorById: new Map(changed.map((h) => [h.id, previousFloor.get(h.id) ?? null])),
      incidentIds,
    };
  });
}

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

/**
 * Rows go in as one array per column through `unnest`: ten parameters instead of ten per row,
 * which PostgreSQL parses and plans far faster than a 10,000-parameter VALUES list.
 */
async function insertPositions(
  tx: Tx,
  rows: readonly PositionRow[],
  returning: boolean,
): Promise<StoredPosition[]> {
  const result = await tx.execute(sql`
    insert into ${positions}
      (site_id, inventory_item_id, worker_id, floor_id, zone_id, lat, long, is_online, is_active, ts)
    select * from unnest(
      ${sql.param(rows.map((r) => r.siteId))}::int[], ${sql.param(rows.map((r) => r.inventoryItemId))}::int[],
      ${sql.param(rows.map((r) => r.workerId ?? null))}::int[], ${sql.param(rows.map((r) => r.floorId ?? null))}::int[],
      ${sql.param(rows.map((r) => r.zoneId ?? null))}::int[], ${sql.param(rows.map((r) => r.lat))}::float8[],
      ${sql.param(rows.map((r) => r.long))}::float8[], ${sql.param(rows.map((r) => r.isOnline))}::boolean[],
      ${sql.param(rows.map((r) => r.isActive))}::boolean[], ${sql.param(rows.map((r) => r.ts.toISOString()))}::timestamptz[])
    on conflict do nothing
    ${returning ? sql`returning worker_id as "workerId", floor_id as "floorId", zone_id as "zoneId", lat, long, date_part('epoch', ts) * 1000 as ms` : sql``}`);
  if (!returning) return [];
  // date_part is float8 (cheap, unlike numeric `extract`); positions are stored to the millisecond.
  const stored = (result as unknown as { rows: Omit<StoredPosition, 'siteId'>[] }).rows;
  return stored.map((row) => ({ ...row, siteId: rows[0].siteId, ms: Math.round(row.ms) }));
}

/**
 * Entries into a restricted zone raise an incident: one INSERT … SELECT over the batch's entries
 * that keeps those whose zone is restricted, so the batch pays one statement whatever its size.
 * A redelivered entry (same helmet and ts) raises nothing twice.
 */
async function raiseRestrictedZoneIncidents(
  tx: Tx,
  siteId: number,
  entries: readonly ZoneEventRow[],
): Promise<number[]> {
  if (entries.length === 0) return [];
  const result = await tx.execute(sql`
    insert into ${incidents} (site_id, type, inventory_item_id, worker_id, floor_id, zone_id, ts)
    select ${siteId}::int, 'restrictedZone', v.inventory_item_id, v.worker_id, v.floor_id, v.zone_id, v.ts
    from unnest(
      ${sql.param(entries.map((e) => e.inventoryItemId))}::int[], ${sql.param(entries.map((e) => e.workerId ?? null))}::int[],
      ${sql.param(entries.map((e) => e.floorId ?? null))}::int[], ${sql.param(entries.map((e) => e.zoneId))}::int[],
      ${sql.param(entries.map((e) => (e.ts as Date).toISOString()))}::timestamptz[]
    ) as v(inventory_item_id, worker_id, floor_id, zone_id, ts)
    join ${zones} as z on z.id = v.zone_id and z.kind = 'restricted'
    on conflict do nothing
    returning id`);
  // Both drivers (pg, PGlite) answer raw SQL with `{ rows }`.
  const ids = (result as unknown as { rows: { id: number }[] }).rows.map((row) => Number(row.id));
  await scheduleRaisedIncidents(tx, siteId, ids);
  return ids;
}

/** One UPDATE … FROM unnest(…) for all changed helmets of the batch. */
async function updateLiveState(tx: Tx, helmets: readonly HelmetState[]): Promise<void> {
  if (helmets.length === 0) return;
  await tx.execute(sql`
    update ${inventoryItems} as i set
      floor_id = v.floor_id, zone_id = v.zone_id, lat = v.lat, long = v.long,
      is_online = v.is_online, is_active = v.is_active,
      last_seen = v.last_seen, last_active_at = v.last_active_at
    from unnest(
      ${sql.param(helmets.map((h) => h.id))}::int[], ${sql.param(helmets.map((h) => h.floorId))}::int[],
      ${sql.param(helmets.map((h) => h.zoneId))}::int[], ${sql.param(helmets.map((h) => h.lat))}::float8[],
      ${sql.param(helmets.map((h) => h.long))}::float8[], ${sql.param(helmets.map((h) => h.isOnline))}::boolean[],
      ${sql.param(helmets.map((h) => h.isActive))}::boolean[],
      ${sql.param(helmets.map((h) => h.lastSeen?.toISOString() ?? null))}::timestamptz[],
      ${sql.param(helmets.map((h) => h.lastActiveAt?.toISOString() ?? null))}::timestamptz[]
    ) as v(id, floor_id, zone_id, lat, long, is_online, is_active, last_seen, last_active_at)
    where i.id = v.id`);
}
