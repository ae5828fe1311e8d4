import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { and, eq, isNotNull, isNull, type SQL, sql } from 'drizzle-orm';
import type { preHandlerHookHandler } from 'fastify';
import { Type } from 'typebox';
import { can } from '../../src/domain/access';
import {
  AssetOptionSchema,
  AssetsQuerySchema,
  DEFAULT_INVENTORIES_PER_PAGE,
  DeviceAtQuerySchema,
  DevicePositionSchema,
  FloorInventoryParamsSchema,
  InventoryItemSchema,
  InventoryListReply,
  InventoryPageReply,
  InventoryTypeQuerySchema,
  inventoryMessages,
  PlaceDeviceBodySchema,
  RegisterInventoriesBodySchema,
  RegisterInventoriesReplySchema,
  SiteInventoriesQuerySchema,
  WorkerOnMapSchema,
} from '../../src/domain/schemas/inventory';
import { IdParamsSchema, successOf } from '../../src/domain/schemas/sites';
import { allow } from '../auth/authenticate';
import { principalOf } from '../auth/principal';
import { requireSite } from '../auth/tenancy';
import type { Db } from '../db/database';
import { inventoryItems } from '../db/schema';
import { requireFloor } from '../floors/floorAccess';
import { ok } from '../http/envelope';
import { forbidden, unprocessable } from '../http/errors';
import { markersForViewer } from '../live/mapMarkers';
import { selectWorkersOnMap } from '../live/workersOnMap';
import { settleAnchorMovedOnPlacement } from '../nodes/anchorMovedIncidents';
import type { Services } from '../services';
import { positionAt } from './devicePosition';
import { countInventory, listInventory } from './inventoryRows';
import { requireNetwork } from './networkAccess';
import { placeDevice, requireSiteDevice } from './placement';
import { registerInventories } from './registerInventories';
import { parseTimestamp } from './timestamp';

/** 20,000 devices of up to 64-character ids, with room to spare. */
const REGISTER_BODY_LIMIT = 4 * 1024 * 1024;

const ofType = (type: string | undefined) => (type ? eq(inventoryItems.type, type) : undefined);

const allowHelmetPicking: preHandlerHookHandler = async (request) => {
  const { role } = principalOf(request);
  if (!can(role, 'open', 'nodes') && !can(role, 'write', 'workers')) throw forbidden();
};

/** Helmets as select options, worn (`assigned`) or not, sorted by their id as the devices print it. */
function helmetOptions(db: Db, where: SQL, assigned: boolean) {
  return db
    .select({ value: inventoryItems.id, label: inventoryItems.wntInventoryId })
    .from(inventoryItems)
    .where(
      and(
        where,
        eq(inventoryItems.type, 'helmet'),
        assigned ? isNotNull(inventoryItems.workerId) : isNull(inventoryItems.workerId),
      ),
    )
    .orderBy(sql`${inventoryItems.wntInventoryId} collate "C"`, inventoryItems.id);
}

/**
 * Devices of a floor, network and site (spec §7 "Inventory and nodes"). The network's and the
 * site's device lists are the nodes area's (DESIGN §4); a floor's devices and workers are the
 * map's, which anyone who sees the site reads, the workers' personal data only as far as
 * src/domain/personalData.ts lets them. Placing and registering devices is installation and
 * nodes work.
 */
export const inventoryRoutes: FastifyPluginAsyncTypebox<Services> = async (app, { db, publisher }) => {
  app.get(
    '/floors/:id/inventory',
    {
      preValidation: allow('sites', 'open'),
      schema: {
        params: IdParamsSchema,
        querystring: InventoryTypeQuerySchema,
        response: { 200: InventoryListReply },
      },
    },
    async (request) => {
      const floor = await requireFloor(db, principalOf(request), request.params.id);
      return ok(
        await listInventory(db, and(eq(inventoryItems.floorId, floor.id), ofType(request.query.type))),
      );
    },
  );

  app.post(
    '/floors/:id/inventory/:inventoryId',
    {
      preValidation: allow('installation', 'write'),
      schema: {
        params: FloorInventoryParamsSchema,
        body: PlaceDeviceBodySchema,
        response: { 200: successOf(InventoryItemSchema) },
      },
    },
    async (request) => {
      const principal = principalOf(request);
      const floor = await requireFloor(db, principal, request.params.id);
      // Placing an anchor again (re-approval) resolves its "anchor moved" incident with it.
      const { item, resolved } = await db.transaction(async (tx) => {
        const placed = await placeDevice(tx, floor, request.params.inventoryId, request.body, principal.id);
        const settled = await settleAnchorMovedOnPlacement(tx, placed.id, principal.id, new Date());
        return { item: placed, resolved: settled };
      });
      if (resolved.length > 0)
        await publisher?.publishIncidents?.(floor.siteId, resolved).catch((error: unknown) => {
          request.log.error({ err: error, resolved }, 'publishing resolved anchor-moved incidents failed');
        });
      return ok(item, inventoryMessages.updated);
    },
  );

  app.get(
    '/floors/:id/inventory/:inventoryId',
    {
      preValidation: allow('sites', 'open'),
      schema: {
        params: FloorInventoryParamsSchema,
        querystring: DeviceAtQuerySchema,
        response: { 200: successOf(Type.Union([DevicePositionSchema, Type.Null()])) },
      },
    },
    async (request) => {
      const floor = await requireFloor(db, principalOf(request), request.params.id);
      const item = await requireSiteDevice(db, floor.siteId, request.params.inventoryId);
      const at = parseTimestamp(request.query.timestamp);
      if (!at) throw unprocessable({ timestamp: inventoryMessages.timestampInvalid });
      return ok(await positionAt(db, item.id, at));
    },
  );

  app.get(
    '/floors/:id/workers',
    {
      preValidation: allow('sites', 'open'),
      schema: { params: IdParamsSchema, response: { 200: successOf(Type.Array(WorkerOnMapSchema)) } },
    },
    async (request) => {
      const principal = principalOf(request);
      const floor = await requireFloor(db, principal, request.params.id);
      const onFloor = await selectWorkersOnMap(db, { floorId: floor.id });
      return ok(await markersForViewer(db, principal, floor.siteId, onFloor));
    },
  );

  app.get(
    '/networks/:id/inventory',
    {
      preValidation: allow('nodes', 'open'),
      schema: {
        params: IdParamsSchema,
        querystring: InventoryTypeQuerySchema,
        response: { 200: InventoryListReply },
      },
    },
    async (request) => {
      const network = await requireNetwork(db, principalOf(request), request.params.id);
      return ok(
        await listInventory(db, and(eq(inventoryItems.networkId, network.id), ofType(request.query.type))),
      );
    },
  );

  app.get(
    '/networks/:id/inventory/assets',
    {
      // A network's helmets are a device list like the site's picker below: the same readers.
      preValidation: allowHelmetPicking,
      schema: {
        params: IdParamsSchema,
        querystring: AssetsQuerySchema,
        response: { 200: successOf(Type.Array(AssetOptionSchema)) },
      },
    },
    async (request) => {
      const network = await requireNetwork(db, principalOf(request), request.params.id);
      return ok(
        await helmetOptions(db, eq(inventoryItems.networkId, network.id), request.query.assigned === 1),
      );
    },
  );

  app.get(
    '/sites/:id/inventories',
    {
      preValidation: allow('nodes', 'open'),
      schema: {
        params: IdParamsSchema,
        querystring: SiteInventoriesQuerySchema,
        response: { 200: InventoryPageReply },
      },
    },
    async (request) => {
      const site = await requireSite(db, principalOf(request), request.params.id);
      const { type, page, perPage } = request.query;
      const where = and(eq(inventoryItems.siteId, site.id), ofType(type));
      const total = await countInventory(db, where);
      // Without page or perPage the whole list comes back, as one page.
      if (page === undefined && perPage === undefined)
        return ok(await listInventory(db, where), undefined, { page: 1, perPage: total, total });
      const window = { page: page ?? 1, perPage: perPage ?? DEFAULT_INVENTORIES_PER_PAGE };
      return ok(await listInventory(db, where, window), undefined, { ...window, total });
    },
  );

  // The worker page's helmet picker: whoever may assign helmets to workers, without the nodes list.
  app.get(
    '/sites/:id/inventories/assets',
    {
      preValidation: allowHelmetPicking,
      schema: {
        params: IdParamsSchema,
        querystring: AssetsQuerySchema,
        response: { 200: successOf(Type.Array(AssetOptionSchema)) },
      },
    },
    async (request) => {
      const site = await requireSite(db, principalOf(request), request.params.id);
      return ok(await helmetOptions(db, eq(inventoryItems.siteId, site.id), request.query.assigned === 1));
    },
  );

  app.post(
    '/sites/:id/inventories',
    {
      preValidation: allow('nodes', 'write'),
      bodyLimit: REGISTER_BODY_LIMIT,
      schema: {
        params: IdParamsSchema,
        body: RegisterInventoriesBodySchema,
        response: { 200: successOf(RegisterInventoriesReplySchema) },
      },
    },
    async (request) => {
      const site = await requireSite(db, principalOf(request), request.params.id);
      const result = await registerInventories(db, site.id, request.body.items);
      return ok(result, `${result.created} devices registered, ${result.existing} already known`);
    },
  );
};
