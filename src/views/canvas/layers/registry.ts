import { blueprintLayer } from './BlueprintLayer';
import { draftLayer } from './DraftLayer';
import { heatmapLayer } from './HeatmapLayer';
import type { LayerDefinition } from './Layer';
import { selectionLayer } from './SelectionLayer';
import { trailsLayer } from './TrailsLayer';
import { workersLayer } from './WorkersLayer';
import { zonesLayer } from './ZonesLayer';

/** The layers of a canvas, bottom to top. */
export type LayerRegistry = readonly LayerDefinition[];

/**
 * Every layer of a floor view, bottom to top. The engine draws whatever this lists and never
 * names a layer itself.
 *
 * To add a layer (walls, anchors, heatmap, trails, coverage, work permits):
 * 1. Write `layers/WallsLayer.ts`: a class implementing `CanvasLayer` (attach its Pixi objects to
 *    the world container, draw them in `update`, free them in `destroy`) and its definition:
 *    `export const wallsLayer: LayerDefinition = { name: 'walls', redraw: 'static', inputs: [...],
 *    create: () => new WallsLayer() }`. `redraw: 'static'` for what changes rarely (walls,
 *    anchors, coverage, permits: drawn again only when an input changes); `'frame'` for what
 *    moves with the live stream or with time (heatmap, trails). Coordinates are the blueprint's
 *    pixels; divide by `view.scale` for sizes fixed on screen (and list `SCENE_INPUTS.zoom`).
 * 2. Inputs: the scene's parts are `SCENE_INPUTS`; data the scene does not hold is a
 *    `layerData<T>(name, initial)` declared in the same file, read with `WALLS.value(scene)`;
 *    the screen that has it passes `layerData={[layerDataSource(WALLS, walls$)]}` (a stable
 *    array) to `FloorCanvas`.
 * 3. Add one line below, at its place in the order (walls and anchors above the zones; heatmap
 *    and trails above the workers; the selection and the draft stay on top).
 */
export const FLOOR_LAYERS: LayerRegistry = [
  blueprintLayer,
  zonesLayer,
  // Under the markers, so the helmets of a replay stay visible on the heat.
  heatmapLayer,
  // Over the heat and under the markers: a replayed marker sits on the head of its own trail.
  trailsLayer,
  workersLayer,
  selectionLayer,
  draftLayer,
];

/** `registry` with `layer` added just below the layer named `below` (on top when none is given). */
export function withLayer(registry: LayerRegistry, layer: LayerDefinition, below?: string): LayerRegistry {
  const at = below === undefined ? -1 : registry.findIndex((l) => l.name === below);
  if (at === -1) return [...registry, layer];
  return [...registry.slice(0, at), layer, ...registry.slice(at)];
}
