import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { HistoryChunkSchema } from '../../src/domain/schemas/analytics';
import { IdParamsSchema, successOf } from '../../src/domain/schemas/sites';
import { SafeString } from '../../src/domain/text';
import { allow } from '../auth/authenticate';
import { principalOf } from '../auth/principal';
import { requireFloor } from '../floors/floorAccess';
import { ok } from '../http/envelope';
import type { Services } from '../services';
import { decodeCursor, parseWorkerIds, readHistoryChunk } from './historyQueries';
import { parseWindow, WindowQueryFields } from './historyWindow';

export const HistoryQuerySchema = Type.Object({
  ...WindowQueryFields,
  /** Worker ids separated by commas (at most 1,000). */
  workerIds: Type.Optional(SafeString({ minLength: 1, maxLength: 11_000 })),
  /** The previous chunk's `nextCursor`. */
  cursor: Type.Optional(SafeString({ minLength: 1, maxLength: 100 })),
});

/**
 * GET /api/floors/{id}/history?from&to[&workerIds=1,2][&cursor] (issue 16: playback and
 * spaghetti). Analytics readers only; another tenant's floor is 404. Helmets and workers travel as
 * ids only, never names (personal data stays with the worker routes).
 *
 * The reply is serialized with JSON.stringify, not the schema-compiled serializer: a chunk is six
 * arrays of up to 50,000 integers, which V8's native stringify writes faster (measured in
 * bench/playbackSeek.bench.ts). The schema below still documents the reply.
 */
export const historyRoutes: FastifyPluginAsyncTypebox<Services> = async (app, { db }) => {
  app.get(
    '/floors/:id/history',
    {
      preValidation: allow('analytics', 'open'),
      schema: {
        params: IdParamsSchema,
        querystring: HistoryQuerySchema,
        response: { 200: successOf(HistoryChunkSchema) },
      },
    },
    async (request, reply) => {
      const floor = await requireFloor(db, principalOf(request), request.params.id);
      const window = parseWindow(request.query);
      const workerIds = parseWorkerIds(request.query.workerIds);
      const cursor =
        request.query.cursor === undefined ? undefined : decodeCursor(request.query.cursor, window);
      const chunk = await readHistoryChunk(db, { floor, window, workerIds, cursor });
      // JSON.stringify for this reply instead of the schema-compiled serializer (see above).
      return reply.serializer(JSON.stringify).send(ok(chunk));
    },
  );
};
