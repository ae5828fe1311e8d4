import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { and, eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { Type } from 'typebox';
import { ESCALATION_MESSAGES } from '../../src/domain/escalation';
import { INCIDENT_STATUSES, type IncidentStatus, type SafetyIncident } from '../../src/domain/incidents';
import { IdSchema } from '../../src/domain/schemas/sites';
import { isStorableInstant } from '../../src/domain/storableInstant';
import { SafeString } from '../../src/domain/text';
import { allow } from '../auth/authenticate';
import type { Principal } from '../auth/principal';
import { principalOf } from '../auth/principal';
import { requireSite, visibleSitesWhere } from '../auth/tenancy';
import type { Db } from '../db/database';
import { incidents, sites, users } from '../db/schema';
import { ok } from '../http/envelope';
import { badRequest, conflict, notFound } from '../http/errors';
import { escalateIncident, type StepOutcome, settleIncident } from './escalationSteps';
import { selectIncidents } from './incidentStore';
import type { SafetyServices } from './safetyServices';

/**
 * The incident calls of the safety listener (spec §7): the list, the manual escalation (one
 * level up, the spec's spelling), and acknowledge and resolve (issue 17).
 */

const IncidentListParamsSchema = Type.Object({
  siteId: IdSchema,
  from: SafeString({ maxLength: 40 }),
  to: SafeString({ maxLength: 40 }),
  status: Type.Optional(SafeString({ maxLength: 20 })),
});
const EscalateBodySchema = Type.Object({
  incidentId: IdSchema,
  /** The level the caller saw: a step someone else took meanwhile is refused, not repeated. */
  level: Type.Optional(Type.Integer({ minimum: 0, maximum: 100 })),
});
const IncidentBodySchema = Type.Object({ incidentId: IdSchema });

export const SAFETY_MESSAGES = {
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

/** An incident of a site the caller may see; anything else is 404. */
async function requireIncident(db: Db, principal: Principal, incidentId: number): Promise<void> {
  const [row] = await db
    .select({ id: incidents.id })
    .from(incidents)
    .innerJoin(sites, eq(sites.id, incidents.siteId))
    .where(and(eq(incidents.id, incidentId), visibleSitesWhere(principal)))
    .limit(1);
  if (!row) throw notFound('Incident');
}

export const incidentRoutes: FastifyPluginAsyncTypebox<SafetyServices> = async (
  app,
  { db, config, incidentFeed },
) => {
  /** Runs one step in a transaction, refuses it with 409 in the domain's words, tells the site's sockets. */
  async function step(
    incidentId: number,
    log: FastifyBaseLogger,
    run: (tx: Db) => Promise<StepOutcome | null>,
  ): Promise<SafetyIncident> {
    const outcome = await db.transaction(async (tx) => {
      const result = await run(tx);
      if (!result) throw notFound('Incident');
      if (!result.done) throw conflict(result.message);
      return result;
    });
    await incidentFeed.publishIncidents(outcome.siteId, [incidentId]).catch((error) => {
      log.error({ err: error, incidentId }, 'safety: publishing an incident step failed');
    });
    const [incident] = await selectIncidents(db, { ids: [incidentId] });
    return incident;
  }

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
      const { incidentId, level } = request.body;
      await requireIncident(db, principal, incidentId);
      const [me] = await db.select({ name: users.name }).from(users).where(eq(users.id, principal.id));
      const by = { id: principal.id, name: me?.name ?? 'A safety officer' };
      const incident = await step(incidentId, request.log, (tx) =>
        escalateIncident(
          tx,
          incidentId,
          by,
          { now: new Date(), publicUrl: config.publicUrl, log: request.log },
          { expectedLevel: level },
        ),
      );
      return ok(incident, ESCALATION_MESSAGES.escalated);
    },
  );

  for (const action of ['acknowledge', 'resolve'] as const) {
    app.post(
      `/api/safety/incident/${action}`,
      { preValidation: allow('safety', 'write'), schema: { body: IncidentBodySchema } },
      async (request) => {
        const principal = principalOf(request);
        const { incidentId } = request.body;
        await requireIncident(db, principal, incidentId);
        const incident = await step(incidentId, request.log, (tx) =>
          settleIncident(tx, incidentId, action, principal, new Date()),
        );
        return ok(
          incident,
          action === 'acknowledge' ? ESCALATION_MESSAGES.acknowledged : ESCALATION_MESSAGES.resolved,
        );
      },
    );
  }
};
