/**
 * The heatmap's colour ramp, shared by the canvas layer (texels) and the legend beside it (a CSS
 * gradient), so the two can never disagree. Cold (few worker-hours) is a pale blue, hot a deep
 * red, through yellow and orange: readable on a light blueprint and for the common colour-vision
 * deficiencies, since the lightness falls steadily along it.
 */
export const HEATMAP_RAMP: readonly {
  readonly at: number;
  readonly rgb: readonly [number, number, number];
}[] = [
  { at: 0, rgb: [158, 202, 225] },
  { at: 0.25, rgb: [102, 189, 99] },
  { at: 0.5, rgb: [254, 224, 79] },
  { at: 0.75, rgb: [244, 109, 67] },
  { at: 1, rgb: [165, 0, 38] },
];

/** How opaque the heat lies over the blueprint (the texels themselves are opaque or empty). */
export const HEATMAP_ALPHA = 0.72;

/** The ramp's colour at `fraction` (0..1, clamped) of the busiest cell, as [r, g, b] 0..255. */
export function heatmapColour(fraction: number): [number, number, number] {
  const f = Math.min(1, Math.max(0, Number.isFinite(fraction) ? fraction : 0));
  for (let i = 1; i < HEATMAP_RAMP.length; i++) {
    const hi = HEATMAP_RAMP[i];
    if (f > hi.at) continue;
    const lo = HEATMAP_RAMP[i - 1];
    const t = (f - lo.at) / (hi.at - lo.at);
    return [0, 1, 2].map((c) => Math.round(lo.rgb[c] + (hi.rgb[c] - lo.rgb[c]) * t)) as [
      number,
      number,
      number,
    ];
  }
  const last = HEATMAP_RAMP[HEATMAP_RAMP.length - 1].rgb;
  return [last[0], last[1], last[2]];
}

/** The ramp as a CSS linear-gradient towards `direction` (the legend runs with the reading order). */
export function heatmapGradient(direction: 'to right' | 'to left' | 'to top'): string {
  const stops = HEATMAP_RAMP.map(({ at, rgb }) => `rgb(${rgb.join(' ')}) ${at * 100}%`);
  return `linear-gradient(${direction}, ${stops.join(', ')})`;
}
