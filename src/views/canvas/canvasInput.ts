import { type Observable, Subject } from 'rxjs';
import type { CanvasSelection } from './canvasSelection';
import type { CanvasPointerEvent } from './canvasTypes';
import type { CanvasView } from './canvasView';
import {
  type GestureEffect,
  type GestureEvent,
  type GestureState,
  gestureTransition,
  IDLE,
} from './pointerGesture';
import type { FloorScene } from './scene';
import { type ScreenPoint, screenPoint, screenToImage, wheelZoomFactor } from './viewport';

/**
 * The canvas element's pointer, wheel and keys: pans and clicks through the gesture chart
 * (pointerGesture.ts), zoom with the wheel and keys, zone and helmet picking, hover, and every
 * pointer event on the floor told to `pointer$` subscribers first so they can claim a press.
 */
export class CanvasInput {
  private readonly pointer = new Subject<CanvasPointerEvent>();
  readonly pointer$: Observable<CanvasPointerEvent> = this.pointer.asObservable();
  private gesture: GestureState = IDLE;
  private canvas: HTMLCanvasElement | null = null;

  constructor(
    private readonly scene: FloorScene,
    private readonly view: CanvasView,
    private readonly selection: CanvasSelection,
  ) {}

  /** Listens on `canvas`; returns what stops listening. */
  listen(canvas: HTMLCanvasElement): () => void {
    this.canvas = canvas;
    const undo: (() => void)[] = [];
    const on = <K extends keyof HTMLElementEventMap>(
      type: K,
      handler: (event: HTMLElementEventMap[K]) => void,
      options?: AddEventListenerOptions,
    ) => {
      canvas.addEventListener(type, handler, options);
      undo.push(() => canvas.removeEventListener(type, handler, options));
    };
    on('pointerdown', (e) => {
      const at = this.screenAt(e);
      const claimed = this.emitPointer('down', e, at);
      if (e.button === 0) {
        this.dispatch({ type: 'down', pointerId: e.pointerId, at, view: this.view.state, claimed });
      }
    });
    on('pointermove', (e) => {
      const at = this.screenAt(e);
      this.scene.setPointer(screenToImage(this.view.state, at));
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
        this.view.zoomBy(wheelZoomFactor(e.deltaY, e.deltaMode), this.screenAt(e));
      },
      { passive: false },
    );
    on('keydown', (e) => this.onKey(e));
    return () => {
      for (const stop of undo) stop();
    };
  }

  close(): void {
    this.pointer.complete();
  }

  private hover(at: ScreenPoint | null): void {
    const idle = this.gesture.kind === 'idle';
    const worker = at && idle ? this.selection.workerAt(at, this.view.state) : null;
    if (!this.selection.hover(worker, at)) return;
    if (this.canvas && idle) this.canvas.style.cursor = worker ? 'pointer' : '';
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
        this.selection.selectWorker(null);
        return;
      } else next = null;
    } else if (e.key === '+' || e.key === '=') this.view.zoomIn();
    else if (e.key === '-') this.view.zoomOut();
    else if (e.key === '0') this.view.fitToFloor();
    else return;
    // Tab past the last zone (or before the first) leaves the canvas as usual.
    if (e.key === 'Tab' && next === undefined) return;
    e.preventDefault();
    if (next === undefined) return;
    this.selection.selectZone(next);
    const zone = next === null ? undefined : this.scene.zone(next);
    if (zone) this.view.reveal(zone);
  }

  private dispatch(event: GestureEvent): void {
    const { state, effects } = gestureTransition(this.gesture, event);
    this.gesture = state;
    for (const effect of effects) this.apply(effect);
    if (this.canvas && state.kind === 'panning') this.canvas.style.cursor = 'grabbing';
    else if (this.canvas && this.canvas.style.cursor === 'grabbing') this.canvas.style.cursor = '';
  }

  private apply(effect: GestureEffect): void {
    if (effect.type === 'setView') this.view.set(effect.view);
    else if (effect.type === 'capture') {
      try {
        this.canvas?.setPointerCapture(effect.pointerId);
      } catch {
        // The pointer is already gone (released between events); the pan ends with its pointerup.
      }
    } else {
      // A marker sits above the zones: a click on one picks the helmet and leaves the zone be.
      const worker = this.selection.workerAt(effect.at, this.view.state);
      this.selection.selectWorker(worker?.inventory_id ?? null);
      if (!worker) {
        const image = screenToImage(this.view.state, effect.at);
        this.selection.selectZone(this.scene.hitTest(image)?.zone.id ?? null);
      }
    }
  }

  private screenAt(e: MouseEvent): ScreenPoint {
    const rect = (this.canvas ?? (e.currentTarget as HTMLElement)).getBoundingClientRect();
    return screenPoint(e.clientX - rect.left, e.clientY - rect.top);
  }

  /** Tells subscribers first, so a 'down' they claim never starts a pan; returns whether it was claimed. */
  private emitPointer(type: CanvasPointerEvent['type'], e: MouseEvent, screen: ScreenPoint): boolean {
    const transform = this.scene.transform;
    if (!transform || !this.pointer.observed) return false;
    const image = screenToImage(this.view.state, screen);
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
