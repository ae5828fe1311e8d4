import { BehaviorSubject, type Observable } from 'rxjs';
import type { Zone } from '../../domain/floor';
import type { WorkerOnMap } from '../../domain/inventory';
import type { WorkerMap } from '../../streams/workerMapState';
import { WORKER_HIT_PX, type WorkerHover } from './canvasTypes';
import type { FloorScene } from './scene';
import { type ScreenPoint, screenToImage, type ViewState } from './viewport';

/**
 * What is picked and pointed at on a canvas, told to its subscribers only when it changes: the
 * selected zone, the picked helmet (again with its latest data as it moves), the helmet under
 * the pointer, and how many markers there are. It also holds the latest helmets handed over
 * until the frame (or a pick) takes them into the scene.
 */
export class CanvasSelection {
  private readonly zone = new BehaviorSubject<Zone | null>(null);
  private readonly worker = new BehaviorSubject<WorkerOnMap | null>(null);
  private readonly hovered = new BehaviorSubject<WorkerHover | null>(null);
  private readonly count = new BehaviorSubject<number>(0);
  readonly zone$: Observable<Zone | null> = this.zone.asObservable();
  readonly worker$: Observable<WorkerOnMap | null> = this.worker.asObservable();
  readonly hover$: Observable<WorkerHover | null> = this.hovered.asObservable();
  readonly count$: Observable<number> = this.count.asObservable();
  /** A selection asked for before its zone arrived. */
  private pendingZone: number | null = null;
  private workerSource: WorkerMap = new Map();
  private closed = false;

  constructor(private readonly scene: FloorScene) {}

  selectZone(id: number | null): void {
    this.pendingZone = id !== null && !this.scene.zone(id) ? id : null;
    this.scene.select(id);
    this.emitZone();
  }

  /** The zone list changed: a selection waiting for its zone takes it now. */
  zonesChanged(): void {
    if (this.pendingZone !== null && this.scene.select(this.pendingZone)) this.pendingZone = null;
    this.emitZone();
  }

  emitZone(): void {
    const id = this.scene.selectedId;
    const zone = id === null ? null : (this.scene.zone(id)?.zone ?? null);
    if (zone !== this.zone.value && !this.closed) this.zone.next(zone);
  }

  setWorkers(workers: WorkerMap): void {
    this.workerSource = workers;
  }

  /** Takes the latest helmets into the scene, if they changed since it last did. */
  syncWorkers(): void {
    if (this.scene.workerMap === this.workerSource) return;
    this.scene.setWorkers(this.workerSource);
    this.emitWorker();
    if (!this.closed && this.count.value !== this.scene.workers.count)
      this.count.next(this.scene.workers.count);
  }

  /** The helmet whose marker is nearest to `at`, within WORKER_HIT_PX. */
  workerAt(at: ScreenPoint, view: ViewState): WorkerOnMap | null {
    this.syncWorkers();
    return this.scene.workers.nearest(screenToImage(view, at), WORKER_HIT_PX / view.scale);
  }

  selectWorker(inventoryId: number | null): void {
    this.syncWorkers();
    this.scene.selectWorker(inventoryId);
    this.emitWorker();
  }

  emitWorker(): void {
    const worker = this.scene.selectedWorker;
    if (worker !== this.worker.value && !this.closed) this.worker.next(worker);
  }

  /** Shows `worker` as hovered at `at` (null: none); returns whether that changed anything. */
  hover(worker: WorkerOnMap | null, at: ScreenPoint | null): boolean {
    if (this.closed || worker === (this.hovered.value?.worker ?? null)) return false;
    this.hovered.next(worker && at ? { worker, screen: at } : null);
    return true;
  }

  close(): void {
    this.closed = true;
    this.zone.complete();
    this.hovered.complete();
    this.worker.complete();
    this.count.complete();
  }
}
