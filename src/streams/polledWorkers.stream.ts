import {
  asyncScheduler,
  catchError,
  defer,
  EMPTY,
  from,
  map,
  Observable,
  type SchedulerLike,
  switchMap,
  timer,
} from 'rxjs';
import type { WorkerOnMap } from '../domain/inventory';
import type { PolledWorkers } from './workerMapState';

/** The inventory poll under the socket: often enough to heal a missed update, rare enough to cost nothing. */
export const WORKER_POLL_MS = 15_000;

/**
 * Fetches the floor's helmets now and every `periodMs`, each result stamped with when its
 * request left. A failed poll is skipped (the socket is the main source); a slow one is
 * abandoned when the next starts.
 */
export function polledWorkers$(
  fetchWorkers: (signal: AbortSignal) => Promise<readonly WorkerOnMap[]>,
  periodMs = WORKER_POLL_MS,
  scheduler: SchedulerLike = asyncScheduler,
): Observable<PolledWorkers> {
  return timer(0, periodMs, scheduler).pipe(
    switchMap(() =>
      defer(() => {
        const requestedAt = scheduler.now();
        const controller = new AbortController();
        return new Observable<PolledWorkers>((subscriber) => {
          const inner = from(fetchWorkers(controller.signal))
            .pipe(map((workers) => ({ workers, requestedAt })))
            .subscribe(subscriber);
          return () => {
            inner.unsubscribe();
            controller.abort();
          };
        });
      }).pipe(catchError(() => EMPTY)),
    ),
  );
}
