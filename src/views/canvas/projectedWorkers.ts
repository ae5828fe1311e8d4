import { type ImagePoint, imagePoint } from '../../domain/geo';
import type { WorkerOnMap } from '../../domain/inventory';

/**
 * The helmets of a frame as parallel arrays (image x, y and marker colour by index): thousands of
 * markers move every frame, so the scene refills these in place instead of allocating an object
 * per marker per frame.
 */
export class ProjectedWorkers {
  private xs = new Float64Array(0);
  private ys = new Float64Array(0);
  private colours = new Uint32Array(0);
  private list: WorkerOnMap[] = [];
  private indexById = new Map<number, number>();
  count = 0;

  /** Empties the set, keeping room for `capacity` helmets. */
  reset(capacity: number): void {
    if (this.xs.length < capacity) {
      const size = Math.max(capacity, this.xs.length * 2, 64);
      this.xs = new Float64Array(size);
      this.ys = new Float64Array(size);
      this.colours = new Uint32Array(size);
    }
    this.count = 0;
    this.list.length = 0;
    this.indexById.clear();
  }

  push(worker: WorkerOnMap, x: number, y: number, colour: number): void {
    const i = this.count++;
    this.xs[i] = x;
    this.ys[i] = y;
    this.colours[i] = colour;
    this.list[i] = worker;
    this.indexById.set(worker.inventory_id, i);
  }

  x(i: number): number {
    return this.xs[i];
  }

  y(i: number): number {
    return this.ys[i];
  }

  colour(i: number): number {
    return this.colours[i];
  }

  worker(i: number): WorkerOnMap {
    return this.list[i];
  }

  has(inventoryId: number): boolean {
    return this.indexById.has(inventoryId);
  }

  get(inventoryId: number): WorkerOnMap | undefined {
    const i = this.indexById.get(inventoryId);
    return i === undefined ? undefined : this.list[i];
  }

  pointOf(inventoryId: number): ImagePoint | null {
    const i = this.indexById.get(inventoryId);
    return i === undefined ? null : imagePoint(this.xs[i], this.ys[i]);
  }

  /**
   * The helmet nearest to `p` within `radius` (image pixels); on a tie the one drawn last, which
   * is the one on top.
   */
  nearest(p: ImagePoint, radius: number): WorkerOnMap | null {
    let best = -1;
    let bestDistance = radius * radius;
    for (let i = 0; i < this.count; i++) {
      const dx = this.xs[i] - p.x;
      const dy = this.ys[i] - p.y;
      const distance = dx * dx + dy * dy;
      if (distance <= bestDistance) {
        best = i;
        bestDistance = distance;
      }
    }
    return best === -1 ? null : this.list[best];
  }
}
