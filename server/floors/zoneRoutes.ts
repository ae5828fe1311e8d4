import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { and, asc, eq, inArray, type SQL, sql } from 'drizzle-orm';
import { Type } from 'typebox';
import type { LongLat, Zone } from '../../src/domain/floor';
import { cornerRing } from '../../src/domain/floorValidation';
import { messages } from '../../src/domain/messages';
import { openRing, polygonProblem } from '../../src/domain/polygon';
import {
  FloorZoneParamsSchema,
  ZoneBodySchema,
  ZoneEditBodySchema,
  ZoneSchema,
  ZoneSearchQuerySchema,
  zoneMessages,
} from '../../src/domain/schemas/floors';
import { IdParamsSchema, successOf } from '../../src/domain/schemas/sites';
import { allow, allowFloorPlanReaders } from '../auth/authenticate';
import { principalOf } from '../auth/principal';
import { requireSite } from '../auth/tenancy';
import { buildings, floors, zones } from '../db/schema';
import { done, ok } from '../http/envelope';
import { conflict, notFound, unprocessable } from '../http/errors';
import { requiredName } from '../http/input';
import type { Services } from '../services';
import { requireFloor, requireZone } from './floorAccess';
import { duplicateAsConflict, type NamedRows, nameTaken } from './namedRows';

type FloorRow = Awaited<ReturnType<typeof requireFloor>>;
type ZoneRow = typeof zones.$inferSelect;

const ZoneReply = successOf(ZoneSchema);
const ZoneListReply = successOf(Type.Array(ZoneSchema));
const duplicate = () => conflict(messages.duplicateName('Zone'));

function toZone(row: ZoneRow): Zone {
  return {
    id: row.id,
    floor_id: row.floorId,
    name: row.name,
    kind: row.kind as Zone['kind'],
    coordinates: row.coordinates,
    created_at: new Date(row.createdAt).toISOString(),
    updated_at: new Date(row.updatedAt).toISOString(),
  };
}

/** The ring as stored (open, no repeated vertices), or 422 when it is not a zone on this floor. */
function checkedRing(coordinates: LongLat[], floor: FloorRow): LongLat[] {
  const ring = openRing(coordinates);
  const corners = cornerRing({
    a: { lat: floor.aLat, long: floor.aLong },
    b: { lat: floor.bLat, long: floor.bLong },
    c: { lat: floor.cLat, long: floor.cLong },
    d: { lat: floor.dLat, long: floor.dLong },
  });
  // Building-sized areas: lat/long is a flat enough frame to test crossing and containment in.
  const problem = polygonProblem(ring, corners);
  if (problem) throw unprocessable({ coordinates: zoneMessages[problem] });
  return ring.map(([long, lat]) => [long, lat]);
}

const ZONES: NamedRows = { table: zones, id: zones.id, scope: zones.floorId, name: zones.name, duplicate };

function nameContains(search: string | undefined): SQL | undefined {
  const text = search?.trim();
  return text ? sql`strpos(lower(${zones.name}), lower(${text})) > 0` : undefined;
}

/** Zones: named polygons on a floor (spec §3 Zone, §7 "Buildings, floors, zones"). */
export const zoneRoutes: FastifyPluginAsyncTypebox<Services> = async (app, { db }) => {
  app.get(
    '/floors/:id/zones',
    {
      preValidation: allowFloorPlanReaders,
      schema: {
        params: IdParamsSchema,
        querystring: ZoneSearchQuerySchema,
        response: { 200: ZoneListReply },
      },
    },
    async (request) => {
      const floor = await requireFloor(db, principalOf(request), request.params.id);
      const rows = await db
        .select()
        .from(zones)
        .where(and(eq(zones.floorId, floor.id), nameContains(request.query.search)))
        .orderBy(sql`lower(${zones.name})`, asc(zones.id));
      return ok(rows.map(toZone));
    },
  );

  app.get(
    '/sites/:id/zones',
    {
      preValidation: allowFloorPlanReaders,
      schema: {
        params: IdParamsSchema,
        querystring: ZoneSearchQuerySchema,
        response: { 200: ZoneListReply },
      },
    },
    async (request) => {
      const site = await requireSite(db, principalOf(request), request.params.id);
      const floorsOfSite = sql`(select ${floors.id} from ${floors} join ${buildings} on ${buildings.id} = ${floors.buildingId} where ${buildings.siteId} = ${site.id})`;
      const rows = await db
        .select()
        .from(zones)
        .where(and(inArray(zones.floorId, floorsOfSite), nameContains(request.query.search)))
        .orderBy(asc(zones.floorId), sql`lower(${zones.name})`, asc(zones.id));
      return ok(rows.map(toZone));
    },
  );

  app.post(
    '/floors/:id/zones',
    {
      preValidation: allow('maps', 'write'),
      schema: { params: IdParamsSchema, body: ZoneBodySchema, response: { 200: ZoneReply } },
    },
    async (request) => {
      const floor = await requireFloor(db, principalOf(request), request.params.id);
      const name = requiredName(request.body.name);
      const coordinates = checkedRing(request.body.coordinates as LongLat[], floor);
      if (await nameTaken(db, ZONES, floor.id, name)) throw duplicate();
      const [row] = await duplicateAsConflict(ZONES, () =>
        db
          .insert(zones)
          .values({ floorId: floor.id, name, kind: request.body.kind, coordinates })
          .returning(),
      );
      return ok(toZone(row), messages.created('Zone'));
    },
  );

  app.post(
    '/floors/:id/zones/:zoneId',
    {
      preValidation: allow('maps', 'write'),
      schema: { params: FloorZoneParamsSchema, body: ZoneEditBodySchema, response: { 200: ZoneReply } },
    },
    async (request) => {
      const floor = await requireFloor(db, principalOf(request), request.params.id);
      const zone = await requireZone(db, floor.id, request.params.zoneId);
      const body = request.body;
      const name = body.name === undefined ? zone.name : requiredName(body.name);
      const coordinates =
        body.coordinates === undefined ? zone.coordinates : checkedRing(body.coordinates as LongLat[], floor);
      if (await nameTaken(db, ZONES, floor.id, name, zone.id)) throw duplicate();
      const [row] = await duplicateAsConflict(ZONES, () =>
        db
          .update(zones)
          .set({ name, kind: body.kind ?? zone.kind, coordinates, updatedAt: new Date() })
          .where(eq(zones.id, zone.id))
          .returning(),
      );
      if (!row) throw notFound('Zone');
      return ok(toZone(row), zoneMessages.updated);
    },
  );

  app.delete(
    '/floors/:id/zones/:zoneId',
    { preValidation: allow('maps', 'write'), schema: { params: FloorZoneParamsSchema } },
    async (request) => {
      const floor = await requireFloor(db, principalOf(request), request.params.id);
      const zone = await requireZone(db, floor.id, request.params.zoneId);
      await db.delete(zones).where(eq(zones.id, zone.id));
      return done(messages.deleted('Zone'));
    },
  );
};
