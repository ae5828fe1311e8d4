import { Container, ImageSource, Sprite, Texture } from 'pixi.js';
import type { BlueprintResource } from '../blueprintSource';
import type { CanvasLayer, FrameContext, LayerDefinition } from './Layer';
import { SCENE_INPUTS } from './layerInputs';

/**
 * The floor's blueprint image stretched over the world (its pixel size is the floor's
 * image_properties). The screen fetches the image itself (it needs the bearer token) and the
 * engine checks it before it reaches the scene, so this layer only ever draws a decoded image.
 */
export class BlueprintLayer implements CanvasLayer {
  private readonly container = new Container({ label: 'blueprint', eventMode: 'none' });
  private sprite: Sprite | null = null;
  private texture: Texture | null = null;
  private source: BlueprintResource | null = null;

  attach(world: Container): void {
    world.addChild(this.container);
  }

  update({ scene }: FrameContext): boolean {
    if (scene.blueprint !== this.source) this.show(scene.blueprint);
    if (this.sprite) {
      this.sprite.width = scene.size.width;
      this.sprite.height = scene.size.height;
    }
    return true;
  }

  private show(source: BlueprintResource | null): void {
    this.clear();
    this.source = source;
    if (!source) return;
    this.texture = new Texture({ source: new ImageSource({ resource: source }) });
    this.sprite = new Sprite(this.texture);
    this.container.addChild(this.sprite);
  }

  private clear(): void {
    this.sprite?.destroy();
    this.texture?.destroy(true);
    this.sprite = null;
    this.texture = null;
  }

  destroy(): void {
    this.clear();
    this.container.destroy({ children: true });
  }
}

export const blueprintLayer: LayerDefinition = {
  name: 'blueprint',
  redraw: 'static',
  inputs: [SCENE_INPUTS.blueprint, SCENE_INPUTS.frame],
  create: () => new BlueprintLayer(),
};
