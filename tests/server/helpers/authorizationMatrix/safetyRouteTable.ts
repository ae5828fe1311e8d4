import { SAFETY_DEMO_MESSAGES } from '../../../../src/domain/safetyDemo';
import type { GuardedRoute, RouteKey, RouteRule } from './rules';

const INCIDENT_WINDOW = (o: { siteId: number }) => ({
  siteId: o.siteId,
  from: '2020-01-01',
  to: '2099-12-31',
});

const guarded = (rule: Omit<GuardedRoute, 'kind'>): GuardedRoute => ({ kind: 'guarded', ...rule });

/**
 * Every route of the safety listener (SAFETY_PORT), keyed as registered. A route missing here
 * fails the suite.
 */
export const SAFETY_ROUTES: Record<RouteKey, RouteRule> = {
  'GET /api/safety/health': { kind: 'public', why: 'the load balancer checks it' },
  'GET /livez': { kind: 'public', why: 'the orchestrator checks the process is alive' },
  'GET /readyz': { kind: 'public', why: 'the load balancer checks the process can serve' },
  // A read by POST (spec §7): the body names the network and the floor.
  'POST /api/safety/getworkers': guarded({
    areas: ['evacuation'],
    capability: 'open',
    object: 'floor',
    body: (o) => ({ networkId: o.networkId, blueprintId: o.floorId }),
  }),
  // `:status?` is optional: one route, called with a status.
  'GET /api/safety/incident/getAll/:siteId/:from/:to/:status?': guarded({
    areas: ['safety'],
    capability: 'open',
    object: 'site',
    params: (o) => ({ ...INCIDENT_WINDOW(o), status: 'open' }),
  }),
  // A second escalation of the same incident is 409: still an answer, not a refusal.
  'POST /api/safety/incident/escelate': guarded({
    areas: ['safety'],
    capability: 'write',
    object: 'incident',
    body: (o) => ({ incidentId: o.incidentId }),
  }),
  // Acknowledged or resolved already is 409: still an answer, not a refusal.
  'POST /api/safety/incident/acknowledge': guarded({
    areas: ['safety'],
    capability: 'write',
    object: 'incident',
    body: (o) => ({ incidentId: o.incidentId }),
  }),
  'POST /api/safety/incident/resolve': guarded({
    areas: ['safety'],
    capability: 'write',
    object: 'incident',
    body: (o) => ({ incidentId: o.incidentId }),
  }),
  'GET /api/safety/sites/:siteId/settings': guarded({
    areas: ['safety'],
    capability: 'open',
    object: 'site',
  }),
  // The escalation levels are the site admins' to set (the configuration area).
  'PUT /api/safety/sites/:siteId/settings': guarded({
    areas: ['configuration'],
    capability: 'write',
    object: 'site',
    body: () => ({
      possiblyInsideHours: null,
      escalationLevels: [{ level: 1, afterMinutes: 5, contacts: 'site', recipients: [] }],
    }),
  }),
  'GET /api/safety/sites/:siteId/networks': guarded({
    areas: ['evacuation'],
    capability: 'open',
    object: 'site',
  }),
  'GET /api/safety/sites/:siteId/evacuations': guarded({
    areas: ['safety'],
    capability: 'open',
    object: 'site',
  }),
  'GET /api/safety/sites/:siteId/evacuations/figures': guarded({
    areas: ['safety'],
    capability: 'open',
    object: 'site',
  }),
  'GET /api/safety/evacuations/:sessionId/report.pdf': guarded({
    areas: ['safety'],
    capability: 'open',
    object: 'evacuation',
  }),
  'GET /api/safety/evacuations/:sessionId/report': guarded({
    areas: ['safety'],
    capability: 'open',
    object: 'evacuation',
  }),
  'GET /api/safety/evacuations/:sessionId/report.xlsx': guarded({
    areas: ['safety'],
    capability: 'open',
    object: 'evacuation',
  }),
  // The marshal's calls: with no evacuation running, an allowed caller is told so (409).
  'POST /api/safety/evacuation/mark': guarded({
    areas: ['evacuation'],
    capability: 'write',
    object: 'site',
    body: (o) => ({
      siteId: o.siteId,
      evacuationSessionId: o.evacuationId,
      workerId: o.workerId,
      reason: 'seen',
    }),
  }),
  'POST /api/safety/evacuation/unmark': guarded({
    areas: ['evacuation'],
    capability: 'write',
    object: 'site',
    body: (o) => ({ siteId: o.siteId, evacuationSessionId: o.evacuationId, markId: 1 }),
  }),
  'POST /api/safety/evacuation/roll': guarded({
    areas: ['evacuation'],
    capability: 'write',
    object: 'site',
    body: (o, n) => ({ siteId: o.siteId, evacuationSessionId: o.evacuationId, name: `Visitor ${n}` }),
  }),
  'POST /api/safety/evacuation/area': guarded({
    areas: ['evacuation'],
    capability: 'write',
    object: 'site',
    body: (o) => ({ siteId: o.siteId, evacuationSessionId: o.evacuationId, floorIds: [o.floorId] }),
  }),
  'POST /api/safety/evacuation/redirect': guarded({
    areas: ['evacuation'],
    capability: 'write',
    object: 'site',
    body: (o) => ({
      siteId: o.siteId,
      evacuationSessionId: o.evacuationId,
      unsafeZoneId: o.zoneId,
      redirectZoneId: o.zoneId,
    }),
  }),
  'GET /api/safety/demo/:siteId': guarded({ areas: ['safetyDemo'], capability: 'open', object: 'site' }),
  // The drill runs on the demo site only (403 elsewhere, once the site is visible); without the
  // simulator it is 409.
  'POST /api/safety/demo/:siteId/drill': guarded({
    areas: ['safetyDemo'],
    capability: 'write',
    object: 'site',
    allowedAnswers: [{ status: 403, message: SAFETY_DEMO_MESSAGES.notDemoSite }],
  }),
};
