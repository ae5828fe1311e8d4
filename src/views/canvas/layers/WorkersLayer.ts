import { type Container, Graphics, Particle, ParticleContainer, type Texture } from 'pixi.js';
import type { CanvasLayer, FrameContext, LayerDefinition } from './Layer';
import { SCENE_INPUTS } from './layerInputs';
import { createMarkerTexture, MARKER_TEXTURE_PX } from './markerTexture';
import { SELECTION_OUTLINE } from './zoneStyle';

/** Marker diameter in screen pixels, whatever the zoom. */
export const MARKER_PX = 12;
const SELECTED_RING_PX = 10;

/**
 * One marker per helmet, coloured by its connection status. Markers are particles sharing one
 * texture (a single draw call for thousands), recycled by index and moved in place when the
 * scene's workers change; their size follows the zoom so they stay the same on screen. The
 * selected helmet gets a ring on top. A per-frame layer: it samples the live stream every frame
 * and tells a move (rebuild the markers) from a zoom (resize them) itself.
 */
export class WorkersLayer implements CanvasLayer {
  private readonly container = new ParticleContainer({
    label: 'workers',
    eventMode: 'none',
    // Positions and colours change with every batch; the size only with the zoom.
    dynamicProperties: { position: true, color: true, vertex: false, rotation: false, uvs: false },
  });
  private readonly ring = new Graphics({ label: 'worker-selection', eventMode: 'none' });
  private readonly particles: Particle[] = [];
  private readonly tints: number[] = [];
  private texture: Texture | null;
  private drawn = { workers: -1, selection: -1, scale: 0 };
  /** How many times the markers were rebuilt from the scene: tests tell an idle floor from a busy one. */
  redraws = 0;

  /** `texture` is for tests without a DOM; the console draws its own. */
  constructor(texture?: Texture) {
    this.texture = texture ?? null;
  }

  attach(world: Container): void {
    this.texture ??= createMarkerTexture();
    this.container.texture = this.texture;
    world.addChild(this.container, this.ring);
  }

  /** The markers as drawn, for tests. */
  get markers(): readonly Particle[] {
    return this.particles.slice(0, this.container.particleChildren.length);
  }

  update({ scene, view }: FrameContext): boolean {
    const d = this.drawn;
    const moved = d.workers !== scene.workersVersion;
    const zoomed = d.scale !== view.scale;
    const reselected = d.selection !== scene.workerSelectionVersion;
    if (!moved && !zoomed && !reselected) return false;
    this.drawn = {
      workers: scene.workersVersion,
      selection: scene.workerSelectionVersion,
      scale: view.scale,
    };
    const scale = MARKER_PX / MARKER_TEXTURE_PX / view.scale;
    if (moved) this.place(scene.workers, scale);
    else if (zoomed) {
      for (const p of this.markers) {
        p.scaleX = scale;
        p.scaleY = scale;
      }
    }
    // Sizes are a static property: uploaded again only when the zoom changed them.
    if (zoomed) this.container.update();
    this.drawRing(
      scene.selectedWorkerId === null ? null : scene.workers.pointOf(scene.selectedWorkerId),
      view.scale,
    );
    return true;
  }

  private place(workers: FrameContext['scene']['workers'], scale: number): void {
    this.redraws++;
    const texture = this.texture as Texture;
    const count = workers.count;
    const shown = this.container.particleChildren.length;
    const added: Particle[] = [];
    for (let i = 0; i < count; i++) {
      let p = this.particles[i];
      if (!p) {
        p = new Particle({ texture, anchorX: 0.5, anchorY: 0.5 });
        this.particles[i] = p;
        this.tints[i] = -1;
      }
      if (i >= shown) added.push(p);
      p.x = workers.x(i);
      p.y = workers.y(i);
      p.scaleX = scale;
      p.scaleY = scale;
      const colour = workers.colour(i);
      if (this.tints[i] !== colour) {
        p.tint = colour;
        this.tints[i] = colour;
      }
    }
    for (const p of added) this.container.addParticle(p);
    if (added.length) return;
    if (shown > count) this.container.removeParticles(count, shown);
  }

  private drawRing(at: { x: number; y: number } | null, viewScale: number): void {
    const g = this.ring.clear();
    if (!at) return;
    g.circle(at.x, at.y, SELECTED_RING_PX / viewScale).stroke({
      color: SELECTION_OUTLINE,
      width: 3 / viewScale,
    });
  }

  destroy(): void {
    this.ring.destroy();
    this.container.destroy();
    this.texture?.destroy(true);
  }
}

export const workersLayer: LayerDefinition = {
  name: 'workers',
  redraw: 'frame',
  inputs: [SCENE_INPUTS.workers, SCENE_INPUTS.workerSelection, SCENE_INPUTS.zoom],
  create: () => new WorkersLayer(),
};
