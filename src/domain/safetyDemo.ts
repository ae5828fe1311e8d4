import type { Evacuation } from './evacuation';

/**
 * The safety demo (issue 5, /safteyDemo): a scripted evacuation of the demo site, walked out by
 * the built-in simulator. Only the demo site, and only while the simulator runs.
 */

/** GET /api/safety/demo/{siteId}: whether the drill can run on that site, and the running evacuation. */
export interface SafetyDemoStatus {
  siteId: number;
  isDemoSite: boolean;
  simulatorOn: boolean;
  running: Evacuation | null;
}

/** The refusals of POST /api/safety/demo/{siteId}/drill, shown by the console as they are. */
export const SAFETY_DEMO_MESSAGES = {
  notDemoSite: 'The safety demo runs only on the demo site',
  simulatorOff: 'The simulator is off: the safety demo needs it',
  noAssemblyZone: 'The demo site has no assembly zone to walk workers to',
  started: 'The scripted evacuation has started',
} as const;

/** The drill's paths on the safety listener. */
export const safetyDemoPath = (siteId: number) => `/api/safety/demo/${siteId}`;
export const safetyDrillPath = (siteId: number) => `/api/safety/demo/${siteId}/drill`;
