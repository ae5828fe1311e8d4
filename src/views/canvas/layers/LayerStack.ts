import type { Container } from 'pixi.js';
import type { CanvasLayer, FrameContext, LayerDefinition } from './Layer';
import type { LayerRegistry } from './registry';

interface StackedLayer {
  readonly definition: LayerDefinition;
  readonly layer: CanvasLayer;
  /** The inputs' versions when a static layer last drew; null before its first draw. */
  drawnVersions: unknown[] | null;
  draws: number;
}

/**
 * The layers of one canvas, made from a registry and attached to the world container in its
 * order. Once per frame it draws the static layers whose inputs changed and asks the per-frame
 * ones; it says whether anything changed, so the engine renders only then.
 */
export class LayerStack {
  private readonly layers: StackedLayer[];

  constructor(registry: LayerRegistry, world: Container) {
    this.layers = registry.map((definition) => ({
      definition,
      layer: definition.create(),
      drawnVersions: null,
      draws: 0,
    }));
    for (const { layer } of this.layers) layer.attach(world);
  }

  update(frame: FrameContext): boolean {
    let changed = false;
    for (const stacked of this.layers) {
      if (stacked.definition.redraw === 'frame') {
        if (!stacked.layer.update(frame)) continue;
      } else {
        if (!inputsChanged(stacked, frame)) continue;
        stacked.layer.update(frame);
      }
      stacked.draws++;
      changed = true;
    }
    return changed;
  }

  /** How many times the named layer rebuilt what it shows (its own count when it keeps one). */
  redraws(name: string): number {
    const stacked = this.layers.find((l) => l.definition.name === name);
    return stacked ? (stacked.layer.redraws ?? stacked.draws) : 0;
  }

  destroy(): void {
    for (const { layer } of this.layers) layer.destroy();
  }
}

/** Records the static layer's input versions and says whether any moved since it last drew. */
function inputsChanged(stacked: StackedLayer, frame: FrameContext): boolean {
  const inputs = stacked.definition.inputs;
  const drawn = stacked.drawnVersions;
  if (drawn && inputs.every((input, i) => Object.is(input.version(frame), drawn[i]))) return false;
  stacked.drawnVersions = inputs.map((input) => input.version(frame));
  return true;
}
