import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  ASSET_ITEM_HISTORY_MS,
  AssetItemParamsSchema,
  AssetItemSchema,
  AssetListParamsSchema,
  AssetListSchema,
  FloorNodeInformationSchema,
  NodeHistoryQuerySchema,
  NodeHistorySchema,
  NodeInformationQuerySchema,
  NodePlaybackChunkSchema,
  NodePlaybackParamsSchema,
  NodePlaybackQuerySchema,
  nodeMessages,
  type SiteNode,
  SiteNodeParamsSchema,
  SiteNodesSchema,
} from '../../src/domain/schemas/nodes';
import { IdParamsSchema, successOf } from '../../src/domain/schemas/sites';
import { hasControlCharacters } from '../../src/domain/text';
import { decodeCursor } from '../analytics/historyQueries';
import { parseWindow } from '../analytics/historyWindow';
import { allowReadingAny } from '../auth/authenticate';
import { principalOf } from '../auth/principal';
import { requireSite } from '../auth/tenancy';
import type { Db } from '../db/database';
import { requireFloor } from '../floors/floorAccess';
import { ok } from '../http/envelope';
import { notFound, unprocessable } from '../http/errors';
import { parseTimestamp } from '../inventory/timestamp';
import type { Services } from '../services';
import { forecastOf, siteVoltageTrends } from './batteryTrends';
import { anchorMovedThreshold } from './movedThreshold';
import { nodeHistory } from './nodeHistory';
import { readNodePlaybackChunk } from './nodePlayback';
import { type NodeScope, nodeInformationOf, nodesAt } from './nodeQueries';
import { asNodeType } from './nodeReadings';

/**
 * The anchors and sinks of a site (spec §7 "Inventory and nodes" and "Installation planning"
 * asset lists; issue "Maintenance kit and nodes"). Readers of the nodes, installation and
 * maintenance areas (DESIGN §4: one row); another tenant's site or floor is 404, and so is a node
 * of another site or floor, as any unknown node id. docs/decisions.md "Maintenance kit: node
 * routes" says how the spec's path parameters were read.
 */

const allowNodeReaders = allowReadingAny('nodes', 'installation', 'maintenance');

/** The instant `?timestamp` names, now when it is left out, or a 422 saying what it must be. */
function instantOf(timestamp: string | undefined, nowMs: number): number {
  if (timestamp === undefined) return nowMs;
  const at = parseTimestamp(timestamp);
  if (!at) throw unprocessable({ timestamp: nodeMessages.timestampInvalid });
  return at.getTime();
}

/** The one node the scope names, as it was at `atMs`; 404 when the scope holds no such node. */
async function requireNode(db: Db, scope: NodeScope & { nodeId: string }, atMs: number) {
  // No node id holds one (and PostgreSQL refuses NUL in a text parameter).
  if (hasControlCharacters(scope.nodeId)) throw notFound('Node');
  const [record] = await nodesAt(db, scope, atMs);
  if (!record) throw notFound('Node');
  return record;
}

export const nodeRoutes: FastifyPluginAsyncTypebox<Services> = async (app, { db }) => {
  /** Every node of a floor as it was at a time, with its neighbours and its health then. */
  async function floorNodesAt(
    floor: { id: number; siteId: number },
    atMs: number,
    scope: Partial<NodeScope>,
  ) {
    const threshold = await anchorMovedThreshold(db, floor.siteId);
    const records = await nodesAt(db, { siteId: floor.siteId, floorId: floor.id, ...scope }, atMs);
    return records.map((record) => nodeInformationOf(record, atMs, threshold));
  }

  app.get(
    '/floors/:id/node-information',
    {
      preValidation: allowNodeReaders,
      schema: {
        params: IdParamsSchema,
        querystring: NodeInformationQuerySchema,
        response: { 200: successOf(FloorNodeInformationSchema) },
      },
    },
    async (request) => {
      const floor = await requireFloor(db, principalOf(request), request.params.id);
      const atMs = instantOf(request.query.timestamp, Date.now());
      const nodes = await floorNodesAt(floor, atMs, {});
      return ok({ floorId: floor.id, at: new Date(atMs).toISOString(), nodes });
    },
  );

  app.get(
    '/sites/:id/nodes',
    {
      preValidation: allowNodeReaders,
      schema: { params: IdParamsSchema, response: { 200: successOf(SiteNodesSchema) } },
    },
    async (request) => {
      const site = await requireSite(db, principalOf(request), request.params.id);
      const nowMs = Date.now();
      const threshold = await anchorMovedThreshold(db, site.id);
      const records = await nodesAt(db, { siteId: site.id }, nowMs);
      const trends = await siteVoltageTrends(db, site.id, nowMs);
      const nodes = records.map((record): SiteNode => {
        const node = nodeInformationOf(record, nowMs, threshold);
        return {
          id: node.id,
          nodeId: node.nodeId,
          networkId: node.networkId,
          type: node.type,
          floorId: node.floorId,
          isApproved: node.isApproved,
          configured: node.configured,
          reading: node.reading,
          health: node.health,
          buildingId: record.building_id === null ? null : Number(record.building_id),
          buildingName: record.building_name,
          floorName: record.floor_name,
          forecast: forecastOf(
            node.type,
            trends.get(node.id) ?? [],
            nowMs,
            node.reading?.batteryVoltage ?? null,
          ),
        };
      });
      return ok({
        siteId: site.id,
        at: new Date(nowMs).toISOString(),
        movedThresholdMetres: threshold,
        nodes,
      });
    },
  );

  app.get(
    '/sites/:id/nodes/:nodeId/history',
    {
      preValidation: allowNodeReaders,
      schema: {
        params: SiteNodeParamsSchema,
        querystring: NodeHistoryQuerySchema,
        response: { 200: successOf(NodeHistorySchema) },
      },
    },
    async (request) => {
      const site = await requireSite(db, principalOf(request), request.params.id);
      const window = parseWindow(request.query);
      const nowMs = Date.now();
      const node = await requireNode(db, { siteId: site.id, nodeId: request.params.nodeId }, nowMs);
      const history = await nodeHistory(
        db,
        { id: Number(node.id), nodeId: node.node_id, type: asNodeType(node.type) },
        {
          fromMs: window.from.getTime(),
          toMs: window.to.getTime(),
          nowMs,
          movedThresholdM: await anchorMovedThreshold(db, site.id),
        },
      );
      return ok(history);
    },
  );

  app.get(
    '/installation/:floorId/assets/list/:type',
    {
      preValidation: allowNodeReaders,
      schema: {
        params: AssetListParamsSchema,
        querystring: NodeInformationQuerySchema,
        response: { 200: successOf(AssetListSchema) },
      },
    },
    async (request) => {
      const floor = await requireFloor(db, principalOf(request), request.params.floorId);
      const atMs = instantOf(request.query.timestamp, Date.now());
      const { type } = request.params;
      const nodes = await floorNodesAt(floor, atMs, type === 'all' ? {} : { type });
      return ok({ floorId: floor.id, type, at: new Date(atMs).toISOString(), nodes });
    },
  );

  // The reply is serialized with JSON.stringify, as the positions history is: a chunk is columns
  // of up to 20,000 numbers and neighbour pairs (server/analytics/historyRoutes.ts).
  app.get(
    '/installation/:floorId/assets/list/playback/:from/:to',
    {
      preValidation: allowNodeReaders,
      schema: {
        params: NodePlaybackParamsSchema,
        querystring: NodePlaybackQuerySchema,
        response: { 200: successOf(NodePlaybackChunkSchema) },
      },
    },
    async (request, reply) => {
      const floor = await requireFloor(db, principalOf(request), request.params.floorId);
      const window = parseWindow(request.params);
      const cursor =
        request.query.cursor === undefined ? undefined : decodeCursor(request.query.cursor, window);
      const chunk = await readNodePlaybackChunk(db, {
        floor,
        window,
        cursor,
        movedThresholdM: await anchorMovedThreshold(db, floor.siteId),
      });
      return reply.serializer(JSON.stringify).send(ok(chunk));
    },
  );

  app.get(
    '/installation/:floorId/assets/item/:nodeId/:type',
    {
      preValidation: allowNodeReaders,
      schema: {
        params: AssetItemParamsSchema,
        querystring: NodeInformationQuerySchema,
        response: { 200: successOf(AssetItemSchema) },
      },
    },
    async (request) => {
      const floor = await requireFloor(db, principalOf(request), request.params.floorId);
      const nowMs = Date.now();
      const atMs = instantOf(request.query.timestamp, nowMs);
      const { nodeId, type } = request.params;
      const record = await requireNode(db, { siteId: floor.siteId, floorId: floor.id, nodeId, type }, atMs);
      const threshold = await anchorMovedThreshold(db, floor.siteId);
      const node = nodeInformationOf(record, atMs, threshold);
      const history = await nodeHistory(
        db,
        { id: node.id, nodeId: node.nodeId, type: node.type },
        {
          fromMs: atMs - ASSET_ITEM_HISTORY_MS,
          toMs: atMs + ASSET_ITEM_HISTORY_MS,
          nowMs,
          movedThresholdM: threshold,
        },
      );
      return ok({ node, history });
    },
  );
};
