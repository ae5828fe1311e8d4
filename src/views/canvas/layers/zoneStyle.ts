import type { ZoneKind } from '../../../domain/floor';

/** Blueprint's GREEN3, RED3 and BLUE3, so the canvas matches the tags and legends around it. */
export const ZONE_COLOURS: Record<ZoneKind, number> = {
  assembly: 0x238551,
  restricted: 0xcd4246,
  work: 0x2d72d2,
};

export const ZONE_FILL_ALPHA = 0.35;
export const SELECTED_FILL_ALPHA = 0.55;
/** Blueprint's ORANGE4: stands out against all three kinds. */
export const SELECTION_OUTLINE = 0xec9a3c;
export const DRAFT_COLOUR = 0x8f3fc9;
