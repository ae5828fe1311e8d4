// Pixi's shader and uniform code without new Function(): the console's CSP has no 'unsafe-eval'.
import 'pixi.js/unsafe-eval';
import { Application, Container } from 'pixi.js';
import { BehaviorSubject, type Observable, Subject, type Subscription } from 'rxjs';
import type { Floor, LongLat, Zone } from '../../domain/floor';
import { floorTransform, type GeoPoint, type ImagePoint } from '../../domain/geo';
import type { WorkerOnMap } from '../../domain/inventory';
import type { WorkerMap } from '../../streams/workerMapState';
import { shouldAntialias } from './antialiasing';
import { BlueprintLayer, sourceSize } from './layers/BlueprintLayer';
import { DraftLayer } from './layers/DraftLayer';
import { EmptyLayer } from './layers/EmptyLayer';
import type { CanvasLayer } from './layers/Layer';
import { SelectionLayer } from './layers/SelectionLayer';
import { WorkersLayer } from './layers/WorkersLayer';
import { ZonesLayer } from './layers/ZonesLayer';
import {
  type GestureEffect,
  type GestureEvent,
  type GestureState,
  gestureTransition,
  IDLE,
} from './pointerGesture';
import { FloorScene, type MarkerColour, worldSize } from './scene';
import {
  BUTTON_ZOOM_FACTOR,
  centreOn,
  fitView,
  imageToScreen,
  type ScreenPoint,
  type Size,
  screenPoint,
  screenToImage,
  type ViewState,
  wheelZoomFactor,
  zoomAt,
  zoomLimits,
} from './viewport';

export type RendererName = 'webgl' | 'webgpu' | 'canvas';
export type CanvasErrorSource = 'renderer' | 'blueprint' | 'corners' | 'zones';

export interface CanvasStatus {
  /** Null until Pixi has picked and started a renderer. */
  readonly renderer: RendererName | null;
  readonly errors: Readonly<Partial<Record<CanvasErrorSource, string>>>;
}

/** A pointer event on the floor, in the blueprint's pixels and on the earth. */
export interface CanvasPointerEvent {
  readonly type: 'down' | 'move' | 'up' | 'dblclick';
  readonly geo: GeoPoint;
  readonly image: ImagePoint;
  readonly screen: ScreenPoint;
  /** The topmost zone under the pointer. */
  readonly zoneId: number | null;
  readonly button: number;
  readonly shiftKey: boolean;
  /** On 'down' only: this press is yours (adding a vertex, moving one); the canvas will not pan or select. */
  claim(): void;
}

/** How near (screen pixels) the pointer must be to a marker to hover or pick it. */
export const WORKER_HIT_PX = 10;

/** The helmet under the pointer, and where the pointer is on the canvas. */
export interface WorkerHover {
  readonly worker: WorkerOnMap;
  readonly screen: ScreenPoint;
}

/** A marker as drawn: image pixels, its spot on the canvas element (CSS pixels) and its colour. */
export interface DrawnWorker {
  readonly inventory_id: number;
  readonly x: number;
  readonly y: number;
  readonly screenX: number;
  readonly screenY: number;
  readonly colour: number;
}

/** What a test (or a debugger) can read off a canvas without looking at pixels. */
export interface CanvasDebugState {
  readonly renderer: RendererName | null;
  readonly view: ViewState;
  readonly selectedZoneId: number | null;
  readonly selectedWorkerId: number | null;
  readonly workers: DrawnWorker[];
}

/**
 * One floor view: a long-lived Pixi application, its world container and ordered layers, and the
 * pan/zoom/select/keyboard interactions. Created once per mounted view, destroyed on unmount;
 * everything else (floor, blueprint, zones, draft, selection) is set on it as it changes.
 * Methods may be called before `ready`: the scene keeps the state and the first frame draws it.
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

  private readonly app = new Application();
  private readonly world = new Container({ label: 'world', eventMode: 'none' });
  private readonly scene = new FloorScene();
  private readonly blueprintLayer = new BlueprintLayer();
  private readonly zonesLayer = new ZonesLayer();
  private readonly workersLayer = new WorkersLayer();
  private readonly layers: CanvasLayer[] = [
    this.blueprintLayer,
    this.zonesLayer,
    new EmptyLayer('walls'),
    new EmptyLayer('anchors'),
    this.workersLayer,
    new EmptyLayer('heatmap'),
    new EmptyLayer('trails'),
    new SelectionLayer(),
    new DraftLayer(),
  ];
  private readonly selection = new BehaviorSubject<Zone | null>(null);
  private readonly pointer = new Subject<CanvasPointerEvent>();
  private readonly status = new BehaviorSubject<CanvasStatus>({ renderer: null, errors: {} });
  private readonly workerHover = new BehaviorSubject<WorkerHover | null>(null);
  private readonly workerSelection = new BehaviorSubject<WorkerOnMap | null>(null);
  private readonly workerCount = new BehaviorSubject<number>(0);
  /** The latest helmets handed over; the scene takes them at the next frame. */
  private workerSource: WorkerMap = new Map();
  private workersSubscription: Subscription | null = null;
  private view: ViewState = { scale: 1, x: 0, y: 0 };
  private screen: Size = { width: 0, height: 0 };
  /** Until the user pans or zooms, the view keeps fitting the floor as the element resizes. */
  private viewTouched = false;
  private gesture: GestureState = IDLE;
  private floor: Floor;
  private blueprint: CanvasImageSource | null = null;
  private zonesSubscription: Subscription | null = null;
  /** A selection asked for before its zone arrived. */
  private pendingSelection: number | null = null;
  private canvas: HTMLCanvasElement | null = null;
  private teardown: (() => void)[] = [];
  private destroyed = false;
  private animationFrame = 0;
  /** Something outside the layers changed (the canvas size): render the next frame. */
  private needsRender = true;
  private renderedView: ViewState | null = null;
  private renderedFrames = 0;
  private renderMs = 0;
  /** Main-thread time of rendered frames: sampling the workers, the layers' updates and the render. */
  private frameMs = 0;

  constructor(
    private readonly host: HTMLElement,
    options: { floor: Floor; label: string },
  ) {
    this.floor = options.floor;
    this.selection$ = this.selection.asObservable();
    this.pointer$ = this.pointer.asObservable();
    this.status$ = this.status.asObservable();
    this.workerHover$ = this.workerHover.asObservable();
    this.workerSelection$ = this.workerSelection.asObservable();
    this.workerCount$ = this.workerCount.asObservable();
    for (const layer of this.layers) layer.attach(this.world);
    this.updateFrame();
    this.ready = this.init(options.label);
  }

  /** Multisampling, unless the renderer is a software rasteriser (see antialiasing.ts). */
  readonly antialias = shouldAntialias();

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
      this.setError('renderer', error instanceof Error ? error.message : String(error));
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
    this.listen(canvas);
    const observer = new ResizeObserver(() => this.resize());
    observer.observe(this.host);
    this.teardown.push(() => observer.disconnect());
    this.resize();
    this.status.next({ ...this.status.value, renderer });
    return renderer;
  }

  // ---- what the view shows

  setFloor(floor: Floor): void {
    const refit = floor.id !== this.floor.id;
    this.floor = floor;
    if (refit) this.viewTouched = false;
    this.updateFrame();
  }

  setLabel(label: string): void {
    this.canvas?.setAttribute('aria-label', label);
  }

  /** The decoded blueprint (the screen fetches it with the token); null shows none. */
  setBlueprint(source: CanvasImageSource | null): void {
    this.blueprint = source;
    try {
      this.blueprintLayer.setSource(source);
      this.setError('blueprint', null);
    } catch (error) {
      this.blueprint = null;
      this.setError('blueprint', error instanceof Error ? error.message : String(error));
    }
    this.updateFrame();
  }

  setZones(zones$: Observable<readonly Zone[]>): void {
    this.zonesSubscription?.unsubscribe();
    this.zonesSubscription = zones$.subscribe({
      next: (zones) => {
        this.scene.setZones(zones);
        this.setError('zones', null);
        if (this.pendingSelection !== null && this.scene.select(this.pendingSelection))
          this.pendingSelection = null;
        this.emitSelection();
      },
      error: (error: unknown) =>
        this.setError('zones', error instanceof Error ? error.message : String(error)),
    });
  }

  /** The polygon being drawn, or null; the rubber band to the pointer is drawn here. */
  setDraft(vertices: readonly LongLat[] | null): void {
    this.scene.setDraft(vertices);
  }

  /** The helmets to show; the canvas samples the latest once per animation frame. */
  setWorkers(workers: WorkerMap): void {
    this.workerSource = workers;
  }

  /** Colours markers by something other than the connection status; null for the default. */
  setMarkerColour(colour: MarkerColour | null): void {
    this.scene.setMarkerColour(colour);
    this.emitWorkerSelection();
  }

  setWorkers$(workers$: Observable<WorkerMap> | null): void {
    this.workersSubscription?.unsubscribe();
    this.workersSubscription = workers$?.subscribe((workers) => this.setWorkers(workers)) ?? null;
  }

  /** The helmet whose marker is nearest to `at`, within WORKER_HIT_PX. */
  workerAt(at: ScreenPoint): WorkerOnMap | null {
    if (this.scene.workerMap !== this.workerSource) this.applyWorkers();
    return this.scene.workers.nearest(screenToImage(this.view, at), WORKER_HIT_PX / this.view.scale);
  }

  selectWorker(inventoryId: number | null): void {
    if (this.scene.workerMap !== this.workerSource) this.applyWorkers();
    this.scene.selectWorker(inventoryId);
    this.emitWorkerSelection();
  }

  get selectedWorkerId(): number | null {
    return this.scene.selectedWorkerId;
  }

  debugState(): CanvasDebugState {
    const workers = this.scene.workers;
    const drawn: DrawnWorker[] = [];
    for (let i = 0; i < workers.count; i++) {
      const x = workers.x(i);
      const y = workers.y(i);
      const screen = imageToScreen(this.view, { x, y } as ImagePoint);
      drawn.push({
        inventory_id: workers.worker(i).inventory_id,
        x,
        y,
        screenX: screen.x,
        screenY: screen.y,
        colour: workers.colour(i),
      });
    }
    return {
      renderer: this.status.value.renderer,
      view: this.view,
      selectedZoneId: this.scene.selectedId,
      selectedWorkerId: this.scene.selectedWorkerId,
      workers: drawn,
    };
  }

  select(id: number | null): void {
    this.pendingSelection = id !== null && !this.scene.zone(id) ? id : null;
    this.scene.select(id);
    this.emitSelection();
  }

  get selectedZoneId(): number | null {
    return this.scene.selectedId;
  }

  // ---- the view

  getView(): ViewState {
    return this.view;
  }

  setView(view: ViewState): void {
    this.view = view;
    this.viewTouched = true;
  }

  zoomIn(): void {
    this.zoomBy(BUTTON_ZOOM_FACTOR, screenPoint(this.screen.width / 2, this.screen.height / 2));
  }

  zoomOut(): void {
    this.zoomBy(1 / BUTTON_ZOOM_FACTOR, screenPoint(this.screen.width / 2, this.screen.height / 2));
  }

  zoomBy(factor: number, anchor: ScreenPoint): void {
    this.setView(zoomAt(this.view, anchor, factor, zoomLimits(this.scene.size, this.screen)));
  }

  fitToFloor(): void {
    this.viewTouched = false;
    if (this.screen.width > 0) this.view = fitView(this.scene.size, this.screen);
  }

  /**
   * Frames rendered, zone rebuilds, and main-thread milliseconds spent in Pixi's render calls so
   * far: tests check that panning never rebuilds the zones; the benchmark splits CPU from GPU.
   */
  stats(): {
    renderedFrames: number;
    zoneRedraws: number;
    workerRedraws: number;
    workersDrawn: number;
    renderMs: number;
    frameMs: number;
    antialias: boolean;
  } {
    return {
      antialias: this.antialias,
      renderedFrames: this.renderedFrames,
      zoneRedraws: this.zonesLayer.redraws,
      workerRedraws: this.workersLayer.redraws,
      workersDrawn: this.scene.workers.count,
      renderMs: this.renderMs,
      frameMs: this.frameMs,
    };
  }

  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    this.zonesSubscription?.unsubscribe();
    this.workersSubscription?.unsubscribe();
    for (const undo of this.teardown) undo();
    this.selection.complete();
    this.workerHover.complete();
    this.workerSelection.complete();
    this.workerCount.complete();
    this.pointer.complete();
    this.status.complete();
    // An application still initialising is destroyed by init() when it finishes.
    if (!this.canvas) return;
    cancelAnimationFrame(this.animationFrame);
    for (const layer of this.layers) layer.destroy();
    this.app.destroy({ removeView: true }, { children: true });
  }

  // ---- internals

  /**
   * Once per animation frame: place the world, let each layer catch up with the scene, and render
   * only if any of that changed. An idle floor costs no GPU time.
   */
  private readonly frame = (): void => {
    if (this.destroyed) return;
    this.animationFrame = requestAnimationFrame(this.frame);
    const frameStarted = performance.now();
    let changed = this.needsRender || this.view !== this.renderedView;
    this.world.position.set(this.view.x, this.view.y);
    this.world.scale.set(this.view.scale);
    if (this.scene.workerMap !== this.workerSource) this.applyWorkers();
    const context = { scene: this.scene, view: this.view };
    for (const layer of this.layers) if (layer.update?.(context)) changed = true;
    if (!changed) return;
    this.needsRender = false;
    this.renderedView = this.view;
    this.renderedFrames++;
    const started = performance.now();
    this.app.render();
    const ended = performance.now();
    this.renderMs += ended - started;
    this.frameMs += ended - frameStarted;
  };

  private applyWorkers(): void {
    this.scene.setWorkers(this.workerSource);
    this.emitWorkerSelection();
    if (!this.destroyed && this.workerCount.value !== this.scene.workers.count)
      this.workerCount.next(this.scene.workers.count);
  }

  private emitWorkerSelection(): void {
    const worker = this.scene.selectedWorker;
    if (worker !== this.workerSelection.value && !this.destroyed) this.workerSelection.next(worker);
  }

  private hover(at: ScreenPoint | null): void {
    const worker = at && this.gesture.kind === 'idle' ? this.workerAt(at) : null;
    if (this.destroyed || worker === (this.workerHover.value?.worker ?? null)) return;
    this.workerHover.next(worker && at ? { worker, screen: at } : null);
    if (this.canvas && this.gesture.kind === 'idle') this.canvas.style.cursor = worker ? 'pointer' : '';
  }

  private updateFrame(): void {
    const size = worldSize(this.floor, this.blueprint ? sourceSize(this.blueprint) : null);
    try {
      this.scene.setFrame(size, floorTransform(this.floor.coordinates, size));
      this.setError('corners', null);
    } catch (error) {
      this.scene.setFrame(size, null);
      this.setError('corners', error instanceof Error ? error.message : String(error));
    }
    this.emitSelection();
    if (!this.viewTouched) this.fitToFloor();
  }

  private resize(): void {
    const width = this.host.clientWidth;
    const height = this.host.clientHeight;
    if (!width || !height || this.destroyed) return;
    this.app.renderer.resize(width, height);
    this.needsRender = true;
    this.screen = { width, height };
    if (!this.viewTouched) this.fitToFloor();
  }

  private emitSelection(): void {
    const id = this.scene.selectedId;
    const zone = id === null ? null : (this.scene.zone(id)?.zone ?? null);
    if (zone !== this.selection.value && !this.destroyed) this.selection.next(zone);
  }

  private setError(source: CanvasErrorSource, message: string | null): void {
    const current = this.status.value;
    if ((current.errors[source] ?? null) === message || this.destroyed) return;
    const errors = { ...current.errors };
    if (message === null) delete errors[source];
    else errors[source] = message;
    this.status.next({ ...current, errors });
  }

  private listen(canvas: HTMLCanvasElement): void {
    const on = <K extends keyof HTMLElementEventMap>(
      type: K,
      handler: (event: HTMLElementEventMap[K]) => void,
      options?: AddEventListenerOptions,
    ) => {
      canvas.addEventListener(type, handler, options);
      this.teardown.push(() => canvas.removeEventListener(type, handler, options));
    };
    on('pointerdown', (e) => {
      const at = this.screenAt(e);
      const claimed = this.emitPointer('down', e, at);
      if (e.button === 0) {
        this.dispatch({ type: 'down', pointerId: e.pointerId, at, view: this.view, claimed });
      }
    });
    on('pointermove', (e) => {
      const at = this.screenAt(e);
      this.scene.setPointer(screenToImage(this.view, at));
      this.emitPointer('move', e, at);
      this.dispatch({ type: 'move', pointerId: e.pointerId, at });
      this.hover(at);
    });
    on('pointerup', (e) => {
      const at = this.screenAt(e);
      this.emitPointer('up', e, at);
      this.dispatch({ type: 'up', pointerId: e.pointerId, at });
    });
    on('pointercancel', () => this.dispatch({ type: 'cancel' }));
    on('lostpointercapture', () => this.dispatch({ type: 'cancel' }));
    on('pointerleave', () => {
      this.scene.setPointer(null);
      this.hover(null);
    });
    on('dblclick', (e) => this.emitPointer('dblclick', e, this.screenAt(e)));
    on(
      'wheel',
      (e) => {
        e.preventDefault();
        this.zoomBy(wheelZoomFactor(e.deltaY, e.deltaMode), this.screenAt(e));
      },
      { passive: false },
    );
    on('keydown', (e) => this.onKey(e));
  }

  private onKey(e: KeyboardEvent): void {
    // Lists run the other way in Arabic; the floor itself never mirrors.
    const rtl = this.canvas ? getComputedStyle(this.canvas).direction === 'rtl' : false;
    const forward = rtl ? 'ArrowLeft' : 'ArrowRight';
    const back = rtl ? 'ArrowRight' : 'ArrowLeft';
    let next: number | null | undefined;
    if (e.key === 'Tab') next = this.scene.neighbour(e.shiftKey ? -1 : 1, false) ?? undefined;
    else if (e.key === forward || e.key === 'ArrowDown') next = this.scene.neighbour(1, true);
    else if (e.key === back || e.key === 'ArrowUp') next = this.scene.neighbour(-1, true);
    else if (e.key === 'Escape') {
      if (this.gesture.kind !== 'idle') this.dispatch({ type: 'cancel' });
      else if (this.scene.selectedWorkerId !== null) {
        // Escape closes the worker's details first; the zone stays selected.
        e.preventDefault();
        this.selectWorker(null);
        return;
      } else next = null;
    } else if (e.key === '+' || e.key === '=') this.zoomIn();
    else if (e.key === '-') this.zoomOut();
    else if (e.key === '0') this.fitToFloor();
    else return;
    // Tab past the last zone (or before the first) leaves the canvas as usual.
    if (e.key === 'Tab' && next === undefined) return;
    e.preventDefault();
    if (next === undefined) return;
    this.select(next);
    if (next !== null) this.reveal(next);
  }

  /** Brings a zone chosen from the keyboard into view when its centre is off screen. */
  private reveal(id: number): void {
    const zone = this.scene.zone(id);
    if (!zone) return;
    const b = zone.bounds;
    const centre = { x: (b.minX + b.maxX) / 2, y: (b.minY + b.maxY) / 2 } as ImagePoint;
    const sx = centre.x * this.view.scale + this.view.x;
    const sy = centre.y * this.view.scale + this.view.y;
    if (sx < 0 || sy < 0 || sx > this.screen.width || sy > this.screen.height) {
      this.setView(centreOn(this.view, centre, this.screen));
    }
  }

  private dispatch(event: GestureEvent): void {
    const { state, effects } = gestureTransition(this.gesture, event);
    this.gesture = state;
    for (const effect of effects) this.apply(effect);
    if (this.canvas && state.kind === 'panning') this.canvas.style.cursor = 'grabbing';
    else if (this.canvas && this.canvas.style.cursor === 'grabbing') this.canvas.style.cursor = '';
  }

  private apply(effect: GestureEffect): void {
    if (effect.type === 'setView') this.setView(effect.view);
    else if (effect.type === 'capture') {
      try {
        this.canvas?.setPointerCapture(effect.pointerId);
      } catch {
        // The pointer is already gone (released between events); the pan ends with its pointerup.
      }
    } else {
      // A marker sits above the zones: a click on one picks the helmet and leaves the zone be.
      const worker = this.workerAt(effect.at);
      this.selectWorker(worker?.inventory_id ?? null);
      if (!worker) this.select(this.scene.hitTest(screenToImage(this.view, effect.at))?.zone.id ?? null);
    }
  }

  private screenAt(e: MouseEvent): ScreenPoint {
    const rect = (this.canvas ?? this.host).getBoundingClientRect();
    return screenPoint(e.clientX - rect.left, e.clientY - rect.top);
  }

  /** Tells subscribers first, so a 'down' they claim never starts a pan; returns whether it was claimed. */
  private emitPointer(type: CanvasPointerEvent['type'], e: MouseEvent, screen: ScreenPoint): boolean {
    const transform = this.scene.transform;
    if (!transform || !this.pointer.observed) return false;
    const image = screenToImage(this.view, screen);
    let claimed = false;
    this.pointer.next({
      type,
      image,
      geo: transform.toGeo(image),
      screen,
      zoneId: this.scene.hitTest(image)?.zone.id ?? null,
      button: e.button,
      shiftKey: e.shiftKey,
      claim: () => {
        claimed = true;
      },
    });
    return claimed;
  }
}
