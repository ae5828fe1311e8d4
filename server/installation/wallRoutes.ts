import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { and, asc, eq, type SQL, sql } from 'drizzle-orm';
import { messages } from '../../src/domain/messages';
import type { RadioSettings, Wall } from '../../src/domain/schemas/installation';
import {
  DeletedIdReply,
  INSTALLATION_LIMITS,
  InstallationIdBodySchema,
  installationMessages,
  WallAddBodySchema,
  WallEditBodySchema,
  WallGetAllBodySchema,
  WallListReply,
  WallReply,
} from '../../src/domain/schemas/installation';
import { type WallPolylineProblem, wallPolylineProblem } from '../../src/domain/wallGeometry';
import { allow } from '../auth/authenticate';
import { principalOf } from '../auth/principal';
import type { Db } from '../db/database';
import { walls } from '../db/schema';
import { requireFloor } from '../floors/floorAccess';
import { addToFloor, duplicateAsConflict, type NamedRows, nameTaken } from '../floors/namedRows';
import { ok } from '../http/envelope';
import { conflict, notFound, unprocessable } from '../http/errors';
import { requiredName } from '../http/input';
import type { Services } from '../services';
import { type FloorRow, floorRingOf, requireWall } from './installationAccess';
import { loadRadioSettings } from './radioSettingsStore';

type WallRow = typeof walls.$inferSelect;
type LongLatPoint = [number, number];

const duplicate = () => conflict(messages.duplicateName('Wall'));

const PROBLEM_MESSAGES: Record<WallPolylineProblem, string> = {
  tooFewPoints: installationMessages.wallTooFewPoints,
  tooManyPoints: installationMessages.wallTooManyPoints,
  zeroLengthSegment: installationMessages.wallZeroLengthSegment,
  outside: installationMessages.wallOutside,
};

export function toWall(row: WallRow, settings: RadioSettings): Wall {
  const material = row.material as Wall['material'];
  return {
    id: row.id,
    floor_id: row.floorId,
    name: row.name,
    material,
    attenuation_db: settings.model.wallAttenuationDb[material],
    points: row.points,
    created_at: new Date(row.createdAt).toISOString(),
    updated_at: new Date(row.updatedAt).toISOString(),
  };
}

/** The polyline as stored, or 422 when it is not a wall on this floor. */
function checkedPoints(points: LongLatPoint[], floor: FloorRow): LongLatPoint[] {
  const problem = wallPolylineProblem(points, floorRingOf(floor));
  if (problem) throw unprocessable({ points: PROBLEM_MESSAGES[problem] });
  return points.map(([long, lat]) => [long, lat]);
}

function nameContains(search: string | undefined): SQL | undefined {
  const text = search?.trim();
  return text ? sql`strpos(lower(${walls.name}), lower(${text})) > 0` : undefined;
}

const WALLS: NamedRows = {
  table: walls,
  id: walls.id,
  scope: walls.floorId,
  name: walls.name,
  duplicate,
};

/** Walls of a floor (issue 19, spec §7 "Installation planning"): polylines with a material. */
export const wallRoutes: FastifyPluginAsyncTypebox<Services> = async (app, { db }) => {
  app.post(
    '/installation/wall/getAll',
    {
      preValidation: allow('installation', 'open'),
      schema: { body: WallGetAllBodySchema, response: { 200: WallListReply } },
    },
    async (request) => {
      const floor = await requireFloor(db, principalOf(request), request.body.floor_id);
      const settings = await loadRadioSettings(db, floor.siteId);
      const rows = await db
        .select()
        .from(walls)
        .where(and(eq(walls.floorId, floor.id), nameContains(request.body.search)))
        .orderBy(sql`lower(${walls.name})`, asc(walls.id));
      return ok(rows.map((row) => toWall(row, settings)));
    },
  );

  app.post(
    '/installation/wall/add',
    {
      preValidation: allow('installation', 'write'),
      schema: { body: WallAddBodySchema, response: { 200: WallReply } },
    },
    async (request) => {
      const body = request.body;
      const floor = await requireFloor(db, principalOf(request), body.floor_id);
      const name = requiredName(body.name);
      const points = checkedPoints(body.points as LongLatPoint[], floor);
      const settings = await loadRadioSettings(db, floor.siteId);
      const row = await addToFloor(
        db,
        WALLS,
        floor.id,
        name,
        { max: INSTALLATION_LIMITS.wallsPerFloor, tooMany: installationMessages.tooManyWalls },
        async (tx) => {
          const [inserted] = await tx
            .insert(walls)
            .values({ floorId: floor.id, name, material: body.material, points })
            .returning();
          return inserted;
        },
      );
      return ok(toWall(row, settings), messages.created('Wall'));
    },
  );

  app.post(
    '/installation/wall/edit',
    {
      preValidation: allow('installation', 'write'),
      schema: { body: WallEditBodySchema, response: { 200: WallReply } },
    },
    async (request) => {
      const body = request.body;
      const { wall, floor } = await requireWall(db, principalOf(request), body.id);
      const name = body.name === undefined ? wall.name : requiredName(body.name);
      const points =
        body.points === undefined ? wall.points : checkedPoints(body.points as LongLatPoint[], floor);
      if (await nameTaken(db, WALLS, floor.id, name, wall.id)) throw duplicate();
      const settings = await loadRadioSettings(db, floor.siteId);
      const [row] = await duplicateAsConflict(WALLS, () =>
        db
          .update(walls)
          .set({ name, material: body.material ?? wall.material, points, updatedAt: new Date() })
          .where(eq(walls.id, wall.id))
          .returning(),
      );
      if (!row) throw notFound('Wall');
      return ok(toWall(row, settings), installationMessages.wallUpdated);
    },
  );

  app.post(
    '/installation/wall/delete',
    {
      preValidation: allow('installation', 'write'),
      schema: { body: InstallationIdBodySchema, response: { 200: DeletedIdReply } },
    },
    async (request) => {
      const { wall } = await requireWall(db, principalOf(request), request.body.id);
      await db.delete(walls).where(eq(walls.id, wall.id));
      return ok({ id: wall.id }, messages.deleted('Wall'));
    },
  );
};

/** The floor's walls, for the simulation. */
export function wallsOfFloor(db: Db, floorId: number) {
  return db.select().from(walls).where(eq(walls.floorId, floorId)).orderBy(asc(walls.id));
}
