import helmet from '@fastify/helmet';
import type { FastifyInstance, FastifyServerOptions, RouteOptions } from 'fastify';
import type { Config } from '../config';
import type { Db } from '../db/database';
import { HttpError } from '../http/errors';
import { createListener, registerRouteLayers } from '../http/layeredApp';
import type { MqttIngestStats } from '../ingest/mqttIngest';
import type { LivePublisher } from '../live/liveChanges';
import { type LiveChannel, startLiveChannel } from '../live/socketServer';
import { operationsRoutes } from '../operations/operationsRoutes';
import { createOperationsState, type OperationsState } from '../operations/operationsState';
import type { Services } from '../services';
import { safetyDemoRoutes } from './demoRoutes';
import { drillRoutes } from './drillRoutes';
import { type EscalationScheduler, startEscalationScheduler } from './escalationScheduler';
import { createEvacuationService, type EvacuationServiceRuntime } from './evacuationService';
import { evacuationChannel } from './evacuationSocket';
import { createIncidentFeed } from './incidentFeed';
import { incidentRoutes } from './incidentRoutes';
import { musterRoutes } from './musterRoutes';
import { type NetworkWatch, startNetworkWatch } from './networkWatch';
import { allowConsoleCors, isConsoleOrigin } from './safetyCors';
import { safetyHealthRoutes } from './safetyHealthRoutes';
import { createSafetyPublisher } from './safetyPublisher';
import { safetyRoutes } from './safetyRoutes';
import type { EvacuationDrill, EvacuationService, IncidentFeed, SafetyServices } from './safetyServices';
import { safetySettingsRoutes } from './safetySettingsRoutes';

/**
 * What the safety app's routes are bound to once `startLive` has created the socket server:
 * the evacuation service needs its io, which needs the app's HTTP server, which the routes are on.
 */
interface SafetyBindings {
  evacuation: EvacuationService | null;
  drill: EvacuationDrill | null;
  incidentFeed: IncidentFeed | null;
}

const bindingsOf = new WeakMap<FastifyInstance, SafetyBindings>();

function notStarted(): never {
  throw new HttpError(503, 'The safety service is starting, please try again');
}

/** The evacuation service as the routes hold it: whatever `startLive` bound, when it has. */
function lateBoundEvacuation(bindings: SafetyBindings): EvacuationService {
  const bound = () => bindings.evacuation ?? notStarted();
  return {
    start: (principal, request) => bound().start(principal, request),
    end: (principal, request) => bound().end(principal, request),
    running: (siteId) => bound().running(siteId),
    snapshot: (siteId) => bound().snapshot(siteId),
    mark: (principal, request) => bound().mark(principal, request),
    unmark: (principal, request) => bound().unmark(principal, request),
    addRollPerson: (principal, request) => bound().addRollPerson(principal, request),
    extendArea: (principal, request) => bound().extendArea(principal, request),
    redirect: (principal, request) => bound().redirect(principal, request),
  };
}

/**
 * The safety listener (SAFETY_PORT): its health check, the safety REST calls and the safety demo
 * under bearer authentication, and (attached by `startLive`) the live socket channel with the
 * evacuation events on the same HTTP server.
 */
export async function buildSafetyApp(
  services: Services,
  options: {
    logger?: FastifyServerOptions['logger'];
    /** This process's ingest counters, shown by the health check (null before the ingest starts). */
    ingestStats?: () => MqttIngestStats | null;
    /** Hears every route as it is added, with its schema (the schema fuzz test enumerates them). */
    onRoute?: (route: RouteOptions) => void;
    /** What /readyz reads (shared with the main listener); the database alone when omitted. */
    operations?: OperationsState;
  } = {},
): Promise<FastifyInstance> {
  // The live channel reports Redis, sweep and snapshot failures through this logger.
  const app = createListener({ logger: options.logger, onRoute: options.onRoute });
  await app.register(helmet, {
    // JSON and sockets only: nothing here is a page, so nothing may load or frame it.
    contentSecurityPolicy: {
      useDefaults: false,
      directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] },
    },
    // The console reads these replies from another port of the same site.
    crossOriginResourcePolicy: { policy: 'same-site' },
  });
  allowConsoleCors(app, services.config);
  await app.register(operationsRoutes, {
    state: options.operations ?? createOperationsState(services.db),
    metrics: false,
  });

  const bindings: SafetyBindings = { evacuation: null, drill: null, incidentFeed: null };
  bindingsOf.set(app, bindings);
  const safetyServices: SafetyServices = {
    db: services.db,
    config: services.config,
    publisher: services.publisher,
    evacuation: lateBoundEvacuation(bindings),
    // Before the live channel runs no socket can hear a change.
    incidentFeed: {
      publishIncidents: async (siteId, ids) => bindings.incidentFeed?.publishIncidents(siteId, ids),
    },
    // Read at request time: the drill is bound once the simulator runs.
    get drill() {
      return bindings.drill;
    },
  };
  await registerRouteLayers(app, {
    services: safetyServices,
    publicRoutes: [safetyHealthRoutes(options.ingestStats)],
    protectedRoutes: [
      safetyRoutes,
      incidentRoutes,
      safetySettingsRoutes,
      safetyDemoRoutes,
      musterRoutes,
      drillRoutes,
    ],
  });
  return app;
}

/** Hands the safety demo's drill to the safety app's routes (once the simulator runs). */
export function bindDrill(app: FastifyInstance, drill: EvacuationDrill | null): void {
  const bindings = bindingsOf.get(app);
  if (bindings) bindings.drill = drill;
}

export interface StartLiveOptions {
  app: FastifyInstance;
  db: Db;
  config: Pick<Config, 'redisUrl'> & Partial<Pick<Config, 'networkSilenceSeconds' | 'publicUrl'>>;
  /** Tests: a Redis key prefix of their own, and a faster revocation sweep and network check. */
  redisKeyPrefix?: string;
  sweepIntervalMs?: number;
  networkCheckIntervalMs?: number;
  /** Tests: the escalation scheduler's clock and longest sleep. */
  escalation?: { now?: () => Date; intervalMs?: number };
}

export interface SafetyLive extends LiveChannel {
  evacuation: EvacuationServiceRuntime;
  /** What the ingest and the offline sweep publish to: the live map, then the evacuation and incidents. */
  publisher: LivePublisher;
  networkWatch: NetworkWatch;
  /** Climbs unacknowledged incidents up their site's escalation levels. */
  escalations: EscalationScheduler;
}

/**
 * The socket.io live channel on the safety app's HTTP server (before or after `listen`), with
 * the evacuation service and the network watch on it. Its `publisher` is what the ingest
 * publishes to; `close()` also closes the HTTP server, so the app's own close afterwards only
 * runs its hooks.
 */
export async function startLive({
  app,
  db,
  config,
  redisKeyPrefix,
  sweepIntervalMs,
  networkCheckIntervalMs,
  escalation,
}: StartLiveOptions): Promise<SafetyLive> {
  const channel = await startLiveChannel({
    httpServer: app.server,
    db,
    redisUrl: config.redisUrl,
    redisKeyPrefix,
    sweepIntervalMs,
    allowOrigin: (origin) => isConsoleOrigin(config, origin),
    log: app.log,
  });
  const incidentFeed = createIncidentFeed(channel.io, db);
  const evacuation = createEvacuationService({
    db,
    io: channel.io,
    sequence: channel.sequence,
    log: app.log,
    publishIncidents: (siteId, ids) => incidentFeed.publishIncidents(siteId, ids),
  });
  const networkWatch = startNetworkWatch({
    db,
    io: channel.io,
    silenceSeconds: config.networkSilenceSeconds ?? 30,
    intervalMs: networkCheckIntervalMs,
    onError: (error) => app.log.error({ err: error }, 'safety: network check failed'),
  });
  channel.extend(
    evacuationChannel({ db, evacuation, networkFailures: networkWatch.currentFailures, log: app.log }),
  );
  const bindings = bindingsOf.get(app);
  if (bindings) {
    bindings.evacuation = evacuation;
    bindings.incidentFeed = incidentFeed;
  }
  const escalations = startEscalationScheduler({
    db,
    // Read at each step: a test server learns its address after the channel starts.
    publicUrl: () => config.publicUrl ?? '',
    publishIncidents: incidentFeed.publishIncidents,
    log: app.log,
    now: escalation?.now,
    intervalMs: escalation?.intervalMs,
  });
  const publisher = createSafetyPublisher({ hub: channel.hub, evacuation, incidents: incidentFeed });
  return {
    ...channel,
    evacuation,
    publisher,
    networkWatch,
    escalations,
    async close() {
      await escalations.stop();
      networkWatch.stop();
      await evacuation.idle();
      evacuation.stop();
      await channel.close();
    },
  };
}
