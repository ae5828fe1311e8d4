import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { eq, inArray, sql } from 'drizzle-orm';
import { Type } from 'typebox';
import { FLOOR_IMAGE_MAX_BYTES, type FloorFields, floorMessages } from '../../src/domain/floorValidation';
import {
  BuildingFloorParamsSchema,
  FloorSchema,
  SiteFloorsQuerySchema,
} from '../../src/domain/schemas/floors';
import { IdParamsSchema, successOf } from '../../src/domain/schemas/sites';
import { allow, allowFloorPlanReaders } from '../auth/authenticate';
import { principalOf } from '../auth/principal';
import { requireBuilding, requireSite } from '../auth/tenancy';
import { buildings, floors, zones } from '../db/schema';
import { ok } from '../http/envelope';
import { notFound } from '../http/errors';
import type { Services } from '../services';
import { blueprintStore } from './blueprintStore';
import { requireFloor } from './floorAccess';
import { readFloorForm } from './floorForm';
import { floorById, listFloors } from './floorRows';

const FloorReply = successOf(FloorSchema);
const FloorListReply = successOf(Type.Array(FloorSchema));
/** The longest name a floor may have, so "<name> (copy)" still fits. */
const NAME_MAX = 100;
const COPY_SUFFIX = ' (copy)';

function floorValues(fields: FloorFields) {
  const { a, b, c, d } = fields.coordinates;
  return {
    name: fields.name,
    altitude: fields.altitude,
    category: fields.category,
    aLat: a.lat,
    aLong: a.long,
    bLat: b.lat,
    bLong: b.long,
    cLat: c.lat,
    cLong: c.long,
    dLat: d.lat,
    dLong: d.long,
    // Blank keeps the floor's cell size; a new one affects only rollups written from then on.
    ...(fields.cellSizeMetres === undefined ? {} : { cellSizeMetres: fields.cellSizeMetres }),
  };
}

/**
 * Floors of a building and their blueprints (spec §7 "Buildings, floors, zones"). Create and
 * edit are multipart forms; the image is written only after the form passed its checks, and
 * removed again when the row cannot be written.
 */
export const floorRoutes: FastifyPluginAsyncTypebox<Services> = async (app, { db, config }) => {
  const store = blueprintStore(config.dataDir);
  // Scoped to this plugin: only floor forms take multipart bodies.
  await app.register(multipart, {
    limits: { fileSize: FLOOR_IMAGE_MAX_BYTES, files: 1, fields: 30, parts: 31, fieldSize: 1000 },
    throwFileSizeLimit: true,
  });

  app.get(
    '/buildings/:id/floors',
    {
      preValidation: allowFloorPlanReaders,
      schema: { params: IdParamsSchema, response: { 200: FloorListReply } },
    },
    async (request) => {
      const building = await requireBuilding(db, principalOf(request), request.params.id);
      return ok(await listFloors(db, eq(floors.buildingId, building.id)));
    },
  );

  app.get(
    '/sites/:id/floors',
    {
      preValidation: allowFloorPlanReaders,
      schema: {
        params: IdParamsSchema,
        querystring: SiteFloorsQuerySchema,
        response: { 200: FloorListReply },
      },
    },
    async (request) => {
      const site = await requireSite(db, principalOf(request), request.params.id);
      const inSite = inArray(
        floors.buildingId,
        sql`(select ${buildings.id} from ${buildings} where ${buildings.siteId} = ${site.id})`,
      );
      return ok(await listFloors(db, inSite, request.query.sort === 'altitude,asc'));
    },
  );

  app.post(
    '/buildings/:id/floors',
    {
      preValidation: allow('maps', 'write'),
      schema: { params: IdParamsSchema, response: { 200: FloorReply } },
    },
    async (request) => {
      const building = await requireBuilding(db, principalOf(request), request.params.id);
      const { fields, image } = await readFloorForm(request, true);
      if (!image) throw new Error('unreachable: the form requires an image');
      const fileName = await store.write(image.bytes, image.sniffed.extension);
      try {
        const [row] = await db
          .insert(floors)
          .values({
            ...floorValues(fields),
            buildingId: building.id,
            blueprintFile: fileName,
            blueprintMime: image.sniffed.mime,
            blueprintWidth: image.sniffed.width,
            blueprintHeight: image.sniffed.height,
          })
          .returning({ id: floors.id });
        return ok(await floorById(db, row.id), floorMessages.created);
      } catch (error) {
        await store.remove(fileName);
        throw error;
      }
    },
  );

  app.get(
    '/buildings/:id/floors/:floorId',
    {
      preValidation: allowFloorPlanReaders,
      schema: { params: BuildingFloorParamsSchema, response: { 200: FloorReply } },
    },
    async (request) => {
      const floor = await requireFloor(db, principalOf(request), request.params.floorId, request.params.id);
      return ok(await floorById(db, floor.id));
    },
  );

  app.post(
    '/buildings/:id/floors/:floorId',
    {
      preValidation: allow('maps', 'write'),
      schema: { params: BuildingFloorParamsSchema, response: { 200: FloorReply } },
    },
    async (request) => {
      const floor = await requireFloor(db, principalOf(request), request.params.floorId, request.params.id);
      const { fields, image } = await readFloorForm(request, false);
      const fileName = image ? await store.write(image.bytes, image.sniffed.extension) : null;
      try {
        const updated = await db
          .update(floors)
          .set({
            ...floorValues(fields),
            ...(image && fileName
              ? {
                  blueprintFile: fileName,
                  blueprintMime: image.sniffed.mime,
                  blueprintWidth: image.sniffed.width,
                  blueprintHeight: image.sniffed.height,
                }
              : {}),
            updatedAt: new Date(),
          })
          .where(eq(floors.id, floor.id))
          .returning({ id: floors.id });
        // Deleted by someone else between the check and the update.
        if (updated.length === 0) throw notFound('Floor');
      } catch (error) {
        await store.remove(fileName);
        throw error;
      }
      if (fileName) await store.remove(floor.blueprintFile);
      return ok(await floorById(db, floor.id), floorMessages.updated);
    },
  );

  app.delete(
    '/buildings/:id/floors/:floorId',
    {
      preValidation: allow('maps', 'write'),
      schema: { params: BuildingFloorParamsSchema, response: { 200: FloorListReply } },
    },
    async (request) => {
      const floor = await requireFloor(db, principalOf(request), request.params.floorId, request.params.id);
      // Zones go with the floor (on delete cascade); devices on it keep their rows, floor unset.
      await db.delete(floors).where(eq(floors.id, floor.id));
      await store.remove(floor.blueprintFile);
      return ok(await listFloors(db, eq(floors.buildingId, floor.buildingId)), floorMessages.deleted);
    },
  );

  app.post(
    '/buildings/:id/floors/:floorId/duplicate',
    {
      preValidation: allow('maps', 'write'),
      schema: { params: BuildingFloorParamsSchema, response: { 200: FloorReply } },
    },
    async (request) => {
      const floor = await requireFloor(db, principalOf(request), request.params.floorId, request.params.id);
      const fileName = floor.blueprintFile ? await store.copy(floor.blueprintFile) : null;
      try {
        const id = await db.transaction(async (tx) => {
          const { id: _id, createdAt: _c, updatedAt: _u, siteId: _s, ...fields } = floor;
          const [copy] = await tx
            .insert(floors)
            .values({
              ...fields,
              name: `${floor.name.slice(0, NAME_MAX - COPY_SUFFIX.length)}${COPY_SUFFIX}`,
              blueprintFile: fileName,
              ...(fileName ? {} : { blueprintMime: null, blueprintWidth: null, blueprintHeight: null }),
            })
            .returning({ id: floors.id });
          const floorZones = await tx.select().from(zones).where(eq(zones.floorId, floor.id));
          if (floorZones.length > 0) {
            await tx.insert(zones).values(
              floorZones.map((zone) => ({
                floorId: copy.id,
                name: zone.name,
                kind: zone.kind,
                coordinates: zone.coordinates,
              })),
            );
          }
          return copy.id;
        });
        return ok(await floorById(db, id), floorMessages.duplicated);
      } catch (error) {
        await store.remove(fileName);
        throw error;
      }
    },
  );

  app.get(
    '/buildings/:id/floors/:floorId/blueprint',
    { preValidation: allowFloorPlanReaders, schema: { params: BuildingFloorParamsSchema } },
    async (request, reply) => {
      const floor = await requireFloor(db, principalOf(request), request.params.floorId, request.params.id);
      const bytes = floor.blueprintFile ? await store.read(floor.blueprintFile) : null;
      if (!bytes || !floor.blueprintMime) throw notFound('Blueprint');
      return reply
        .header('cache-control', 'no-cache')
        .header('x-content-type-options', 'nosniff')
        .type(floor.blueprintMime)
        .send(bytes);
    },
  );
};
