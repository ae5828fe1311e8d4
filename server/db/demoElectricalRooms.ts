import { and, asc, eq, inArray } from 'drizzle-orm';
import { ELECTRICAL_ROOM_STEPS } from '../../src/domain/electricalRoomChecklist';
import type { Db } from './database';
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
} from './schema';

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

const MINUTE_MS = 60_000;
/** How many checklist steps the demo site engineer has done per building, in building order. */
const STEPS_DONE = [5, 2];

/**
 * The demo's electrical rooms (issue 19): one per building, on its ground floor, holding the
 * building's sinks and the network its floors are on; the demo site engineer has done the first
 * steps of the North Block's checklist (five) and of the South Block's (two), an hour apart, in
 * the last days before the seeding.
 */
export async function seedDemoElectricalRooms(tx: Tx, siteId: number, now: Date): Promise<void> {
  const [site] = await tx.select().from(sites).where(eq(sites.id, siteId));
  const [engineer] = await tx
    .select({ id: users.id })
    .from(users)
    .where(
      and(
        eq(users.role, 'site-engineer'),
        site.groupOfSitesId === null ? undefined : eq(users.groupOfSitesId, site.groupOfSitesId),
      ),
    )
    .orderBy(asc(users.id))
    .limit(1);
  const blocks = await tx
    .select()
    .from(buildings)
    .where(eq(buildings.siteId, siteId))
    .orderBy(asc(buildings.id));
  for (const [index, block] of blocks.entries()) {
    const blockFloors = await tx
      .select({ id: floors.id })
      .from(floors)
      .where(eq(floors.buildingId, block.id))
      .orderBy(asc(floors.altitude), asc(floors.id));
    if (blockFloors.length === 0) continue;
    const sinks = await tx
      .select({ id: inventoryItems.id, networkId: inventoryItems.networkId })
      .from(inventoryItems)
      .where(
        and(
          eq(inventoryItems.type, 'sink'),
          eq(inventoryItems.siteId, siteId),
          inArray(
            inventoryItems.floorId,
            blockFloors.map((floor) => floor.id),
          ),
        ),
      )
      .orderBy(asc(inventoryItems.id));
    const [room] = await tx
      .insert(electricalRooms)
      .values({ buildingId: block.id, floorId: blockFloors[0].id, name: `${block.name} electrical room` })
      .returning();
    const networkIds = [...new Set(sinks.map((sink) => sink.networkId).filter((id) => id !== null))];
    const ofSite = networkIds.length
      ? await tx
          .select({ id: networks.id })
          .from(networks)
          .where(and(inArray(networks.id, networkIds), eq(networks.siteId, siteId)))
      : [];
    await tx
      .insert(electricalRoomDevices)
      .values([
        ...ofSite.map((network) => ({ roomId: room.id, networkId: network.id })),
        ...sinks.map((sink) => ({ roomId: room.id, inventoryItemId: sink.id })),
      ]);
    const done = ELECTRICAL_ROOM_STEPS.slice(0, STEPS_DONE[index] ?? 0);
    if (done.length === 0) continue;
    const start = now.getTime() - (3 - index) * 24 * 60 * MINUTE_MS;
    await tx.insert(electricalRoomSteps).values(
      done.map((step, order) => ({
        roomId: room.id,
        step,
        completedBy: engineer?.id ?? null,
        completedAt: new Date(start + order * 60 * MINUTE_MS),
      })),
    );
  }
}
