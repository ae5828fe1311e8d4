import { Container } from 'pixi.js';
import type { CanvasLayer, LayerName } from './Layer';

/** A layer that holds its place in the order until its issue gives it content (walls, anchors, …). */
export class EmptyLayer implements CanvasLayer {
  readonly container = new Container();

  constructor(readonly name: LayerName) {
    this.container.label = name;
    this.container.eventMode = 'none';
  }

  attach(world: Container): void {
    world.addChild(this.container);
  }

  destroy(): void {
    this.container.destroy({ children: true });
  }
}
