import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import { Type } from 'typebox';
import type { SafetyWorker } from '../../src/domain/evacuation';
import { connectionStatus } from '../../src/domain/inventory';
import { IdSchema } from '../../src/domain/schemas/sites';
import { SafeString } from '../../src/domain/text';
import { allow } from '../auth/authenticate';
import { principalOf } from '../auth/principal';
import { requireSite } from '../auth/tenancy';
import type { Db } from '../db/database';
import { evacuationSessions, evacuationWorkers, inventoryItems, networks } from '../db/schema';
import { requireFloor } from '../floors/floorAccess';
import { ok } from '../http/envelope';
import { notFound } from '../http/errors';
import { requireNetwork } from '../inventory/networkAccess';
import { selectWorkersOnMap } from '../live/workersOnMap';
import {
  evacuationReportWorkbook,
  listEvacuations,
  readEvacuationReport,
  requireEvacuation,
} from './evacuationReports';
import type { SafetyServices } from './safetyServices';

/**
 * Safety REST calls of spec §7 on the safety listener (getworkers; the incidents are in
 * incidentRoutes.ts), the start dialog's networks, and the evacuation reports. Registered under bearer authentication;
 * `allowConsoleCors` (safetyCors.ts) answers the console's cross-origin preflights before that.
 */

const GetWorkersBodySchema = Type.Object({ networkId: IdSchema, blueprintId: IdSchema });
const SiteParamsSchema = Type.Object({ siteId: IdSchema });
const SessionParamsSchema = Type.Object({ sessionId: SafeString({ minLength: 1, maxLength: 100 }) });

/** A floor's helmets of one network, with the evacuation fields of the site's running session. */
async function safetyWorkers(
  db: Db,
  siteId: number,
  floorId: number,
  networkId: number,
): Promise<SafetyWorker[]> {
  const helmets = await db
    .select({ id: inventoryItems.id })
    .from(inventoryItems)
    .where(
      and(
        eq(inventoryItems.type, 'helmet'),
        eq(inventoryItems.floorId, floorId),
        eq(inventoryItems.networkId, networkId),
      ),
    );
  const onMap = await selectWorkersOnMap(db, { inventoryIds: helmets.map((h) => h.id) });
  const workerIds = onMap.flatMap((w) => (w.id === null ? [] : [w.id]));
  const included =
    workerIds.length === 0
      ? []
      : await db
          .select({
            workerId: evacuationWorkers.workerId,
            status: evacuationWorkers.status,
            acknowledgedAt: evacuationWorkers.acknowledgedAt,
          })
          .from(evacuationWorkers)
          .innerJoin(evacuationSessions, eq(evacuationSessions.id, evacuationWorkers.sessionId))
          .where(
            and(
              eq(evacuationSessions.siteId, siteId),
              isNull(evacuationSessions.endedAt),
              inArray(evacuationWorkers.workerId, workerIds),
            ),
          );
  const byWorker = new Map(included.map((row) => [row.workerId, row]));
  return onMap.map((worker) => {
    const evacuation = worker.id === null ? undefined : byWorker.get(worker.id);
    if (!evacuation)
      return {
        ...worker,
        isSafe: false,
        isWorkerAcknowledged: false,
        isIncludedEvacuation: false,
        status: connectionStatus(worker),
      };
    const status = evacuation.status as SafetyWorker['status'];
    return {
      ...worker,
      isSafe: status === 'safe',
      isWorkerAcknowledged: evacuation.acknowledgedAt !== null,
      isIncludedEvacuation: true,
      status,
    };
  });
}

export const safetyRoutes: FastifyPluginAsyncTypebox<SafetyServices> = async (app, { db }) => {
  app.post(
    '/api/safety/getworkers',
    { preValidation: allow('evacuation', 'open'), schema: { body: GetWorkersBodySchema } },
    async (request) => {
      const principal = principalOf(request);
      const floor = await requireFloor(db, principal, request.body.blueprintId);
      const network = await requireNetwork(db, principal, request.body.networkId);
      if (network.siteId !== floor.siteId) throw notFound('Network');
      return ok(await safetyWorkers(db, floor.siteId, floor.id, network.id));
    },
  );

  app.get(
    '/api/safety/sites/:siteId/networks',
    { preValidation: allow('evacuation', 'open'), schema: { params: SiteParamsSchema } },
    async (request) => {
      const site = await requireSite(db, principalOf(request), request.params.siteId);
      const rows = await db
        .select({ id: networks.id, name: networks.name })
        .from(networks)
        .where(eq(networks.siteId, site.id))
        .orderBy(sql`lower(${networks.name})`, asc(networks.id));
      return ok(rows);
    },
  );

  app.get(
    '/api/safety/sites/:siteId/evacuations',
    { preValidation: allow('safety', 'open'), schema: { params: SiteParamsSchema } },
    async (request) => {
      const site = await requireSite(db, principalOf(request), request.params.siteId);
      return ok(await listEvacuations(db, site.id));
    },
  );

  app.get(
    '/api/safety/evacuations/:sessionId/report',
    { preValidation: allow('safety', 'open'), schema: { params: SessionParamsSchema } },
    async (request) => {
      const { evacuation } = await requireEvacuation(db, principalOf(request), request.params.sessionId);
      return ok(await readEvacuationReport(db, evacuation));
    },
  );

  app.get(
    '/api/safety/evacuations/:sessionId/report.xlsx',
    { preValidation: allow('safety', 'open'), schema: { params: SessionParamsSchema } },
    async (request, reply) => {
      const { evacuation, siteName } = await requireEvacuation(
        db,
        principalOf(request),
        request.params.sessionId,
      );
      const report = await readEvacuationReport(db, evacuation);
      const file = await evacuationReportWorkbook(report, siteName);
      const day = report.startedAt.slice(0, 10);
      return reply
        .header('content-type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
        .header('content-disposition', `attachment; filename="evacuation-report-${day}.xlsx"`)
        .send(file);
    },
  );
};
