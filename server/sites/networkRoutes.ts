import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { and, asc, eq, isNull, notInArray, or, sql } from 'drizzle-orm';
import { Type } from 'typebox';
import {
  AssignNetworkBodySchema,
  IdParamsSchema,
  NetworkSchema,
  successOf,
} from '../../src/domain/schemas/sites';
import { allow } from '../auth/authenticate';
import { principalOf } from '../auth/principal';
import { requireSite, visibleSitesWhere } from '../auth/tenancy';
import { buildings, electricalRoomDevices, electricalRooms, networks, sites } from '../db/schema';
import { ok } from '../http/envelope';
import { notFound } from '../http/errors';
import type { Services } from '../services';

const networkColumns = { id: networks.id, name: networks.name, site_id: networks.siteId };

/** The electrical-room rows of the network in rooms not on `siteId` (every room when null). */
function gatewayOutsideSite(networkId: number, siteId: number | null) {
  const roomsOfSite = sql`(select ${electricalRooms.id} from ${electricalRooms} join ${buildings} on ${buildings.id} = ${electricalRooms.buildingId} where ${buildings.siteId} = ${siteId ?? 0})`;
  return and(
    eq(electricalRoomDevices.networkId, networkId),
    notInArray(electricalRoomDevices.roomId, roomsOfSite),
  );
}

/** Gateway networks and their assignment to a site (spec §7 "Clients and sites"). */
export const networkRoutes: FastifyPluginAsyncTypebox<Services> = async (app, { db }) => {
  app.get(
    '/networks/unassigned',
    {
      preValidation: allow('networks', 'open'),
      schema: { response: { 200: successOf(Type.Array(NetworkSchema)) } },
    },
    async () => {
      const rows = await db
        .select(networkColumns)
        .from(networks)
        .where(isNull(networks.siteId))
        .orderBy(sql`lower(${networks.name})`, asc(networks.name), asc(networks.id));
      return ok(rows);
    },
  );

  app.patch(
    '/networks/:id',
    {
      preValidation: allow('networks', 'write'),
      schema: {
        params: IdParamsSchema,
        body: AssignNetworkBodySchema,
        response: { 200: successOf(NetworkSchema) },
      },
    },
    async (request) => {
      const principal = principalOf(request);
      const siteId = request.body.site_id;
      if (siteId !== null) await requireSite(db, principal, siteId);
      // One statement, so the network cannot move to another tenant between check and update:
      // a network on a site the caller cannot see does not exist for the caller.
      const visibleSite = sql`${networks.siteId} in (select ${sites.id} from ${sites} where ${visibleSitesWhere(principal) ?? sql`true`})`;
      const updated = await db.transaction(async (tx) => {
        const [row] = await tx
          .update(networks)
          .set({ siteId })
          .where(and(eq(networks.id, request.params.id), or(isNull(networks.siteId), visibleSite)))
          .returning(networkColumns);
        // A gateway is installed in a room of its own site only: moved or released, it leaves the room.
        if (row) await tx.delete(electricalRoomDevices).where(gatewayOutsideSite(row.id, siteId));
        return row;
      });
      if (!updated) throw notFound('Network');
      return ok(updated);
    },
  );
};
