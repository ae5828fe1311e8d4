import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { and, eq, sql } from 'drizzle-orm';
import { isElectricalRoomStep } from '../../src/domain/electricalRoomChecklist';
import { messages } from '../../src/domain/messages';
import {
  ElectricalRoomBodySchema,
  ElectricalRoomDeviceBodySchema,
  ElectricalRoomDeviceParamsSchema,
  ElectricalRoomEditBodySchema,
  ElectricalRoomSchema,
  ElectricalRoomStepBodySchema,
  ElectricalRoomStepParamsSchema,
  ElectricalRoomStepStateSchema,
  electricalRoomMessages,
  SiteElectricalRoomsSchema,
} from '../../src/domain/schemas/electricalRooms';
import { IdParamsSchema, successOf } from '../../src/domain/schemas/sites';
import { allow } from '../auth/authenticate';
import { principalOf } from '../auth/principal';
import { requireBuilding, requireSite } from '../auth/tenancy';
import type { Db } from '../db/database';
import { uniqueViolation } from '../db/errors';
import {
  buildings,
  electricalRoomDevices,
  electricalRoomSteps,
  electricalRooms,
  floors,
  inventoryItems,
  networks,
  users,
} from '../db/schema';
import { done, ok } from '../http/envelope';
import { conflict, notFound, unprocessable } from '../http/errors';
import { requiredName } from '../http/input';
import type { Services } from '../services';
import {
  electricalRoomReply,
  requireElectricalRoom,
  roomNameTaken,
  type StatusContext,
  siteElectricalRooms,
} from './electricalRoomQueries';

const RoomReply = { 200: successOf(ElectricalRoomSchema) };
const duplicate = () => conflict(messages.duplicateName('Electrical room'));

/**
 * The floor a room is put on: one of the room's building. Another client's floor, or one the
 * caller cannot see, is as unknown as any id (404); a floor of another building of the site is a
 * mistake in the form (422).
 */
async function roomFloor(db: Db, siteId: number, buildingId: number, floorId: number | null | undefined) {
  if (floorId === undefined || floorId === null) return floorId;
  const [floor] = await db
    .select({ id: floors.id, buildingId: floors.buildingId })
    .from(floors)
    .innerJoin(buildings, eq(buildings.id, floors.buildingId))
    .where(and(eq(floors.id, floorId), eq(buildings.siteId, siteId)))
    .limit(1);
  if (!floor) throw notFound('Floor');
  if (floor.buildingId !== buildingId)
    throw unprocessable({ floor_id: electricalRoomMessages.floorOfOtherBuilding });
  return floor.id;
}

/**
 * Electrical RM installation (issue 19): per building of a site, its electrical rooms with the
 * sinks and gateways installed in them, their power and connection from the node diagnostics, and
 * each room's installation checklist. The `electricalRm` area of DESIGN §4 opens and writes them;
 * a room, building, floor, sink or network of a site the caller cannot see is 404.
 */
export const electricalRoomRoutes: FastifyPluginAsyncTypebox<Services> = async (app, { db, config }) => {
  const statusNow = (): StatusContext => ({
    nowMs: Date.now(),
    silenceSeconds: config.networkSilenceSeconds,
  });

  app.get(
    '/sites/:id/electrical-rooms',
    {
      preValidation: allow('electricalRm', 'open'),
      schema: { params: IdParamsSchema, response: { 200: successOf(SiteElectricalRoomsSchema) } },
    },
    async (request) => {
      const site = await requireSite(db, principalOf(request), request.params.id);
      return ok(await siteElectricalRooms(db, site.id, statusNow()));
    },
  );

  app.post(
    '/buildings/:id/electrical-rooms',
    {
      preValidation: allow('electricalRm', 'write'),
      schema: { params: IdParamsSchema, body: ElectricalRoomBodySchema, response: RoomReply },
    },
    async (request) => {
      const building = await requireBuilding(db, principalOf(request), request.params.id);
      const name = requiredName(request.body.name);
      const floorId = await roomFloor(db, building.siteId, building.id, request.body.floor_id);
      if (await roomNameTaken(db, building.id, name)) throw duplicate();
      try {
        const [room] = await db
          .insert(electricalRooms)
          .values({ buildingId: building.id, floorId: floorId ?? null, name })
          .returning();
        const reply = await electricalRoomReply(db, { id: room.id, siteId: building.siteId }, statusNow());
        return ok(reply, messages.created('Electrical room'));
      } catch (error) {
        if (uniqueViolation(error)) throw duplicate();
        throw error;
      }
    },
  );

  app.post(
    '/electrical-rooms/:id',
    {
      preValidation: allow('electricalRm', 'write'),
      schema: { params: IdParamsSchema, body: ElectricalRoomEditBodySchema, response: RoomReply },
    },
    async (request) => {
      const room = await requireElectricalRoom(db, principalOf(request), request.params.id);
      const body = request.body;
      const name = body.name === undefined ? room.name : requiredName(body.name);
      const floorId =
        body.floor_id === undefined
          ? room.floorId
          : await roomFloor(db, room.siteId, room.buildingId, body.floor_id);
      if (await roomNameTaken(db, room.buildingId, name, room.id)) throw duplicate();
      try {
        await db
          .update(electricalRooms)
          .set({ name, floorId: floorId ?? null, updatedAt: new Date() })
          .where(eq(electricalRooms.id, room.id));
      } catch (error) {
        if (uniqueViolation(error)) throw duplicate();
        throw error;
      }
      return ok(await electricalRoomReply(db, room, statusNow()), electricalRoomMessages.updated);
    },
  );

  app.delete(
    '/electrical-rooms/:id',
    { preValidation: allow('electricalRm', 'write'), schema: { params: IdParamsSchema } },
    async (request) => {
      const room = await requireElectricalRoom(db, principalOf(request), request.params.id);
      // Its devices and steps go with it (ON DELETE CASCADE): one statement.
      await db.delete(electricalRooms).where(eq(electricalRooms.id, room.id));
      return done(messages.deleted('Electrical room'));
    },
  );

  app.post(
    '/electrical-rooms/:id/devices',
    {
      preValidation: allow('electricalRm', 'write'),
      schema: { params: IdParamsSchema, body: ElectricalRoomDeviceBodySchema, response: RoomReply },
    },
    async (request) => {
      const room = await requireElectricalRoom(db, principalOf(request), request.params.id);
      const { inventory_id: inventoryId, network_id: networkId } = request.body;
      if (inventoryId === undefined && networkId === undefined)
        throw unprocessable({ inventory_id: electricalRoomMessages.deviceRequired });
      if (inventoryId !== undefined && networkId !== undefined)
        throw unprocessable({ network_id: electricalRoomMessages.oneDevice });
      const device: typeof electricalRoomDevices.$inferInsert = { roomId: room.id };
      if (inventoryId !== undefined) {
        const [item] = await db
          .select({ id: inventoryItems.id, type: inventoryItems.type })
          .from(inventoryItems)
          .where(and(eq(inventoryItems.id, inventoryId), eq(inventoryItems.siteId, room.siteId)))
          .limit(1);
        if (!item) throw notFound('Inventory item');
        if (item.type !== 'sink') throw unprocessable({ inventory_id: electricalRoomMessages.notASink });
        device.inventoryItemId = item.id;
      } else if (networkId !== undefined) {
        const [network] = await db
          .select({ id: networks.id, siteId: networks.siteId })
          .from(networks)
          .where(eq(networks.id, networkId))
          .limit(1);
        // A network still unassigned is visible to every network reader; one of another site is not.
        if (network?.siteId === null)
          throw unprocessable({ network_id: electricalRoomMessages.networkNotAssigned });
        if (!network || network.siteId !== room.siteId) throw notFound('Network');
        device.networkId = network.id;
      }
      try {
        await db.insert(electricalRoomDevices).values(device);
      } catch (error) {
        if (uniqueViolation(error)) throw conflict(electricalRoomMessages.alreadyInstalled);
        throw error;
      }
      return ok(await electricalRoomReply(db, room, statusNow()), electricalRoomMessages.deviceAdded);
    },
  );

  app.delete(
    '/electrical-rooms/:id/devices/:deviceId',
    {
      preValidation: allow('electricalRm', 'write'),
      schema: { params: ElectricalRoomDeviceParamsSchema, response: RoomReply },
    },
    async (request) => {
      const room = await requireElectricalRoom(db, principalOf(request), request.params.id);
      const [removed] = await db
        .delete(electricalRoomDevices)
        .where(
          and(
            eq(electricalRoomDevices.id, request.params.deviceId),
            eq(electricalRoomDevices.roomId, room.id),
          ),
        )
        .returning({ id: electricalRoomDevices.id });
      if (!removed) throw notFound('Device');
      return ok(await electricalRoomReply(db, room, statusNow()), electricalRoomMessages.deviceRemoved);
    },
  );

  app.put(
    '/electrical-rooms/:id/steps/:step',
    {
      preValidation: allow('electricalRm', 'write'),
      schema: {
        params: ElectricalRoomStepParamsSchema,
        body: ElectricalRoomStepBodySchema,
        response: { 200: successOf(ElectricalRoomStepStateSchema) },
      },
    },
    async (request) => {
      const principal = principalOf(request);
      const room = await requireElectricalRoom(db, principal, request.params.id);
      const step = request.params.step;
      if (!isElectricalRoomStep(step)) throw unprocessable({ step: messages.invalid('Step') });
      if (!request.body.done) {
        await db
          .delete(electricalRoomSteps)
          .where(and(eq(electricalRoomSteps.roomId, room.id), eq(electricalRoomSteps.step, step)));
        return ok(
          { step, done: false, completed_by: null, completed_at: null },
          electricalRoomMessages.stepUndone,
        );
      }
      // Ticking a done step again keeps who did it first and when: the record is of the work.
      await db
        .insert(electricalRoomSteps)
        .values({ roomId: room.id, step, completedBy: principal.id, completedAt: sql`now()` })
        .onConflictDoNothing();
      const [row] = await db
        .select({ completedAt: electricalRoomSteps.completedAt, userId: users.id, userName: users.name })
        .from(electricalRoomSteps)
        .leftJoin(users, eq(users.id, electricalRoomSteps.completedBy))
        .where(and(eq(electricalRoomSteps.roomId, room.id), eq(electricalRoomSteps.step, step)));
      return ok(
        {
          step,
          done: true,
          completed_by:
            row?.userId != null && row.userName !== null ? { id: row.userId, name: row.userName } : null,
          completed_at: row ? new Date(row.completedAt).toISOString() : null,
        },
        electricalRoomMessages.stepDone,
      );
    },
  );
};
