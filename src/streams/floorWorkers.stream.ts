import {
  asyncScheduler,
  EMPTY,
  from,
  Observable,
  type ObservableInput,
  type SchedulerLike,
  type Subscription,
} from 'rxjs';
import type { LiveSnapshot, LocationUpdate } from '../domain/live';
import type { LiveEvent } from './liveEvent';
import {
  applyPoll,
  applySnapshot,
  applyUpdate,
  cursorVerdict,
  emptyWorkerMapState,
  type PolledWorkers,
  type WorkerMap,
  type WorkerMapState,
} from './workerMapState';

export interface FloorWorkersSources {
  /** The floor whose helmets to keep; null keeps the whole site (for the site's counts). */
  readonly floorId: number | null;
  /** The socket's events (snapshots after every (re)connect, then update batches). */
  readonly live$: Observable<LiveEvent>;
  /** Asks the server for a fresh snapshot (the socket's acknowledged `requestSnapshot`). */
  requestSnapshot(): ObservableInput<LiveSnapshot>;
  /** The polled list of the floor, the safety net under the socket. */
  readonly poll$?: Observable<PolledWorkers>;
  /** Whose clock stamps live data against poll requests; tests pass their TestScheduler. */
  readonly scheduler?: SchedulerLike;
}

/**
 * One map of the floor's helmets by inventory_id, from the socket and the poll together (DESIGN §5,
 * spec §4). A snapshot replaces the state; an update applies only when it is the next of the same
 * stream, an older one is ignored, and a gap or another stream asks for a snapshot: updates that
 * arrive meanwhile wait and are replayed on top of it. Emits a new map whenever the helmets change.
 */
export function floorWorkers$(sources: FloorWorkersSources): Observable<WorkerMap> {
  const { floorId, live$, poll$ = EMPTY, scheduler = asyncScheduler } = sources;
  return new Observable<WorkerMap>((subscriber) => {
    let state: WorkerMapState = emptyWorkerMapState(floorId);
    let emitted: WorkerMap | null = null;
    /** Updates held back while a snapshot is on its way; null when none is requested. */
    let waiting: LocationUpdate[] | null = null;
    let request: Subscription | null = null;

    const publish = () => {
      if (state.workers === emitted) return;
      emitted = state.workers;
      subscriber.next(state.workers);
    };

    const snapshot = (next: LiveSnapshot) => {
      const held = waiting ?? [];
      waiting = null;
      request?.unsubscribe();
      request = null;
      state = applySnapshot(state, next, scheduler.now());
      // Held updates newer than the snapshot still count; a gap among them waits for the next update.
      for (const update of held) {
        if (cursorVerdict(state.cursor, update) === 'apply')
          state = applyUpdate(state, update, scheduler.now());
      }
      emitted = null;
      publish();
    };

    const resync = (update: LocationUpdate) => {
      waiting = [update];
      request = from(sources.requestSnapshot()).subscribe({
        next: snapshot,
        // A failed request leaves the state as it is; the next update asks again.
        error: () => {
          waiting = null;
          request = null;
        },
      });
    };

    const update = (next: LocationUpdate) => {
      if (waiting) {
        waiting.push(next);
        return;
      }
      const verdict = cursorVerdict(state.cursor, next);
      if (verdict === 'stale') return;
      if (verdict === 'resync') {
        resync(next);
        return;
      }
      state = applyUpdate(state, next, scheduler.now());
      publish();
    };

    const live = live$.subscribe({
      next: (event) => {
        if (event.type === 'snapshot') snapshot(event.snapshot);
        else if (event.type === 'update') update(event.update);
      },
      error: (error: unknown) => subscriber.error(error),
      complete: () => subscriber.complete(),
    });
    const poll = poll$.subscribe({
      next: (result) => {
        state = applyPoll(state, result);
        publish();
      },
      error: (error: unknown) => subscriber.error(error),
    });
    return () => {
      live.unsubscribe();
      poll.unsubscribe();
      request?.unsubscribe();
    };
  });
}
