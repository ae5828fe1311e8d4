import type { Observable } from 'rxjs';
import type { FloorScene, SceneData } from '../scene';
import type { FrameContext, LayerInput } from './Layer';

const sceneInput = (name: string, version: (frame: FrameContext) => unknown): LayerInput => ({
  name,
  version,
});

/** The parts of the scene a layer can draw from; each changes its version when it changes. */
export const SCENE_INPUTS = {
  /** The floor's size and corners: every projected part moves with it. */
  frame: sceneInput('frame', ({ scene }) => scene.frameVersion),
  blueprint: sceneInput('blueprint', ({ scene }) => scene.blueprintVersion),
  zones: sceneInput('zones', ({ scene }) => scene.zonesVersion),
  selection: sceneInput('selection', ({ scene }) => scene.selectionVersion),
  draft: sceneInput('draft', ({ scene }) => scene.draftVersion),
  /** The pointer, while a polygon is being drawn (a rubber band follows it); otherwise it never changes. */
  draftPointer: sceneInput('draftPointer', ({ scene }) => (scene.draft?.length ? scene.pointerVersion : -1)),
  workers: sceneInput('workers', ({ scene }) => scene.workersVersion),
  workerSelection: sceneInput('workerSelection', ({ scene }) => scene.workerSelectionVersion),
  /** The zoom, for strokes and markers sized in screen pixels. */
  zoom: sceneInput('zoom', ({ view }) => view.scale),
  /** The zoom while a zone is selected: with nothing selected its outline's width does not matter. */
  zoomWhenSelected: sceneInput('zoomWhenSelected', ({ scene, view }) =>
    scene.selectedId === null ? -1 : view.scale,
  ),
} as const satisfies Record<string, LayerInput>;

/**
 * Data a layer draws from that the floor scene does not model (walls, anchors, a heatmap's
 * cells, …): declared once beside its layer, handed to the canvas as a stream by the screen that
 * has it (`FloorCanvas`'s `layerData` prop, or `engine.bindLayerData`), and read back by the layer
 * with `value(scene)`. The engine only passes it through, so a new kind needs no engine change.
 */
export interface LayerData<T> extends LayerInput, SceneData<T> {
  value(scene: FloorScene): T;
}

export function layerData<T>(name: string, initial: T): LayerData<T> {
  const data: LayerData<T> = {
    name,
    initial,
    version: ({ scene }) => scene.dataVersion(data),
    value: (scene) => scene.dataValue(data),
  };
  return data;
}

/** A layer's data and the stream it comes from, as `FloorCanvas`'s `layerData` prop takes them. */
export interface LayerDataSource {
  readonly data: LayerData<unknown>;
  readonly source$: Observable<unknown>;
}

/** Pairs `data` with `source$`, checking that the stream carries what the layer reads. */
export function layerDataSource<T>(data: LayerData<T>, source$: Observable<T>): LayerDataSource {
  return { data, source$ };
}
