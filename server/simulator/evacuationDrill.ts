import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Evacuation } from '../../src/domain/evacuation';
import { SAFETY_DEMO_MESSAGES } from '../../src/domain/safetyDemo';
import type { Principal } from '../auth/principal';
import type { Db } from '../db/database';
import { buildings, floors, zones } from '../db/schema';
import { forbidden, unprocessable } from '../http/errors';
import type { EvacuationDrill, EvacuationService } from '../safety/safetyServices';
import type { EvacuationPlan, Simulator, SimulatorLogger } from './simulator';

export interface EvacuationDrillOptions {
  db: Db;
  /** The running simulator of the demo site. */
  simulator: Pick<Simulator, 'evacuate' | 'endEvacuation'>;
  evacuation: Pick<EvacuationService, 'start' | 'running'>;
  /** The site the simulator animates: the demo site, and the only one a drill runs on. */
  siteId: number;
  logger: SimulatorLogger;
  /** How often the drill looks whether its evacuation has ended; 2 s by default. */
  watchMs?: number;
}

export interface RunningDrill extends EvacuationDrill {
  /** Stops watching (at shutdown); a walk in progress stays as it is. */
  close(): void;
}

/** Every floor of the site, and its assembly zones: what the scripted evacuation covers. */
async function drillPlan(db: Db, siteId: number): Promise<EvacuationPlan> {
  const floorRows = await db
    .select({ id: floors.id })
    .from(floors)
    .innerJoin(buildings, eq(buildings.id, floors.buildingId))
    .where(eq(buildings.siteId, siteId))
    .orderBy(asc(floors.id));
  const floorIds = floorRows.map((row) => row.id);
  const assembly =
    floorIds.length === 0
      ? []
      : await db
          .select({ id: zones.id })
          .from(zones)
          .where(and(inArray(zones.floorId, floorIds), eq(zones.kind, 'assembly')))
          .orderBy(asc(zones.id));
  return { floorIds, assemblyZoneIds: assembly.map((zone) => zone.id) };
}

/**
 * The safety demo's scripted evacuation: starts a real evacuation of every floor of the demo
 * site through the evacuation service (so the wall screen, statuses and report are the real
 * ones), has the simulator walk the workers out, and puts the simulator back to normal once that
 * evacuation has ended, whoever ends it.
 */
export function createEvacuationDrill(options: EvacuationDrillOptions): RunningDrill {
  const { db, simulator, evacuation, siteId, logger } = options;
  const watchMs = options.watchMs ?? 2000;
  let watching: { sessionId: string; timer: NodeJS.Timeout } | null = null;

  const stopWatching = () => {
    if (watching) clearInterval(watching.timer);
    watching = null;
  };

  const watch = (sessionId: string) => {
    stopWatching();
    let checking = false;
    const timer = setInterval(() => {
      if (checking) return;
      checking = true;
      evacuation
        .running(siteId)
        .then((running) => {
          if (watching?.sessionId !== sessionId) return;
          if (running?.evacuationSessionId === sessionId) return;
          stopWatching();
          simulator.endEvacuation();
          logger.info(`safety demo: evacuation ${sessionId} ended, the simulator is back to normal`);
        })
        .catch((error: Error) => logger.warn(`safety demo: reading the evacuation failed: ${error.message}`))
        .finally(() => {
          checking = false;
        });
    }, watchMs);
    timer.unref();
    watching = { sessionId, timer };
  };

  return {
    async run(principal: Principal, requestedSiteId: number): Promise<Evacuation> {
      if (requestedSiteId !== siteId) throw forbidden(SAFETY_DEMO_MESSAGES.notDemoSite);
      const plan = await drillPlan(db, siteId);
      if (plan.assemblyZoneIds.length === 0)
        throw unprocessable({ assemblyZoneIds: SAFETY_DEMO_MESSAGES.noAssemblyZone });
      const started = await evacuation.start(principal, {
        siteId,
        floorIds: [...plan.floorIds],
        zoneIds: [],
        assemblyZoneIds: [...plan.assemblyZoneIds],
        safeZone: null,
        gateWayId: null,
      });
      const script = simulator.evacuate(plan);
      logger.info(
        `safety demo: evacuation ${started.evacuationSessionId}: ${script.evacuees.length} walking out, ${script.acknowledging.length} acknowledging, ${script.silenced ?? 'nobody'} going silent`,
      );
      watch(started.evacuationSessionId);
      return started;
    },
    close: stopWatching,
  };
}
