import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { asc, eq, sql } from 'drizzle-orm';
import { messages } from '../../src/domain/messages';
import type { PlanningAnchor } from '../../src/domain/schemas/installation';
import {
  DeletedIdReply,
  INSTALLATION_LIMITS,
  InstallationIdBodySchema,
  installationMessages,
  PlanningAnchorAddBodySchema,
  PlanningAnchorEditBodySchema,
  PlanningAnchorGetAllBodySchema,
  PlanningAnchorListReply,
  PlanningAnchorReply,
} from '../../src/domain/schemas/installation';
import { allow } from '../auth/authenticate';
import { principalOf } from '../auth/principal';
import { planningAnchors } from '../db/schema';
import { requireFloor } from '../floors/floorAccess';
import { addToFloor, duplicateAsConflict, type NamedRows, nameTaken } from '../floors/namedRows';
import { ok } from '../http/envelope';
import { conflict, notFound, unprocessable } from '../http/errors';
import { requiredName } from '../http/input';
import type { Services } from '../services';
import { type FloorRow, insideFloor, requirePlanningAnchor } from './installationAccess';

type PlanningAnchorRow = typeof planningAnchors.$inferSelect;

/** The spec's words: the anchor_id is the planning anchor's name. */
const duplicate = () => conflict(messages.duplicateName('Anchor'));

export function toPlanningAnchor(row: PlanningAnchorRow): PlanningAnchor {
  return {
    id: row.id,
    floor_id: row.floorId,
    anchor_id: row.anchorId,
    metadata: { lat: row.lat, long: row.long },
    created_at: new Date(row.createdAt).toISOString(),
    updated_at: new Date(row.updatedAt).toISOString(),
  };
}

function checkedMetadata(metadata: { lat: number; long: number }, floor: FloorRow) {
  if (!insideFloor(floor, metadata.lat, metadata.long))
    throw unprocessable({ metadata: installationMessages.anchorOutsideFloor });
  return { lat: metadata.lat, long: metadata.long };
}

const PLANNING_ANCHORS: NamedRows = {
  table: planningAnchors,
  id: planningAnchors.id,
  scope: planningAnchors.floorId,
  name: planningAnchors.anchorId,
  duplicate,
};

const requiredAnchorId = (value: string) => requiredName(value, 'anchor_id', 'Anchor ID');

/**
 * Planning anchors (spec §3 "an anchor_id plus metadata of two numbers giving its coordinates"):
 * where anchors are meant to go on a floor, named uniquely on it.
 */
export const planningAnchorRoutes: FastifyPluginAsyncTypebox<Services> = async (app, { db }) => {
  app.post(
    '/installation/anchor/getAll',
    {
      preValidation: allow('installation', 'open'),
      schema: { body: PlanningAnchorGetAllBodySchema, response: { 200: PlanningAnchorListReply } },
    },
    async (request) => {
      const floor = await requireFloor(db, principalOf(request), request.body.floor_id);
      const rows = await db
        .select()
        .from(planningAnchors)
        .where(eq(planningAnchors.floorId, floor.id))
        .orderBy(sql`lower(${planningAnchors.anchorId})`, asc(planningAnchors.id));
      return ok(rows.map(toPlanningAnchor));
    },
  );

  app.post(
    '/installation/anchor/add',
    {
      preValidation: allow('installation', 'write'),
      schema: { body: PlanningAnchorAddBodySchema, response: { 200: PlanningAnchorReply } },
    },
    async (request) => {
      const body = request.body;
      const floor = await requireFloor(db, principalOf(request), body.floor_id);
      const anchorId = requiredAnchorId(body.anchor_id);
      const at = checkedMetadata(body.metadata, floor);
      const row = await addToFloor(
        db,
        PLANNING_ANCHORS,
        floor.id,
        anchorId,
        {
          max: INSTALLATION_LIMITS.planningAnchorsPerFloor,
          tooMany: installationMessages.tooManyPlanningAnchors,
        },
        async (tx) => {
          const [inserted] = await tx
            .insert(planningAnchors)
            .values({ floorId: floor.id, anchorId, lat: at.lat, long: at.long })
            .returning();
          return inserted;
        },
      );
      return ok(toPlanningAnchor(row), messages.created('Planning anchor'));
    },
  );

  app.post(
    '/installation/anchor/edit',
    {
      preValidation: allow('installation', 'write'),
      schema: { body: PlanningAnchorEditBodySchema, response: { 200: PlanningAnchorReply } },
    },
    async (request) => {
      const body = request.body;
      const { anchor, floor } = await requirePlanningAnchor(db, principalOf(request), body.id);
      const anchorId = body.anchor_id === undefined ? anchor.anchorId : requiredAnchorId(body.anchor_id);
      const at = body.metadata === undefined ? anchor : checkedMetadata(body.metadata, floor);
      if (await nameTaken(db, PLANNING_ANCHORS, floor.id, anchorId, anchor.id)) throw duplicate();
      const [row] = await duplicateAsConflict(PLANNING_ANCHORS, () =>
        db
          .update(planningAnchors)
          .set({ anchorId, lat: at.lat, long: at.long, updatedAt: new Date() })
          .where(eq(planningAnchors.id, anchor.id))
          .returning(),
      );
      if (!row) throw notFound('Planning anchor');
      return ok(toPlanningAnchor(row), installationMessages.planningAnchorUpdated);
    },
  );

  app.post(
    '/installation/anchor/delete',
    {
      preValidation: allow('installation', 'write'),
      schema: { body: InstallationIdBodySchema, response: { 200: DeletedIdReply } },
    },
    async (request) => {
      const { anchor } = await requirePlanningAnchor(db, principalOf(request), request.body.id);
      await db.delete(planningAnchors).where(eq(planningAnchors.id, anchor.id));
      return ok({ id: anchor.id }, messages.deleted('Planning anchor'));
    },
  );
};
