import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import { Type } from 'typebox';
import type { SafetyWorker } from '../../src/domain/evacuation';
import { INCIDENT_STATUSES, type IncidentStatus, type SafetyIncident } from '../../src/domain/incidents';
import { connectionStatus } from '../../src/domain/inventory';
import { IdSchema } from '../../src/domain/schemas/sites';
import { isStorableInstant } from '../../src/domain/storableInstant';
import { SafeString } from '../../src/domain/text';
import { allow } from '../auth/authenticate';
import type { Principal } from '../auth/principal';
import { principalOf } from '../auth/principal';
import { requireSite, visibleSitesWhere } from '../auth/tenancy';
import type { Config } from '../config';
import type { Db } from '../db/database';
import {
  evacuationSessions,
  evacuationWorkers,
  incidents,
  inventoryItems,
  networks,
  sites,
  users,
} from '../db/schema';
import { requireFloor } from '../floors/floorAccess';
import { ok } from '../http/envelope';
import { badRequest, conflict, notFound } from '../http/errors';
import { requireNetwork } from '../inventory/networkAccess';
import { selectWorkersOnMap } from '../live/workersOnMap';
import { queueEmail } from '../mail/outbox';
import {
  evacuationReportWorkbook,
  listEvacuations,
  readEvacuationReport,
  requireEvacuation,
} from './evacuationReports';
import { selectIncidents } from './incidentStore';
import { safetyContacts } from './safetyContacts';
import type { SafetyServices } from './safetyServices';

/**
 * Safety REST calls of spec §7 on the safety listener (getworkers, incidents, escalation), the
 * start dialog's networks, and the evacuation reports. Registered under bearer authentication;
 * `allowConsoleCors` (safetyCors.ts) answers the console's cross-origin preflights before that.
 */

const GetWorkersBodySchema = Type.Object({ networkId: IdSchema, blueprintId: IdSchema });
const SiteParamsSchema = Type.Object({ siteId: IdSchema });
const IncidentListParamsSchema = Type.Object({
  siteId: IdSchema,
  from: SafeString({ maxLength: 40 }),
  to: SafeString({ maxLength: 40 }),
  status: Type.Optional(SafeString({ maxLength: 20 })),
});
const EscalateBodySchema = Type.Object({ incidentId: IdSchema });
const SessionParamsSchema = Type.Object({ sessionId: SafeString({ minLength: 1, maxLength: 100 }) });

export const SAFETY_MESSAGES = {
  alreadyEscalated: 'Incident is already escalated',
  escalated: 'Incident escalated',
  badDate: (label: string) =>
    `${label} must be an ISO date (YYYY-MM-DD) or date-time (YYYY-MM-DDTHH:mm:ss, UTC unless an offset is given)`,
  fromAfterTo: 'From must not be after To',
  badStatus: `Status must be one of ${INCIDENT_STATUSES.join(', ')}`,
} as const;

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})?$/;
const DAY_MS = 86_400_000;

/**
 * A bound of the incident window. A date alone covers its whole UTC day (so `to` = today includes
 * today); a date-time without an offset is UTC, as the console sends start-of-day dates (spec §9).
 */
function windowBound(value: string, label: string, edge: 'start' | 'end'): Date {
  let ms = Number.NaN;
  if (DATE_ONLY.test(value)) {
    ms = Date.parse(`${value}T00:00:00Z`);
    if (!Number.isNaN(ms) && new Date(ms).toISOString().slice(0, 10) !== value) ms = Number.NaN;
    if (edge === 'end') ms += DAY_MS;
  } else if (DATE_TIME.test(value)) {
    const withZone = /(Z|[+-]\d{2}:\d{2})$/.test(value) ? value : `${value}Z`;
    ms = Date.parse(withZone);
    // An exact `to` instant is included.
    if (edge === 'end') ms += 1;
  }
  if (!isStorableInstant(ms)) throw badRequest(SAFETY_MESSAGES.badDate(label));
  return new Date(ms);
}

function incidentStatus(value: string | undefined): IncidentStatus | undefined {
  if (value === undefined || value === '') return undefined;
  if (!(INCIDENT_STATUSES as readonly string[]).includes(value)) throw badRequest(SAFETY_MESSAGES.badStatus);
  return value as IncidentStatus;
}

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

const INCIDENT_LABELS: Record<SafetyIncident['type'], string> = {
  sos: 'SOS alarm',
  fall: 'Fall detected',
  noMotion: 'No motion',
  restrictedZone: 'Restricted zone entered',
};

/** An incident of a site the caller may see; anything else is 404. */
async function requireIncident(
  db: Db,
  principal: Principal,
  incidentId: number,
): Promise<{ siteName: string }> {
  const [row] = await db
    .select({ siteName: sites.name })
    .from(incidents)
    .innerJoin(sites, eq(sites.id, incidents.siteId))
    .where(and(eq(incidents.id, incidentId), visibleSitesWhere(principal)))
    .limit(1);
  if (!row) throw notFound('Incident');
  return row;
}

function escalationEmail(incident: SafetyIncident, siteName: string, escalatedBy: string, config: Config) {
  const what = INCIDENT_LABELS[incident.type];
  const worker = incident.workerName ?? `helmet ${incident.wntInventoryId}`;
  const place = [siteName, incident.floorName, incident.zoneName].filter(Boolean).join(' / ');
  return {
    subject: `Safety incident escalated: ${what} — ${worker}`,
    body: [
      `${escalatedBy} escalated safety incident #${incident.id}.`,
      '',
      `Incident: ${what}`,
      `Worker: ${worker} (helmet ${incident.wntInventoryId})`,
      `Place: ${place}`,
      `Happened at: ${incident.ts}`,
      `Escalated at: ${incident.escalatedAt ?? ''}`,
    ].join('\n'),
    link: `${config.publicUrl}/safety`,
  };
}

export const safetyRoutes: FastifyPluginAsyncTypebox<SafetyServices> = async (app, { db, config }) => {
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
    '/api/safety/incident/getAll/:siteId/:from/:to/:status?',
    { preValidation: allow('safety', 'open'), schema: { params: IncidentListParamsSchema } },
    async (request) => {
      const { siteId, from, to, status } = request.params;
      const site = await requireSite(db, principalOf(request), siteId);
      const since = windowBound(from, 'From', 'start');
      const until = windowBound(to, 'To', 'end');
      if (since >= until) throw badRequest(SAFETY_MESSAGES.fromAfterTo);
      return ok(
        await selectIncidents(db, { siteId: site.id, from: since, until, status: incidentStatus(status) }),
      );
    },
  );

  app.post(
    '/api/safety/incident/escelate',
    { preValidation: allow('safety', 'write'), schema: { body: EscalateBodySchema } },
    async (request) => {
      const principal = principalOf(request);
      const { incidentId } = request.body;
      const { siteName } = await requireIncident(db, principal, incidentId);
      const escalated = await db.transaction(async (tx) => {
        // One conditional UPDATE: of two officers escalating at once, one wins and one gets 409.
        const [row] = await tx
          .update(incidents)
          .set({ status: 'escalated', escalatedAt: new Date(), escalatedBy: principal.id })
          .where(and(eq(incidents.id, incidentId), eq(incidents.status, 'open')))
          .returning({ siteId: incidents.siteId });
        if (!row) throw conflict(SAFETY_MESSAGES.alreadyEscalated);
        const [incident] = await selectIncidents(tx, { ids: [incidentId] });
        const [me] = await tx.select({ name: users.name }).from(users).where(eq(users.id, principal.id));
        const email = escalationEmail(incident, siteName, me?.name ?? 'A safety officer', config);
        for (const contact of await safetyContacts(tx, row.siteId))
          await queueEmail(tx, { to: contact.email, ...email }, request.log);
        return incident;
      });
      return ok(escalated, SAFETY_MESSAGES.escalated);
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
