import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  AnchorStatisticsSchema,
  InventoryMetaQuerySchema,
  InventoryMetaSchema,
  InventoryStatisticsSchema,
} from '../../src/domain/schemas/floors';
import { IdParamsSchema, successOf } from '../../src/domain/schemas/sites';
import { allow } from '../auth/authenticate';
import { principalOf } from '../auth/principal';
import { requireBuilding, requireSite } from '../auth/tenancy';
import { requireFloor } from '../floors/floorAccess';
import {
  anchorStatistics,
  inventoryMeta,
  inventoryScope,
  inventoryStatistics,
  lastSeenWindow,
} from '../floors/inventoryCounts';
import { ok } from '../http/envelope';
import type { Services } from '../services';

const metaRoute = {
  preValidation: allow('maps', 'open'),
  schema: {
    params: IdParamsSchema,
    querystring: InventoryMetaQuerySchema,
    response: { 200: successOf(InventoryMetaSchema) },
  },
};

/** Device counts of a floor, building or site (spec §3 "Asset status counts"). */
export const inventoryMetaRoutes: FastifyPluginAsyncTypebox<Services> = async (app, { db }) => {
  app.get('/floors/:id/inventory-meta', metaRoute, async (request) => {
    const window = lastSeenWindow(request.query);
    const floor = await requireFloor(db, principalOf(request), request.params.id);
    return ok(await inventoryMeta(db, inventoryScope.floor(floor.id), window));
  });

  app.get('/buildings/:id/inventory-meta', metaRoute, async (request) => {
    const window = lastSeenWindow(request.query);
    const building = await requireBuilding(db, principalOf(request), request.params.id);
    return ok(await inventoryMeta(db, inventoryScope.building(building.id), window));
  });

  app.get('/sites/:id/inventory-meta', metaRoute, async (request) => {
    const window = lastSeenWindow(request.query);
    const site = await requireSite(db, principalOf(request), request.params.id);
    return ok(await inventoryMeta(db, inventoryScope.site(site.id), window));
  });

  app.get(
    '/floors/:id/inventory-statistics',
    {
      preValidation: allow('maps', 'open'),
      schema: { params: IdParamsSchema, response: { 200: successOf(InventoryStatisticsSchema) } },
    },
    async (request) => {
      const floor = await requireFloor(db, principalOf(request), request.params.id);
      return ok(await inventoryStatistics(db, inventoryScope.floor(floor.id)));
    },
  );

  app.get(
    '/floors/:id/anchor-statistics',
    {
      preValidation: allow('maps', 'open'),
      schema: { params: IdParamsSchema, response: { 200: successOf(AnchorStatisticsSchema) } },
    },
    async (request) => {
      const floor = await requireFloor(db, principalOf(request), request.params.id);
      return ok(await anchorStatistics(db, inventoryScope.floor(floor.id)));
    },
  );
};
