import { and, asc, desc, eq, inArray, notExists, type SQL, sql } from 'drizzle-orm';
import { ELECTRICAL_ROOM_STEPS } from '../../src/domain/electricalRoomChecklist';
import { gatewayConnection, latestReport, sinkStatus } from '../../src/domain/electricalRoomStatus';
import type {
  ElectricalRoom,
  ElectricalRoomDevice,
  ElectricalRoomStepState,
  SiteElectricalRooms,
} from '../../src/domain/schemas/electricalRooms';
import type { Principal } from '../auth/principal';
import { visibleSitesWhere } from '../auth/tenancy';
import type { Db } from '../db/database';
import {
  buildings,
  electricalRoomDevices,
  electricalRoomSteps,
  electricalRooms,
  floors,
  inventoryItems,
  networks,
  sites,
  users,
} from '../db/schema';
import { notFound } from '../http/errors';
import { nodesAt } from '../nodes/nodeQueries';
import { msOf } from '../nodes/nodeReadings';

type RoomRow = typeof electricalRooms.$inferSelect;

/** A room the caller may see, with its building's site; anything else is 404 like an unknown id. */
export async function requireElectricalRoom(db: Db, principal: Principal, roomId: number) {
  const [row] = await db
    .select({ room: electricalRooms, siteId: sites.id })
    .from(electricalRooms)
    .innerJoin(buildings, eq(buildings.id, electricalRooms.buildingId))
    .innerJoin(sites, eq(sites.id, buildings.siteId))
    .where(and(eq(electricalRooms.id, roomId), visibleSitesWhere(principal)))
    .limit(1);
  if (!row) throw notFound('Electrical room');
  return { ...row.room, siteId: row.siteId };
}

const iso = (value: Date | string) => new Date(value).toISOString();

/** What the site's nodes last reported, as the statuses read it. */
interface NodeReports {
  /** Inventory id → the latest report (time and supply voltage). */
  byItem: Map<number, { tsMs: number; voltage: number | null }>;
  /** Network id → the latest report of any node of it. */
  byNetwork: Map<number, number>;
}

async function nodeReports(db: Db, siteId: number, nowMs: number): Promise<NodeReports> {
  const records = await nodesAt(db, { siteId }, nowMs);
  const byItem: NodeReports['byItem'] = new Map();
  const byNetwork: NodeReports['byNetwork'] = new Map();
  for (const record of records) {
    if (record.s === null) continue;
    const tsMs = msOf(record.s);
    byItem.set(Number(record.id), { tsMs, voltage: record.v === null ? null : Number(record.v) });
    if (record.network_id !== null) {
      const networkId = Number(record.network_id);
      byNetwork.set(networkId, latestReport([byNetwork.get(networkId) ?? null, tsMs]) ?? tsMs);
    }
  }
  return { byItem, byNetwork };
}

export interface StatusContext {
  nowMs: number;
  /** NETWORK_SILENCE in seconds. */
  silenceSeconds: number;
}

/**
 * The site's buildings (by name), each with its rooms (by name), each room's devices with their
 * power and connection at `nowMs`, its checklist in order with who ticked each step and when, and
 * the site's sinks and networks no room holds.
 */
export async function siteElectricalRooms(
  db: Db,
  siteId: number,
  context: StatusContext,
): Promise<SiteElectricalRooms> {
  const buildingRows = await db
    .select({ id: buildings.id, name: buildings.name })
    .from(buildings)
    .where(eq(buildings.siteId, siteId))
    .orderBy(sql`lower(${buildings.name})`, asc(buildings.id));
  const rooms = await roomsWhere(
    db,
    inArray(
      electricalRooms.buildingId,
      sql`(select ${buildings.id} from ${buildings} where ${buildings.siteId} = ${siteId})`,
    ),
    siteId,
    context,
  );
  const floorRows = await db
    .select({ id: floors.id, name: floors.name, buildingId: floors.buildingId })
    .from(floors)
    .where(
      inArray(
        floors.buildingId,
        sql`(select ${buildings.id} from ${buildings} where ${buildings.siteId} = ${siteId})`,
      ),
    )
    .orderBy(desc(floors.altitude), asc(floors.id));
  const [freeSinks, freeNetworks] = await Promise.all([
    db
      .select({ id: inventoryItems.id, name: inventoryItems.wntInventoryId })
      .from(inventoryItems)
      .where(
        and(
          eq(inventoryItems.siteId, siteId),
          eq(inventoryItems.type, 'sink'),
          notExists(
            db
              .select({ id: electricalRoomDevices.id })
              .from(electricalRoomDevices)
              .where(eq(electricalRoomDevices.inventoryItemId, inventoryItems.id)),
          ),
        ),
      )
      .orderBy(asc(inventoryItems.wntInventoryId), asc(inventoryItems.id)),
    db
      .select({ id: networks.id, name: networks.name })
      .from(networks)
      .where(
        and(
          eq(networks.siteId, siteId),
          notExists(
            db
              .select({ id: electricalRoomDevices.id })
              .from(electricalRoomDevices)
              .where(eq(electricalRoomDevices.networkId, networks.id)),
          ),
        ),
      )
      .orderBy(sql`lower(${networks.name})`, asc(networks.id)),
  ]);
  return {
    site_id: siteId,
    checked_at: new Date(context.nowMs).toISOString(),
    network_silence_seconds: context.silenceSeconds,
    buildings: buildingRows.map((building) => ({
      ...building,
      floors: floorRows
        .filter((floor) => floor.buildingId === building.id)
        .map((floor) => ({ id: floor.id, name: floor.name })),
      rooms: rooms.filter((room) => room.building_id === building.id),
    })),
    available: { sinks: freeSinks, networks: freeNetworks },
  };
}

/** One room as the replies show it. */
export async function electricalRoomReply(
  db: Db,
  room: { id: number; siteId: number },
  context: StatusContext,
): Promise<ElectricalRoom> {
  const [reply] = await roomsWhere(db, eq(electricalRooms.id, room.id), room.siteId, context);
  if (!reply) throw notFound('Electrical room');
  return reply;
}

async function roomsWhere(
  db: Db,
  where: SQL,
  siteId: number,
  context: StatusContext,
): Promise<ElectricalRoom[]> {
  const roomRows = await db
    .select({ room: electricalRooms, floorName: floors.name })
    .from(electricalRooms)
    .leftJoin(floors, eq(floors.id, electricalRooms.floorId))
    .where(where)
    .orderBy(sql`lower(${electricalRooms.name})`, asc(electricalRooms.id));
  if (roomRows.length === 0) return [];
  const roomIds = roomRows.map(({ room }) => room.id);
  const [deviceRows, stepRows, reports] = await Promise.all([
    db
      .select({
        id: electricalRoomDevices.id,
        roomId: electricalRoomDevices.roomId,
        inventoryId: electricalRoomDevices.inventoryItemId,
        networkId: electricalRoomDevices.networkId,
        sinkName: inventoryItems.wntInventoryId,
        networkName: networks.name,
      })
      .from(electricalRoomDevices)
      .leftJoin(inventoryItems, eq(inventoryItems.id, electricalRoomDevices.inventoryItemId))
      .leftJoin(networks, eq(networks.id, electricalRoomDevices.networkId))
      .where(inArray(electricalRoomDevices.roomId, roomIds))
      // Gateways first (the room's uplink), then sinks, each by name.
      .orderBy(
        sql`${electricalRoomDevices.networkId} is null`,
        sql`lower(coalesce(${networks.name}, ${inventoryItems.wntInventoryId}))`,
        asc(electricalRoomDevices.id),
      ),
    db
      .select({
        roomId: electricalRoomSteps.roomId,
        step: electricalRoomSteps.step,
        completedAt: electricalRoomSteps.completedAt,
        userId: users.id,
        userName: users.name,
      })
      .from(electricalRoomSteps)
      .leftJoin(users, eq(users.id, electricalRoomSteps.completedBy))
      .where(inArray(electricalRoomSteps.roomId, roomIds)),
    nodeReports(db, siteId, context.nowMs),
  ]);
  return roomRows.map(({ room, floorName }) =>
    toRoom(
      room,
      floorName,
      deviceRows
        .filter((device) => device.roomId === room.id)
        .map((device) => toDevice(device, reports, context)),
      stepRows.filter((step) => step.roomId === room.id),
    ),
  );
}

function toDevice(
  device: {
    id: number;
    inventoryId: number | null;
    networkId: number | null;
    sinkName: string | null;
    networkName: string | null;
  },
  reports: NodeReports,
  context: StatusContext,
): ElectricalRoomDevice {
  if (device.networkId !== null) {
    const lastHeard = reports.byNetwork.get(device.networkId) ?? null;
    return {
      id: device.id,
      kind: 'gateway',
      network_id: device.networkId,
      name: device.networkName ?? '',
      last_report_at: lastHeard === null ? null : iso(new Date(lastHeard)),
      connection: gatewayConnection(lastHeard, context.nowMs, context.silenceSeconds),
    };
  }
  const inventoryId = device.inventoryId ?? 0;
  const report = reports.byItem.get(inventoryId) ?? null;
  const status = sinkStatus(report && { tsMs: report.tsMs, supplyVoltage: report.voltage }, context.nowMs);
  return {
    id: device.id,
    kind: 'sink',
    inventory_id: inventoryId,
    name: device.sinkName ?? '',
    last_report_at: report === null ? null : iso(new Date(report.tsMs)),
    supply_voltage: report?.voltage ?? null,
    power: status.power,
    connection: status.connection,
  };
}

function toRoom(
  room: RoomRow,
  floorName: string | null,
  devices: ElectricalRoomDevice[],
  steps: { step: string; completedAt: Date | string; userId: number | null; userName: string | null }[],
): ElectricalRoom {
  const byStep = new Map(steps.map((step) => [step.step, step]));
  return {
    id: room.id,
    building_id: room.buildingId,
    floor_id: room.floorId,
    floor_name: room.floorId === null ? null : floorName,
    name: room.name,
    devices,
    steps: ELECTRICAL_ROOM_STEPS.map((key): ElectricalRoomStepState => {
      const done = byStep.get(key);
      return {
        step: key,
        done: done !== undefined,
        completed_by:
          done?.userId != null && done.userName !== null ? { id: done.userId, name: done.userName } : null,
        completed_at: done ? iso(done.completedAt) : null,
      };
    }),
    created_at: iso(room.createdAt),
    updated_at: iso(room.updatedAt),
  };
}

/** Whether another room of the building already has the name (case-insensitive). */
export async function roomNameTaken(db: Db, buildingId: number, name: string, exceptId?: number) {
  const [row] = await db
    .select({ id: electricalRooms.id })
    .from(electricalRooms)
    .where(
      and(
        eq(electricalRooms.buildingId, buildingId),
        sql`lower(${electricalRooms.name}) = lower(${name})`,
        exceptId === undefined ? undefined : sql`${electricalRooms.id} <> ${exceptId}`,
      ),
    )
    .limit(1);
  return row !== undefined;
}
