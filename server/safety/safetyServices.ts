import type {
  EndEvacuationRequest,
  Evacuation,
  EvacuationSnapshot,
  StartEvacuationRequest,
} from '../../src/domain/evacuation';
import type { Principal } from '../auth/principal';
import type { Services } from '../services';
import type { MarshalActions } from './marshalActions';

/**
 * The evacuation lifecycle of every site, as the socket handlers, the safety routes and the
 * safety demo use it. Refusals are HttpErrors in the spec's words (403 role, 404 site not
 * visible, 409 already running / not running, 422 bad scope), never 500.
 */
export interface EvacuationService extends MarshalActions {
  start(principal: Principal, request: StartEvacuationRequest): Promise<Evacuation>;
  end(principal: Principal, request: EndEvacuationRequest): Promise<Evacuation>;
  /** The running evacuation of a site, or null (no access check: callers check the site). */
  running(siteId: number): Promise<Evacuation | null>;
  /** The running evacuation's full versioned state, or null. */
  snapshot(siteId: number): Promise<EvacuationSnapshot | null>;
}

/** The scripted evacuation of the safety demo: the simulator walks the included workers out. */
export interface EvacuationDrill {
  /** Starts the demo site's evacuation and its script; resolves with the session once started. */
  run(principal: Principal, siteId: number): Promise<Evacuation>;
}

/** Tells a site's sockets about incidents that changed (`safetyEvents`). */
export interface IncidentFeed {
  publishIncidents(siteId: number, incidentIds: readonly number[]): Promise<void>;
}

/** What the safety listener's route plugins are given. */
export interface SafetyServices extends Services {
  evacuation: EvacuationService;
  /** The incident feed once the live channel runs; until then nobody is listening. */
  incidentFeed: IncidentFeed;
  /** Present when the simulator runs (the demo site only). */
  drill: EvacuationDrill | null;
}
