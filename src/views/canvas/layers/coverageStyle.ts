import type { Simulation } from '../../../domain/schemas/installation';

/**
 * The coverage layer's classes and colours, apart from the layer (no Pixi here), so the legend
 * beside the canvas and the browser tests read the same values the texels are written with.
 */

/** Fewer anchors than this heard, a cell cannot be positioned in 2-D (issue 19). */
export const MIN_ANCHORS_HEARD = 4;

export type CoverageClass = 'positioned' | 'poorGeometry' | 'tooFew' | 'none';

/** What a cell is: positioned; heard by enough anchors but their geometry (DOP) too poor; too few heard; none heard. */
export function coverageClass(heard: number, positioned: 0 | 1): CoverageClass {
  if (positioned === 1) return 'positioned';
  if (heard >= MIN_ANCHORS_HEARD) return 'poorGeometry';
  return heard > 0 ? 'tooFew' : 'none';
}

/** Blueprint's GREEN3, ORANGE3 and RED3; a cell nothing reaches stays clear so the blueprint shows. */
export const COVERAGE_COLOURS: Record<Exclude<CoverageClass, 'none'>, number> = {
  positioned: 0x238551,
  poorGeometry: 0xc87619,
  tooFew: 0xcd4246,
};

/** How opaque the coverage lies over the blueprint (its texels are opaque or empty). */
export const COVERAGE_ALPHA = 0.45;

export interface CoverageCounts {
  readonly cells: number;
  readonly positioned: number;
  readonly poorGeometry: number;
  readonly tooFew: number;
  readonly none: number;
}

export function coverageCounts(simulation: Pick<Simulation, 'heard' | 'positioned'>): CoverageCounts {
  const counts = { cells: simulation.heard.length, positioned: 0, poorGeometry: 0, tooFew: 0, none: 0 };
  for (let i = 0; i < simulation.heard.length; i++) {
    counts[coverageClass(simulation.heard[i], simulation.positioned[i] ?? 0)]++;
  }
  return counts;
}

/** The cells as RGBA texels (row-major, cell (0,0) at corner a): opaque in their class's colour, or clear. */
export function coverageTexels(simulation: Pick<Simulation, 'heard' | 'positioned'>): Uint8Array {
  const texels = new Uint8Array(simulation.heard.length * 4);
  for (let i = 0; i < simulation.heard.length; i++) {
    const cls = coverageClass(simulation.heard[i], simulation.positioned[i] ?? 0);
    if (cls === 'none') continue;
    const colour = COVERAGE_COLOURS[cls];
    texels[4 * i] = (colour >> 16) & 0xff;
    texels[4 * i + 1] = (colour >> 8) & 0xff;
    texels[4 * i + 2] = colour & 0xff;
    texels[4 * i + 3] = 255;
  }
  return texels;
}
