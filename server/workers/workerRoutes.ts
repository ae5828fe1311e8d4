import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { and, eq } from 'drizzle-orm';
import type { preHandlerHookHandler } from 'fastify';
import { can } from '../../src/domain/access';
import { messages } from '../../src/domain/messages';
import { personalDataReach } from '../../src/domain/personalData';
import { IdParamsSchema } from '../../src/domain/schemas/sites';
import {
  type WorkerBody,
  WorkerBodySchema,
  WorkerHelmetParamsSchema,
  WorkerListQuerySchema,
  WorkerParamsSchema,
} from '../../src/domain/schemas/workers';
import { WORKER_PICTURE_MAX_BYTES } from '../../src/domain/workers';
import {
  validateWorker,
  WORKER_LABELS,
  type WorkerFields,
  workerMessages,
} from '../../src/domain/workerValidation';
import { allow } from '../auth/authenticate';
import { type Principal, principalOf } from '../auth/principal';
import { requireSite } from '../auth/tenancy';
import type { Db } from '../db/database';
import { subcontractors, workerRoles, workers } from '../db/schema';
import { sniffImage } from '../floors/imageSniff';
import { done, ok } from '../http/envelope';
import { forbidden, HttpError, notFound, unprocessable } from '../http/errors';
import type { Services } from '../services';
import { currentCrewMembers } from '../workforce/currentCrewMembers';
import { assignHelmet, releaseWorkerHelmet, unassignHelmet } from './helmets';
import { WorkerListTotals } from './listTotals';
import { nestedWorker } from './nestedWorker';
import { workerPictureStore } from './pictureStore';
import { findWorker, listWorkers, workerStatistics } from './workerQueries';

const PICTURE_FIELD = 'picture';

const allowPictureReaders: preHandlerHookHandler = async (request) => {
  if (personalDataReach(principalOf(request).role, 'picture') === 'none') throw forbidden();
};
const imageRefused = (status: 413 | 415 | 422) =>
  new HttpError(status, workerMessages.image, { [PICTURE_FIELD]: workerMessages.image });

/** 422 with the spec §5 messages, or the checked fields; role and subcontractor must be the site's. */
async function checkedFields(db: Db, siteId: number, body: WorkerBody): Promise<WorkerFields> {
  const { fields, errors } = validateWorker(body);
  if (!fields) throw unprocessable(errors);
  const refErrors: Record<string, string> = {};
  if (fields.worker_role_id !== null) {
    const [role] = await db
      .select({ id: workerRoles.id })
      .from(workerRoles)
      .where(and(eq(workerRoles.id, fields.worker_role_id), eq(workerRoles.siteId, siteId)));
    if (!role) refErrors.worker_role_id = `${WORKER_LABELS.worker_role_id} is invalid`;
  }
  if (fields.subcontractor_id !== null) {
    const [sub] = await db
      .select({ id: subcontractors.id })
      .from(subcontractors)
      .where(and(eq(subcontractors.id, fields.subcontractor_id), eq(subcontractors.siteId, siteId)));
    if (!sub) refErrors.subcontractor_id = `${WORKER_LABELS.subcontractor_id} is invalid`;
  }
  if (Object.keys(refErrors).length > 0) throw unprocessable(refErrors);
  return fields;
}

const columnsOf = (fields: WorkerFields) => ({
  name: fields.name,
  workerTagId: fields.worker_tag_id,
  contactNumber: fields.contact_number,
  helmetColor: fields.helmet_color,
  workerRoleId: fields.worker_role_id,
  subcontractorId: fields.subcontractor_id,
});

/**
 * Workers of a site (spec §7 "Workers"): the list (flat form, paged, sorted, searched and
 * filtered), one worker (nested form), create, edit, delete, statistics, the profile picture and
 * the helmet. Crew managers see and change only the workers of the crews they manage (their
 * current crew); any other worker is 404 to them, and they cannot create workers (a new worker
 * has no crew yet, so it would vanish from their view).
 */
export const workerRoutes: FastifyPluginAsyncTypebox<Services> = async (app, { db, config }) => {
  const store = workerPictureStore(config.dataDir);
  // List totals reused while the site's workforce revision stands (see listTotals.ts).
  const listTotals = new WorkerListTotals();
  await app.register(multipart, {
    limits: { fileSize: WORKER_PICTURE_MAX_BYTES, files: 1, fields: 0, parts: 1 },
    throwFileSizeLimit: true,
  });

  async function siteAndWorker(principal: Principal, siteId: number, workerId: number) {
    const site = await requireSite(db, principal, siteId);
    const worker = await findWorker(db, principal, site, workerId);
    if (!worker) throw notFound(workerMessages.label);
    return { site, worker };
  }

  app.get(
    '/sites/:id/workers',
    {
      preValidation: allow('workers', 'open'),
      schema: { params: IdParamsSchema, querystring: WorkerListQuerySchema },
    },
    async (request) => {
      const principal = principalOf(request);
      const site = await requireSite(db, principal, request.params.id);
      const page = await listWorkers(db, principal, site, request.query, listTotals);
      return ok(page.items, undefined, page.meta);
    },
  );

  app.get(
    '/sites/:id/workers/statistics',
    { preValidation: allow('workers', 'open'), schema: { params: IdParamsSchema } },
    async (request) => {
      const principal = principalOf(request);
      const site = await requireSite(db, principal, request.params.id);
      return ok(await workerStatistics(db, principal, site));
    },
  );

  app.post(
    '/sites/:id/workers',
    { preValidation: allow('workers', 'write'), schema: { params: IdParamsSchema, body: WorkerBodySchema } },
    async (request) => {
      const principal = principalOf(request);
      const site = await requireSite(db, principal, request.params.id);
      if (!can(principal.role, 'write', 'workerCreation')) throw forbidden();
      const fields = await checkedFields(db, site.id, request.body);
      const [row] = await db
        .insert(workers)
        .values({ siteId: site.id, ...columnsOf(fields) })
        .returning({ id: workers.id });
      const created = await findWorker(db, principal, site, row.id);
      if (!created) throw notFound(workerMessages.label);
      return ok(await nestedWorker(db, created), messages.created(workerMessages.label));
    },
  );

  app.get(
    '/sites/:id/workers/:workerId',
    { preValidation: allow('workers', 'open'), schema: { params: WorkerParamsSchema } },
    async (request) => {
      const { worker } = await siteAndWorker(
        principalOf(request),
        request.params.id,
        request.params.workerId,
      );
      return ok(await nestedWorker(db, worker));
    },
  );

  app.post(
    '/sites/:id/workers/:workerId',
    {
      preValidation: allow('workers', 'write'),
      schema: { params: WorkerParamsSchema, body: WorkerBodySchema },
    },
    async (request) => {
      const principal = principalOf(request);
      const { site, worker } = await siteAndWorker(principal, request.params.id, request.params.workerId);
      const fields = await checkedFields(db, site.id, request.body);
      await db
        .update(workers)
        .set({ ...columnsOf(fields), updatedAt: new Date() })
        .where(eq(workers.id, worker.id));
      const updated = await findWorker(db, principal, site, worker.id);
      if (!updated) throw notFound(workerMessages.label);
      return ok(await nestedWorker(db, updated), workerMessages.updated);
    },
  );

  app.delete(
    '/sites/:id/workers/:workerId',
    { preValidation: allow('workers', 'write'), schema: { params: WorkerParamsSchema } },
    async (request) => {
      const principal = principalOf(request);
      const { worker } = await siteAndWorker(principal, request.params.id, request.params.workerId);
      const picture = await db.transaction(async (tx) => {
        await releaseWorkerHelmet(tx as unknown as Db, worker.id, principal.id, new Date());
        const [gone] = await tx
          .delete(workers)
          .where(eq(workers.id, worker.id))
          .returning({ picture: workers.pictureFile });
        return gone?.picture ?? null;
      });
      await store.remove(picture);
      return done(messages.deleted(workerMessages.label));
    },
  );

  app.post(
    '/sites/:id/workers/:workerId/picture',
    { preValidation: allow('workers', 'write'), schema: { params: WorkerParamsSchema } },
    async (request) => {
      const principal = principalOf(request);
      const { site, worker } = await siteAndWorker(principal, request.params.id, request.params.workerId);
      if (!request.isMultipart()) throw imageRefused(415);
      let file: { bytes: Buffer; fileName: string } | null = null;
      try {
        for await (const part of request.parts()) {
          if (part.type !== 'file') continue;
          const bytes = await part.toBuffer();
          if (part.fieldname === PICTURE_FIELD && (bytes.length > 0 || part.filename)) {
            file = { bytes, fileName: part.filename };
          }
        }
      } catch (error) {
        if (error instanceof HttpError) throw error;
        const code = (error as { code?: string }).code;
        if (code === 'FST_REQ_FILE_TOO_LARGE' || (error as { statusCode?: number }).statusCode === 413) {
          throw imageRefused(413);
        }
        throw imageRefused(422);
      }
      if (!file) throw unprocessable({ [PICTURE_FIELD]: messages.required('Picture') });
      const sniffed = sniffImage(file.bytes);
      const extension = /\.([^.]+)$/.exec(file.fileName)?.[1]?.toLowerCase();
      if (!sniffed || (extension !== undefined && !['png', 'jpg', 'jpeg'].includes(extension))) {
        throw imageRefused(415);
      }
      const [old] = await db
        .select({ picture: workers.pictureFile })
        .from(workers)
        .where(eq(workers.id, worker.id));
      const fileName = await store.write(file.bytes, sniffed.extension);
      try {
        await db
          .update(workers)
          .set({ pictureFile: fileName, updatedAt: new Date() })
          .where(eq(workers.id, worker.id));
      } catch (error) {
        await store.remove(fileName);
        throw error;
      }
      await store.remove(old?.picture);
      const updated = await findWorker(db, principal, site, worker.id);
      return ok({ media_url: updated?.media_url ?? null }, workerMessages.updated);
    },
  );

  app.get(
    '/sites/:id/workers/:workerId/picture',
    // Whoever sees the worker's name sees its picture (src/domain/personalData.ts, `picture`).
    { preValidation: allowPictureReaders, schema: { params: WorkerParamsSchema } },
    async (request, reply) => {
      const principal = principalOf(request);
      const site = await requireSite(db, principal, request.params.id);
      const [row] = await db
        .select({ picture: workers.pictureFile })
        .from(workers)
        .where(and(eq(workers.id, request.params.workerId), eq(workers.siteId, site.id)));
      if (!row) throw notFound(workerMessages.label);
      if (personalDataReach(principal.role, 'picture') === 'currentCrews') {
        const members = await currentCrewMembers(db, principal.id, site, [request.params.workerId]);
        if (!members.has(request.params.workerId)) throw notFound(workerMessages.label);
      }
      const bytes = row.picture ? await store.read(row.picture) : null;
      const sniffed = bytes ? sniffImage(bytes) : null;
      if (!bytes || !sniffed) throw notFound('Picture');
      return reply
        .header('cache-control', 'no-cache')
        .header('x-content-type-options', 'nosniff')
        .type(sniffed.mime)
        .send(bytes);
    },
  );

  app.post(
    '/sites/:id/workers/:workerId/inventories/assign/:helmetId',
    { preValidation: allow('workers', 'write'), schema: { params: WorkerHelmetParamsSchema } },
    async (request) => {
      const principal = principalOf(request);
      const { site, worker } = await siteAndWorker(principal, request.params.id, request.params.workerId);
      await assignHelmet(db, {
        siteId: site.id,
        workerId: worker.id,
        helmetId: request.params.helmetId,
        userId: principal.id,
      });
      return done(workerMessages.helmetAssigned);
    },
  );

  app.post(
    '/sites/:id/workers/:workerId/inventories/unassign',
    { preValidation: allow('workers', 'write'), schema: { params: WorkerParamsSchema } },
    async (request) => {
      const principal = principalOf(request);
      const { worker } = await siteAndWorker(principal, request.params.id, request.params.workerId);
      if (!(await unassignHelmet(db, worker.id, principal.id))) {
        throw unprocessable({ inventory_id: workerMessages.noHelmet });
      }
      return done(workerMessages.helmetUnassigned);
    },
  );
};
