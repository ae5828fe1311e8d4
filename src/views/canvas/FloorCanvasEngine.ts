// Pixi's shader and uniform code without new Function(): the console's CSP has no 'unsafe-eval'.
import 'pixi.js/unsafe-eval';
import { Application, Container } from 'pixi.js';
import type { Observable, Subscription } from 'rxjs';
import type { Floor, LongLat, Zone } from '../../domain/floor';
import { floorTransform } from '../../domain/geo';
import type { WorkerOnMap } from '../../domain/inventory';
import type { WorkerMap } from '../../streams/workerMapState';
import { shouldAntialias } from './antialiasing';
import { blueprintResource, sourceSize } from './blueprintSource';
import { CanvasInput } from './canvasInput';
import { CanvasSelection } from './canvasSelection';
import { CanvasStatusStore } from './canvasStatus';
import type {
  CanvasDebugState,
  CanvasPointerEvent,
  CanvasStatus,
  RendererName,
  WorkerHover,
} from './canvasTypes';
import { CanvasView } from './canvasView';
import { type CanvasStats, drawnWorkers, FrameStatistics } from './frameStatistics';
import { LayerStack } from './layers/LayerStack';
import type { LayerData } from './layers/layerInputs';
import { FLOOR_LAYERS, type LayerRegistry } from './layers/registry';
import { FloorScene, type MarkerColour, worldSize } from './scene';
import type { ScreenPoint, ViewState } from './viewport';

export type {
  CanvasDebugState,
  CanvasErrorSource,
  CanvasPointerEvent,
  CanvasStatus,
  DrawnWorker,
  RendererName,
  WorkerHover,
} from './canvasTypes';
export { WORKER_HIT_PX } from './canvasTypes';

export interface FloorCanvasEngineOptions {
  floor: Floor;
  label: string;
  /** The layers to draw, bottom to top; the floor's own (FLOOR_LAYERS) unless a test adds one. */
  layers?: LayerRegistry;
}

/**
 * One floor view: a long-lived Pixi application, its world container and the layers of a
 * registry, and the frame loop that redraws them. Input (canvasInput.ts), what is picked and
 * hovered (canvasSelection.ts), the pan and zoom (canvasView.ts) and the timings
 * (frameStatistics.ts) are modules of their own; the engine never names a layer.
 * Created once per mounted view, destroyed on unmount; everything else (floor, blueprint, zones,
 * draft, selection) is set on it as it changes. Methods may be called before `ready`: the scene
 * keeps the state and the first frame draws it.
 */
export class FloorCanvasEngine {
  readonly ready: Promise<RendererName>;
  readonly selection$: Observable<Zone | null>;
  readonly pointer$: Observable<CanvasPointerEvent>;
  readonly status$: Observable<CanvasStatus>;
  readonly workerHover$: Observable<WorkerHover | null>;
  /** The picked helmet, again with its latest data whenever it changes; null when none or gone. */
  readonly workerSelection$: Observable<WorkerOnMap | null>;
  /** How many markers are on the canvas. */
  readonly workerCount$: Observable<number>;
  /** Multisampling, unless the renderer is a software rasteriser (see antialiasing.ts). */
  readonly antialias = shouldAntialias();

  private readonly app = new Application();
  private readonly world = new Container({ label: 'world', eventMode: 'none' });
  private readonly scene = new FloorScene();
  private readonly layers: LayerStack;
  private readonly view = new CanvasView(this.scene);
  private readonly selection = new CanvasSelection(this.scene);
  private readonly input = new CanvasInput(this.scene, this.view, this.selection);
  private readonly statistics = new FrameStatistics();
  private readonly status = new CanvasStatusStore();
  private readonly subscriptions = new Map<unknown, Subscription>();
  private floor: Floor;
  private canvas: HTMLCanvasElement | null = null;
  private teardown: (() => void)[] = [];
  private destroyed = false;
  private animationFrame = 0;
  /** Something outside the layers changed (the canvas size): render the next frame. */
  private needsRender = true;
  private renderedView: ViewState | null = null;

  constructor(
    private readonly host: HTMLElement,
    options: FloorCanvasEngineOptions,
  ) {
    this.floor = options.floor;
    this.selection$ = this.selection.zone$;
    this.pointer$ = this.input.pointer$;
    this.status$ = this.status.status$;
    this.workerHover$ = this.selection.hover$;
    this.workerSelection$ = this.selection.worker$;
    this.workerCount$ = this.selection.count$;
    this.layers = new LayerStack(options.layers ?? FLOOR_LAYERS, this.world);
    this.updateFrame();
    this.ready = this.init(options.label);
  }

  private async init(label: string): Promise<RendererName> {
    try {
      await this.app.init({
        preference: ['webgl', 'canvas'],
        background: 0xf6f7f9,
        antialias: this.antialias,
        resolution: globalThis.devicePixelRatio || 1,
        autoDensity: true,
        width: Math.max(1, this.host.clientWidth),
        height: Math.max(1, this.host.clientHeight),
        // The engine runs its own frame loop and renders only frames where something changed.
        autoStart: false,
      });
    } catch (error) {
      this.status.setError('renderer', error);
      throw error;
    }
    const renderer = this.app.renderer.name as RendererName;
    if (this.destroyed) {
      this.app.destroy({ removeView: true }, { children: true });
      return renderer;
    }
    const canvas = this.app.canvas;
    this.canvas = canvas;
    canvas.tabIndex = 0;
    canvas.setAttribute('role', 'application');
    canvas.setAttribute('aria-label', label);
    canvas.style.display = 'block';
    canvas.style.touchAction = 'none';
    this.host.appendChild(canvas);
    this.app.stage.addChild(this.world);
    this.animationFrame = requestAnimationFrame(this.frame);
    this.teardown.push(this.input.listen(canvas));
    const observer = new ResizeObserver(() => this.resize());
    observer.observe(this.host);
    this.teardown.push(() => observer.disconnect());
    this.resize();
    this.status.setRenderer(renderer);
    return renderer;
  }

  // ---- what the view shows

  setFloor(floor: Floor): void {
    const refit = floor.id !== this.floor.id;
    this.floor = floor;
    this.updateFrame(refit);
  }

  setLabel(label: string): void {
    this.canvas?.setAttribute('aria-label', label);
  }

  /** The decoded blueprint (the screen fetches it with the token); null shows none. */
  setBlueprint(source: CanvasImageSource | null): void {
    try {
      this.scene.setBlueprint(source ? blueprintResource(source) : null);
      this.status.setError('blueprint', null);
    } catch (error) {
      this.scene.setBlueprint(null);
      this.status.setError('blueprint', error);
    }
    this.updateFrame();
  }

  setZones(zones$: Observable<readonly Zone[]>): void {
    this.subscribe(
      'zones',
      zones$,
      (zones) => {
        this.scene.setZones(zones);
        this.status.setError('zones', null);
        this.selection.zonesChanged();
      },
      (error) => this.status.setError('zones', error),
    );
  }

  /** The polygon being drawn, or null; the rubber band to the pointer is drawn here. */
  setDraft(vertices: readonly LongLat[] | null): void {
    this.scene.setDraft(vertices);
  }

  /** The helmets to show; the canvas samples the latest once per animation frame. */
  setWorkers(workers: WorkerMap): void {
    this.selection.setWorkers(workers);
  }

  setWorkers$(workers$: Observable<WorkerMap> | null): void {
    this.subscribe('workers', workers$, (workers) => this.setWorkers(workers));
  }

  /** Colours markers by something other than the connection status; null for the default. */
  setMarkerColour(colour: MarkerColour | null): void {
    this.scene.setMarkerColour(colour);
    this.selection.emitWorker();
  }

  /** Feeds a layer's own data (see layers/layerInputs.ts) from `source$`; null stops it. */
  bindLayerData<T>(data: LayerData<T>, source$: Observable<T> | null): void {
    this.subscribe(data, source$, (value) => this.scene.setData(data, value));
  }

  /** The helmet whose marker is nearest to `at`, within WORKER_HIT_PX. */
  workerAt(at: ScreenPoint): WorkerOnMap | null {
    return this.selection.workerAt(at, this.view.state);
  }

  selectWorker(inventoryId: number | null): void {
    this.selection.selectWorker(inventoryId);
  }

  get selectedWorkerId(): number | null {
    return this.scene.selectedWorkerId;
  }

  select(id: number | null): void {
    this.selection.selectZone(id);
  }

  get selectedZoneId(): number | null {
    return this.scene.selectedId;
  }

  debugState(): CanvasDebugState {
    return {
      renderer: this.status.renderer,
      view: this.view.state,
      selectedZoneId: this.scene.selectedId,
      selectedWorkerId: this.scene.selectedWorkerId,
      workers: drawnWorkers(this.scene, this.view.state),
    };
  }

  // ---- the view

  getView(): ViewState {
    return this.view.state;
  }

  setView(view: ViewState): void {
    this.view.set(view);
  }

  zoomIn(): void {
    this.view.zoomIn();
  }

  zoomOut(): void {
    this.view.zoomOut();
  }

  zoomBy(factor: number, anchor: ScreenPoint): void {
    this.view.zoomBy(factor, anchor);
  }

  fitToFloor(): void {
    this.view.fitToFloor();
  }

  stats(): CanvasStats {
    return this.statistics.read(this.layers, this.scene, this.antialias);
  }

  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    for (const subscription of this.subscriptions.values()) subscription.unsubscribe();
    for (const undo of this.teardown) undo();
    this.selection.close();
    this.input.close();
    this.status.close();
    // An application still initialising is destroyed by init() when it finishes.
    if (!this.canvas) return;
    cancelAnimationFrame(this.animationFrame);
    this.layers.destroy();
    this.app.destroy({ removeView: true }, { children: true });
  }

  // ---- internals

  /**
   * Once per animation frame: place the world, let the layers catch up with the scene, and render
   * only if any of that changed. An idle floor costs no GPU time.
   */
  private readonly frame = (): void => {
    if (this.destroyed) return;
    this.animationFrame = requestAnimationFrame(this.frame);
    const frameStarted = performance.now();
    const view = this.view.state;
    let changed = this.needsRender || view !== this.renderedView;
    this.world.position.set(view.x, view.y);
    this.world.scale.set(view.scale);
    this.selection.syncWorkers();
    if (this.layers.update({ scene: this.scene, view })) changed = true;
    if (!changed) return;
    this.needsRender = false;
    this.renderedView = view;
    this.statistics.timeRender(frameStarted, () => this.app.render());
  };

  /** Replaces the subscription kept under `key` with one to `source$` (none when null). */
  private subscribe<T>(
    key: unknown,
    source$: Observable<T> | null,
    next: (value: T) => void,
    error?: (error: unknown) => void,
  ): void {
    this.subscriptions.get(key)?.unsubscribe();
    this.subscriptions.delete(key);
    const subscription = source$?.subscribe(error ? { next, error } : next);
    if (subscription && !subscription.closed) this.subscriptions.set(key, subscription);
  }

  /** Projects everything again for the floor's size and corners; `refit` fits a new floor. */
  private updateFrame(refit = false): void {
    const blueprint = this.scene.blueprint;
    const size = worldSize(this.floor, blueprint ? sourceSize(blueprint) : null);
    try {
      this.scene.setFrame(size, floorTransform(this.floor.coordinates, size));
      this.status.setError('corners', null);
    } catch (error) {
      this.scene.setFrame(size, null);
      this.status.setError('corners', error);
    }
    this.selection.emitZone();
    this.view.refit(refit);
  }

  private resize(): void {
    const width = this.host.clientWidth;
    const height = this.host.clientHeight;
    if (!width || !height || this.destroyed) return;
    this.app.renderer.resize(width, height);
    this.needsRender = true;
    this.view.resize(width, height);
  }
}
