import { BehaviorSubject, type Observable } from 'rxjs';
import type { CanvasErrorSource, CanvasStatus, RendererName } from './canvasTypes';

/** The renderer a canvas runs on and what it could not draw, told to subscribers when it changes. */
export class CanvasStatusStore {
  private readonly status = new BehaviorSubject<CanvasStatus>({ renderer: null, errors: {} });
  readonly status$: Observable<CanvasStatus> = this.status.asObservable();
  private closed = false;

  get renderer(): RendererName | null {
    return this.status.value.renderer;
  }

  setRenderer(renderer: RendererName): void {
    if (!this.closed) this.status.next({ ...this.status.value, renderer });
  }

  /** Records (or with null, clears) what went wrong with `source`. */
  setError(source: CanvasErrorSource, error: unknown): void {
    const message = error === null ? null : error instanceof Error ? error.message : String(error);
    const current = this.status.value;
    if ((current.errors[source] ?? null) === message || this.closed) return;
    const errors = { ...current.errors };
    if (message === null) delete errors[source];
    else errors[source] = message;
    this.status.next({ ...current, errors });
  }

  close(): void {
    this.closed = true;
    this.status.complete();
  }
}
