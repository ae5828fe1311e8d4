import type { NodeHealthState } from '../../../domain/nodeHealth';

/**
 * The maintenance map's colours, apart from its layers (no Pixi here), so the legend and the
 * browser tests read the same values the layers draw with.
 */

/** Blueprint's GREEN3, ORANGE3 and RED3 by state, grey when unknown: as the tags beside the map. */
export const HEALTH_COLOURS: Record<NodeHealthState, number> = {
  ok: 0x238551,
  warning: 0xc87619,
  bad: 0xcd4246,
};
export const UNKNOWN_COLOUR = 0x8f99a8;
/** The line from where an anchor was placed to where it is: Blueprint's VIOLET3, apart from the states. */
export const DISPLACEMENT_COLOUR = 0x7961db;
/** The picked node's ring: dark, so it is not read as a health state (the zones' orange would be). */
export const SELECTED_NODE_COLOUR = 0x1c2127;
