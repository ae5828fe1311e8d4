import { randomUUID } from 'node:crypto';
import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import {
  BULK_KIND_DEFINITIONS,
  BULK_MESSAGES,
  type BulkKind,
  type BulkKindDefinition,
  bulkKind,
  bulkListPath,
} from '../../src/domain/bulkKinds';
import {
  UploadDraftSchema,
  UploadIdSchema,
  UploadListQuerySchema,
  type UploadMode,
  UploadQuerySchema,
  UploadRowsQuerySchema,
  UploadSummarySchema,
} from '../../src/domain/schemas/bulk';
import { IdParamsSchema, IdSchema, successOf } from '../../src/domain/schemas/sites';
import { withoutControlCharacters } from '../../src/domain/text';
import { checkUploadFile, MAX_UPLOAD_BYTES, UPLOAD_FILE_MESSAGES } from '../../src/domain/uploadFile';
import { allow } from '../auth/authenticate';
import { principalOf } from '../auth/principal';
import { requireSite } from '../auth/tenancy';
import type { Db } from '../db/database';
import { ok } from '../http/envelope';
import { HttpError } from '../http/errors';
import type { Services } from '../services';
import { rejectedRowsWorkbook } from './rejectedRowsWorkbook';
import { loadSiteLists } from './siteLists';
import { templateWorkbook } from './templateWorkbook';
import { UploadHasErrors, UploadService } from './uploadService';
import { UploadFileRejected } from './xlsxReader';

const FILE_FIELD = 'file';
const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const SummaryReply = successOf(UploadSummarySchema);
const UploadParamsSchema = Type.Object({ id: IdSchema, uploadId: UploadIdSchema });
const SiteFreeTemplateQuerySchema = Type.Object({ site_id: Type.Optional(IdSchema) });

const fileName = (kind: BulkKind, what: string) => `${kind}-${what}.xlsx`;

function sendWorkbook(reply: FastifyReply, bytes: Buffer, name: string) {
  return reply
    .header('content-type', XLSX_TYPE)
    .header('content-disposition', `attachment; filename="${name}"`)
    .header('cache-control', 'no-store')
    .send(bytes);
}

/** A kind's template with the drop-down lists of a site the caller may see. */
async function sendSiteTemplate(
  db: Db,
  request: FastifyRequest,
  reply: FastifyReply,
  siteId: number,
  definition: BulkKindDefinition,
) {
  const site = await requireSite(db, principalOf(request), siteId);
  const lists = await loadSiteLists(db, site, definition);
  return sendWorkbook(
    reply,
    await templateWorkbook(definition, lists),
    fileName(definition.kind, 'template'),
  );
}

/** The one .xlsx of a multipart upload, read into memory up to the spec's 10 MB. */
async function uploadedFile(request: FastifyRequest): Promise<{ name: string; bytes: Buffer }> {
  if (!request.isMultipart()) throw new HttpError(415, UPLOAD_FILE_MESSAGES.wrongType);
  let file: { name: string; bytes: Buffer } | null = null;
  try {
    for await (const part of request.parts()) {
      if (part.type !== 'file') continue;
      if (file !== null || part.fieldname !== FILE_FIELD) {
        await part.toBuffer();
        throw new HttpError(422, BULK_MESSAGES.oneFile);
      }
      // The name is only shown back: control characters (a NUL PostgreSQL cannot store) are dropped.
      file = { name: withoutControlCharacters(part.filename ?? ''), bytes: await part.toBuffer() };
    }
  } catch (error) {
    if (error instanceof HttpError) throw error;
    const code = (error as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE' || (error as { statusCode?: number }).statusCode === 413) {
      throw new HttpError(413, UPLOAD_FILE_MESSAGES.tooLarge);
    }
    if (code === 'FST_FILES_LIMIT') throw new HttpError(422, BULK_MESSAGES.oneFile);
    throw new HttpError(400, 'The upload could not be read');
  }
  if (!file) throw new HttpError(422, 'Excel file is required');
  const check = checkUploadFile({
    name: file.name,
    size: file.bytes.length,
    head: file.bytes.subarray(0, 8),
  });
  if (check === 1) throw new HttpError(415, UPLOAD_FILE_MESSAGES.wrongType);
  if (check === 2) throw new HttpError(413, UPLOAD_FILE_MESSAGES.tooLarge);
  return file;
}

/** Aborted when the client goes away before the reply: a cancelled upload stops reading its file. */
function clientGone(reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  reply.raw.once('close', () => {
    if (!reply.raw.writableFinished) controller.abort();
  });
  return controller.signal;
}

async function runUpload(
  service: UploadService,
  db: Db,
  request: FastifyRequest,
  reply: FastifyReply,
  options: { siteId: number; definition: BulkKindDefinition; uploadId: string; mode: UploadMode },
) {
  const principal = principalOf(request);
  const site = await requireSite(db, principal, options.siteId);
  const file = await uploadedFile(request);
  try {
    const summary = await service.upload({
      site,
      userId: principal.id,
      definition: options.definition,
      uploadId: options.uploadId,
      fileName: file.name,
      bytes: file.bytes,
      mode: options.mode,
      signal: clientGone(reply),
    });
    return reply.header('cache-control', 'no-store').send(ok(summary));
  } catch (error) {
    if (error instanceof UploadFileRejected) throw new HttpError(error.statusCode, error.message);
    if (error instanceof UploadHasErrors)
      return reply.code(422).send({ status: 'error', message: error.message, data: error.upload });
    throw error;
  }
}

async function registerMultipart(app: Parameters<FastifyPluginAsyncTypebox<Services>>[0]) {
  await app.register(multipart, {
    // One byte over the limit is still read, so the reply can say the file is too large.
    limits: { fileSize: MAX_UPLOAD_BYTES, files: 2, fields: 4, parts: 6 },
    throwFileSizeLimit: true,
  });
}

/**
 * The bulk sub-API (spec §7 "/bulk/api"): per kind an upload ending in the client's id of the file,
 * a list of past uploads and the template; then the draft's rows, commit, cancel and the rejected
 * rows. Bulk uploads are for the admin roles (DESIGN.md §4 "bulk uploads").
 */
export const bulkApiRoutes: FastifyPluginAsyncTypebox<Services> = async (app, { db }) => {
  const service = new UploadService(db);
  await registerMultipart(app);
  app.addHook('onSend', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
  });

  /** A page of the site's past uploads, newest first, of one kind or all. */
  async function pastUploads(
    request: FastifyRequest,
    siteId: number,
    query: { page?: number; perPage?: number },
    kind: BulkKind | undefined,
  ) {
    const site = await requireSite(db, principalOf(request), siteId);
    const page = query.page ?? 1;
    const perPage = query.perPage ?? 50;
    const [items, total] = await Promise.all([
      service.summaries(site.id, { kind, page, perPage }),
      service.countSummaries(site.id, kind),
    ]);
    return ok(items, undefined, { page, perPage, total });
  }

  for (const definition of BULK_KIND_DEFINITIONS) {
    app.post(
      `/sites/:id/${definition.bulkPath}/:uploadId`,
      {
        preValidation: allow('bulkUploads', 'write'),
        schema: {
          params: UploadParamsSchema,
          querystring: UploadQuerySchema,
          response: { 200: SummaryReply },
        },
      },
      (request, reply) =>
        runUpload(service, db, request, reply, {
          siteId: request.params.id,
          definition,
          uploadId: request.params.uploadId,
          mode: request.query.mode ?? 'draft',
        }),
    );

    app.get(
      `/sites/:id/${bulkListPath(definition)}`,
      {
        preValidation: allow('bulkUploads', 'open'),
        schema: {
          params: IdParamsSchema,
          querystring: UploadListQuerySchema,
          response: { 200: successOf(Type.Array(UploadSummarySchema)) },
        },
      },
      (request) => pastUploads(request, request.params.id, request.query, definition.kind),
    );

    app.get(
      `/sites/:id/${definition.bulkPath}/template`,
      { preValidation: allow('bulkUploads', 'open'), schema: { params: IdParamsSchema } },
      (request, reply) => sendSiteTemplate(db, request, reply, request.params.id, definition),
    );

    if (definition.siteFreeTemplatePath) {
      app.get(
        `/${definition.siteFreeTemplatePath}`,
        { preValidation: allow('bulkUploads', 'open'), schema: { querystring: SiteFreeTemplateQuerySchema } },
        async (request, reply) => {
          const siteId = request.query.site_id;
          const lists =
            siteId === undefined
              ? null
              : await loadSiteLists(db, await requireSite(db, principalOf(request), siteId), definition);
          return sendWorkbook(
            reply,
            await templateWorkbook(definition, lists),
            fileName(definition.kind, 'template'),
          );
        },
      );
    }
  }

  app.get(
    '/sites/:id/uploads',
    {
      preValidation: allow('bulkUploads', 'open'),
      schema: {
        params: IdParamsSchema,
        querystring: UploadListQuerySchema,
        response: { 200: successOf(Type.Array(UploadSummarySchema)) },
      },
    },
    (request) => pastUploads(request, request.params.id, request.query, request.query.kind),
  );

  app.get(
    '/sites/:id/uploads/:uploadId',
    {
      preValidation: allow('bulkUploads', 'open'),
      schema: {
        params: UploadParamsSchema,
        querystring: UploadRowsQuerySchema,
        response: { 200: successOf(UploadDraftSchema) },
      },
    },
    async (request) => {
      const site = await requireSite(db, principalOf(request), request.params.id);
      const page = request.query.page ?? 1;
      const perPage = request.query.perPage ?? 100;
      const upload = await service.summary(site.id, request.params.uploadId);
      const { rows, total } = await service.rows(site.id, upload.id, {
        page,
        perPage,
        errorsOnly: request.query.errors_only ?? false,
      });
      return ok({ upload, rows }, undefined, { page, perPage, total });
    },
  );

  app.post(
    '/sites/:id/uploads/:uploadId/commit',
    { preValidation: allow('bulkUploads', 'write'), schema: { params: UploadParamsSchema } },
    async (request, reply) => {
      const principal = principalOf(request);
      const site = await requireSite(db, principal, request.params.id);
      try {
        const summary = await service.commit(site, request.params.uploadId, principal.id);
        return ok(summary, 'Upload Success');
      } catch (error) {
        if (error instanceof UploadHasErrors)
          return reply.code(422).send({ status: 'error', message: error.message, data: error.upload });
        throw error;
      }
    },
  );

  app.post(
    '/sites/:id/uploads/:uploadId/cancel',
    {
      preValidation: allow('bulkUploads', 'write'),
      schema: { params: UploadParamsSchema, response: { 200: SummaryReply } },
    },
    async (request) => {
      const site = await requireSite(db, principalOf(request), request.params.id);
      return ok(await service.cancel(site, request.params.uploadId));
    },
  );

  app.get(
    '/sites/:id/uploads/:uploadId/rejected',
    { preValidation: allow('bulkUploads', 'open'), schema: { params: UploadParamsSchema } },
    async (request, reply) => {
      const site = await requireSite(db, principalOf(request), request.params.id);
      const { upload, rows } = await service.rejectedRows(site.id, request.params.uploadId);
      const bytes = await rejectedRowsWorkbook(bulkKind(upload.kind), rows);
      return sendWorkbook(reply, bytes, fileName(upload.kind, `rejected-rows-${upload.id.slice(0, 8)}`));
    },
  );
};

/**
 * The main API's template and upload calls of spec §7 ("Workers", "Work shifts, crews, groups",
 * "Worker status", "Productivity" templates): the same uploads as the bulk sub-API, the upload's
 * id taken from `upload_id` or made here.
 */
export const bulkMainRoutes: FastifyPluginAsyncTypebox<Services> = async (app, { db }) => {
  const service = new UploadService(db);
  await registerMultipart(app);

  for (const definition of BULK_KIND_DEFINITIONS) {
    app.get(
      `/sites/:id/${definition.mainTemplatePath}`,
      { preValidation: allow('bulkUploads', 'open'), schema: { params: IdParamsSchema } },
      (request, reply) => sendSiteTemplate(db, request, reply, request.params.id, definition),
    );
    if (!definition.mainUploadPath) continue;
    app.post(
      `/sites/:id/${definition.mainUploadPath}`,
      {
        preValidation: allow('bulkUploads', 'write'),
        schema: { params: IdParamsSchema, querystring: UploadQuerySchema, response: { 200: SummaryReply } },
      },
      (request, reply) =>
        runUpload(service, db, request, reply, {
          siteId: request.params.id,
          definition,
          uploadId: request.query.upload_id ?? randomUUID(),
          mode: request.query.mode ?? 'draft',
        }),
    );
  }
};
