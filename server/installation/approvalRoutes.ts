import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { eq } from 'drizzle-orm';
import type { LatLong } from '../../src/domain/floor';
import { displacementMetres } from '../../src/domain/geo';
import {
  ApproveAnchorBodySchema,
  ApprovedItemReply,
  installationMessages,
  UnapproveAnchorBodySchema,
  type UnapprovedAnchor,
  UnapprovedAnchorListReply,
  UnapprovedQuerySchema,
} from '../../src/domain/schemas/installation';
import { inventoryMessages } from '../../src/domain/schemas/inventory';
import { IdParamsSchema } from '../../src/domain/schemas/sites';
import { allow } from '../auth/authenticate';
import { principalOf } from '../auth/principal';
import { requireSite } from '../auth/tenancy';
import { inventoryItems, planningAnchors } from '../db/schema';
import { requireFloor } from '../floors/floorAccess';
import { ok } from '../http/envelope';
import { notFound, unprocessable } from '../http/errors';
import { toInventoryItem } from '../inventory/inventoryRows';
import { requireSiteDevice, zoneAt } from '../inventory/placement';
import { settleAnchorMovedOnPlacement } from '../nodes/anchorMovedIncidents';
import { nodesAt } from '../nodes/nodeQueries';
import { msOf } from '../nodes/nodeReadings';
import type { Services } from '../services';
import { checkApproval, recordApproval } from './anchorApprovalService';
import { insideFloor, requireFloorPlanningAnchor, requireVisibleItem } from './installationAccess';
import { loadRadioSettings } from './radioSettingsStore';

const roundTo = (value: number, places: number) => Number(value.toFixed(places));

interface PlanningPoint {
  id: number;
  anchorId: string;
  lat: number;
  long: number;
}

function nearest(points: readonly PlanningPoint[], at: LatLong) {
  let best: { point: PlanningPoint; distance: number } | null = null;
  for (const point of points) {
    const distance = displacementMetres(point, at);
    if (!best || distance < best.distance) best = { point, distance };
  }
  return best;
}

/**
 * Anchor approval (spec §4): the installed anchors the network reports that nobody has confirmed
 * yet, approving one at its place (dragged on the canvas or its planning anchor's) once the
 * evidence holds or a reason overrides it, and unapproving, which forgets its place again.
 */
export const approvalRoutes: FastifyPluginAsyncTypebox<Services> = async (app, { db, publisher }) => {
  app.get(
    '/sites/:id/anchors/unapproved',
    {
      preValidation: allow('installation', 'open'),
      schema: {
        params: IdParamsSchema,
        querystring: UnapprovedQuerySchema,
        response: { 200: UnapprovedAnchorListReply },
      },
    },
    async (request) => {
      const principal = principalOf(request);
      const site = await requireSite(db, principal, request.params.id);
      const floorId = request.query.floor_id;
      if (floorId !== undefined) {
        const floor = await requireFloor(db, principal, floorId);
        if (floor.siteId !== site.id) throw notFound('Floor');
      }
      const nodes = await nodesAt(db, { siteId: site.id, type: 'anchor' }, Date.now());
      // Reported by the network (a report within the retention) and not confirmed; an anchor on
      // no floor yet is listed on every floor, where it may be approved.
      const unapproved = nodes.filter(
        (node) =>
          !node.is_approved &&
          node.s !== null &&
          (floorId === undefined || node.floor_id === null || Number(node.floor_id) === floorId),
      );
      const floorIds = new Set<number>();
      for (const node of unapproved) {
        const floor = node.floor_id === null ? floorId : Number(node.floor_id);
        if (floor !== undefined) floorIds.add(floor);
      }
      const planned = new Map<number, PlanningPoint[]>();
      for (const id of floorIds)
        planned.set(
          id,
          await db
            .select({
              id: planningAnchors.id,
              anchorId: planningAnchors.anchorId,
              lat: planningAnchors.lat,
              long: planningAnchors.long,
            })
            .from(planningAnchors)
            .where(eq(planningAnchors.floorId, id)),
        );
      const reply: UnapprovedAnchor[] = unapproved.map((node) => {
        const computed =
          node.lat === null || node.long === null ? null : { lat: Number(node.lat), long: Number(node.long) };
        const ownFloor = node.floor_id === null ? null : Number(node.floor_id);
        const candidates = planned.get(ownFloor ?? floorId ?? -1) ?? [];
        const closest = computed ? nearest(candidates, computed) : null;
        return {
          inventory_id: Number(node.id),
          wnt_inventory_id: node.node_id,
          network_id: node.network_id === null ? null : Number(node.network_id),
          floor_id: ownFloor,
          computed,
          link_quality: node.q === null ? null : Number(node.q),
          last_seen: node.s === null ? null : new Date(msOf(node.s)).toISOString(),
          planning_anchor: closest
            ? {
                id: closest.point.id,
                anchor_id: closest.point.anchorId,
                lat: closest.point.lat,
                long: closest.point.long,
                distance_m: roundTo(closest.distance, 2),
              }
            : null,
        };
      });
      reply.sort((a, b) =>
        a.wnt_inventory_id < b.wnt_inventory_id
          ? -1
          : a.wnt_inventory_id > b.wnt_inventory_id
            ? 1
            : a.inventory_id - b.inventory_id,
      );
      return ok(reply);
    },
  );

  app.post(
    '/installation/anchor/approve',
    {
      preValidation: allow('installation', 'write'),
      schema: { body: ApproveAnchorBodySchema, response: { 200: ApprovedItemReply } },
    },
    async (request) => {
      const principal = principalOf(request);
      const body = request.body;
      const floor = await requireFloor(db, principal, body.floor_id);
      const item = await requireSiteDevice(db, floor.siteId, body.inventory_id);
      if (item.type !== 'anchor') throw unprocessable({ inventory_id: inventoryMessages.approveAnchorsOnly });
      if ((body.lat === undefined) !== (body.long === undefined))
        throw unprocessable({
          [body.lat === undefined ? 'lat' : 'long']: installationMessages.latLongTogether,
        });
      const planningAnchor =
        body.planning_anchor_id === undefined
          ? null
          : await requireFloorPlanningAnchor(db, floor.id, body.planning_anchor_id);
      const at: LatLong | null =
        body.lat !== undefined && body.long !== undefined
          ? { lat: body.lat, long: body.long }
          : planningAnchor
            ? { lat: planningAnchor.lat, long: planningAnchor.long }
            : null;
      if (!at) throw unprocessable({ coordinates: installationMessages.coordinatesRequired });
      if (!insideFloor(floor, at.lat, at.long))
        throw unprocessable({ coordinates: inventoryMessages.outsideFloor });
      const settings = await loadRadioSettings(db, floor.siteId);
      const checked = await checkApproval(
        db,
        item,
        {
          at: planningAnchor ? { lat: planningAnchor.lat, long: planningAnchor.long } : at,
          planningAnchor: planningAnchor
            ? { id: planningAnchor.id, anchorId: planningAnchor.anchorId }
            : null,
        },
        settings.approval,
        body.override_reason,
      );
      const { row, resolved } = await db.transaction(async (tx) => {
        const [updated] = await tx
          .update(inventoryItems)
          .set({
            floorId: floor.id,
            zoneId: await zoneAt(tx, floor.id, at.lat, at.long),
            lat: at.lat,
            long: at.long,
            isApproved: true,
            updatedAt: new Date(),
          })
          .where(eq(inventoryItems.id, item.id))
          .returning();
        if (!updated) throw notFound('Inventory item');
        await recordApproval(tx, {
          item,
          action: 'approve',
          floorId: floor.id,
          planningAnchorId: planningAnchor?.id ?? null,
          at,
          checked,
          userId: principal.id,
        });
        const settled = await settleAnchorMovedOnPlacement(tx, item.id, principal.id, new Date());
        return { row: updated, resolved: settled };
      });
      if (resolved.length > 0)
        await publisher?.publishIncidents?.(floor.siteId, resolved).catch((error: unknown) => {
          request.log.error({ err: error, resolved }, 'publishing resolved anchor-moved incidents failed');
        });
      return ok(toInventoryItem(row), installationMessages.anchorApproved);
    },
  );

  app.post(
    '/installation/anchor/unapprove',
    {
      preValidation: allow('installation', 'write'),
      schema: { body: UnapproveAnchorBodySchema, response: { 200: ApprovedItemReply } },
    },
    async (request) => {
      const principal = principalOf(request);
      const item = await requireVisibleItem(db, principal, request.body.inventory_id);
      if (item.type !== 'anchor') throw unprocessable({ inventory_id: inventoryMessages.approveAnchorsOnly });
      const { row, resolved } = await db.transaction(async (tx) => {
        const [updated] = await tx
          .update(inventoryItems)
          .set({ isApproved: false, lat: null, long: null, zoneId: null, updatedAt: new Date() })
          .where(eq(inventoryItems.id, item.id))
          .returning();
        if (!updated) throw notFound('Inventory item');
        if (!item.isApproved) return { row: updated, resolved: [] };
        await recordApproval(tx, {
          item,
          action: 'unapprove',
          floorId: item.floorId,
          planningAnchorId: null,
          at: null,
          checked: null,
          userId: principal.id,
        });
        // Without a place it cannot have left it: an open "anchor moved" incident is settled.
        const settled = await settleAnchorMovedOnPlacement(tx, item.id, principal.id, new Date());
        return { row: updated, resolved: settled };
      });
      if (resolved.length > 0)
        await publisher?.publishIncidents?.(item.siteId, resolved).catch((error: unknown) => {
          request.log.error({ err: error, resolved }, 'publishing resolved anchor-moved incidents failed');
        });
      return ok(toInventoryItem(row), installationMessages.anchorUnapproved);
    },
  );
};
