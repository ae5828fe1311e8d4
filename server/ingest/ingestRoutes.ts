import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { and, asc, eq, isNull } from 'drizzle-orm';
import type { preHandlerHookHandler } from 'fastify';
import { Type } from 'typebox';
import { canManageDeviceTokens } from '../../src/domain/deviceTokenAccess';
import { countByReason } from '../../src/domain/ingestValidation';
import { messages } from '../../src/domain/messages';
import {
  CreateDeviceTokenBodySchema,
  CreatedDeviceTokenSchema,
  DeviceTokenParamsSchema,
  DeviceTokenSchema,
  INGEST_BATCH_MAX,
  IngestParamsSchema,
  IngestPositionsBodySchema,
  IngestResultSchema,
} from '../../src/domain/schemas/ingest';
import { IdParamsSchema, MAX_ROW_ID, successOf } from '../../src/domain/schemas/sites';
import { bearerToken } from '../auth/authenticate';
import { principalOf } from '../auth/principal';
import { requireSite } from '../auth/tenancy';
import { hashToken } from '../auth/tokens';
import type { Db } from '../db/database';
import { deviceTokens } from '../db/schema';
import { ok } from '../http/envelope';
import { forbidden, HttpError, notFound, unauthorized } from '../http/errors';
import { requiredName } from '../http/input';
import { createDeviceToken } from '../mqtt/deviceCredentials';
import type { Services } from '../services';
import { ingestPositionEntries } from './ingestMessage';
import { publishCommitted } from './publishChanges';

/** Room for INGEST_BATCH_MAX verbose entries; past it Fastify answers 413 before parsing. */
const INGEST_BODY_LIMIT = 4 * 1024 * 1024;

type DeviceTokenRow = typeof deviceTokens.$inferSelect;

function toDeviceToken(row: DeviceTokenRow) {
  return {
    id: row.id,
    site_id: row.siteId,
    label: row.label,
    created_at: row.createdAt.toISOString(),
    revoked_at: row.revokedAt?.toISOString() ?? null,
  };
}

/** A live device token of the site, or null (wrong, revoked, another site's or no token). */
async function deviceTokenOf(db: Db, siteId: number, token: string): Promise<DeviceTokenRow | null> {
  const [row] = await db
    .select()
    .from(deviceTokens)
    .where(
      and(
        eq(deviceTokens.tokenHash, hashToken(token)),
        eq(deviceTokens.siteId, siteId),
        isNull(deviceTokens.revokedAt),
      ),
    )
    .limit(1);
  return row ?? null;
}

/**
 * HTTP ingest for gateways that cannot speak MQTT: the same bodies and the same writer as the
 * `positions` topic, authorised by a device token of the site named in the path.
 */
export const ingestRoutes: FastifyPluginAsyncTypebox<Services> = async (app, { db, publisher }) => {
  app.post(
    '/ingest/:siteId/positions',
    {
      bodyLimit: INGEST_BODY_LIMIT,
      // Before the body is read: a caller without a token does not get a 4 MB upload parsed.
      onRequest: async (request) => {
        const token = bearerToken(request);
        const siteId = Number((request.params as Record<string, unknown>).siteId);
        // Before the schema runs: a site id past PostgreSQL's integer must not reach the query.
        const isSiteId = Number.isInteger(siteId) && siteId >= 1 && siteId <= MAX_ROW_ID;
        if (!token || !isSiteId || !(await deviceTokenOf(db, siteId, token))) throw unauthorized();
      },
      schema: {
        params: IngestParamsSchema,
        body: IngestPositionsBodySchema,
        response: { 200: successOf(IngestResultSchema) },
      },
    },
    async (request) => {
      const { siteId } = request.params;
      const body: unknown = request.body;
      if (Array.isArray(body) && body.length > INGEST_BATCH_MAX)
        throw new HttpError(413, `At most ${INGEST_BATCH_MAX} positions per request`);
      const outcome = await ingestPositionEntries(db, siteId, body, new Date());
      try {
        await publishCommitted(db, publisher, siteId, outcome.committed);
      } catch (error) {
        // Stored is stored: the fan-out failing must not make the gateway send the batch again.
        request.log.error({ err: error, siteId }, 'live fan-out failed');
      }
      return ok({ accepted: outcome.accepted, rejected: countByReason(outcome.rejections) });
    },
  );
};

const allowTokenManagers: preHandlerHookHandler = async (request) => {
  if (!canManageDeviceTokens(principalOf(request).role)) throw forbidden();
};

/** Device tokens of a site (protected: register under the authenticated context). */
export const deviceTokenRoutes: FastifyPluginAsyncTypebox<Services> = async (app, { db, deviceSessions }) => {
  app.get(
    '/sites/:id/device-tokens',
    {
      preValidation: allowTokenManagers,
      schema: { params: IdParamsSchema, response: { 200: successOf(Type.Array(DeviceTokenSchema)) } },
    },
    async (request) => {
      const site = await requireSite(db, principalOf(request), request.params.id);
      const rows = await db
        .select()
        .from(deviceTokens)
        .where(eq(deviceTokens.siteId, site.id))
        .orderBy(asc(deviceTokens.id));
      return ok(rows.map(toDeviceToken));
    },
  );

  app.post(
    '/sites/:id/device-tokens',
    {
      preValidation: allowTokenManagers,
      schema: {
        params: IdParamsSchema,
        body: CreateDeviceTokenBodySchema,
        response: { 200: successOf(CreatedDeviceTokenSchema) },
      },
    },
    async (request) => {
      const principal = principalOf(request);
      const site = await requireSite(db, principal, request.params.id);
      const label = requiredName(request.body.label, 'label', 'Label');
      const { row, token } = await createDeviceToken(db, { siteId: site.id, label, createdBy: principal.id });
      return ok({ ...toDeviceToken(row), token }, messages.created('Device token'));
    },
  );

  app.post(
    '/sites/:id/device-tokens/:tokenId/revoke',
    {
      preValidation: allowTokenManagers,
      schema: { params: DeviceTokenParamsSchema, response: { 200: successOf(DeviceTokenSchema) } },
    },
    async (request) => {
      const site = await requireSite(db, principalOf(request), request.params.id);
      const [existing] = await db
        .select()
        .from(deviceTokens)
        .where(and(eq(deviceTokens.id, request.params.tokenId), eq(deviceTokens.siteId, site.id)))
        .limit(1);
      if (!existing) throw notFound('Device token');
      if (existing.revokedAt) return ok(toDeviceToken(existing), 'Device token is revoked');
      const [row] = await db
        .update(deviceTokens)
        .set({ revokedAt: new Date() })
        .where(eq(deviceTokens.id, existing.id))
        .returning();
      // Its devices connected to the embedded broker are cut off now, not at their next login.
      deviceSessions?.revoke(existing.id);
      return ok(toDeviceToken(row), 'Device token is revoked');
    },
  );
};
