import { combineLatest, map, Observable, scan, startWith } from 'rxjs';
import type { EvacuationWorker, NetworkFailure } from '../domain/evacuation';
import type { EvacuationEvent } from '../domain/evacuationEvents';
import type { WorkerOnMap } from '../domain/inventory';
import type { SafetyChannelEvent } from '../domain/liveEvents';
import { helmetState } from '../domain/personalData';
import type { WorkerMap } from './workerMapState';

export type { SafetyChannelEvent, SafetySocketEvent } from '../domain/liveEvents';

/**
 * The evacuation machine's events from the site's socket: its connection state, the evacuation's
 * snapshots, batches and end, and the live locations (a live snapshot counts as locations too).
 * Payloads of another site are dropped, whatever the server sent.
 */
export function evacuationEvents$(
  siteId: number,
  source$: Observable<SafetyChannelEvent>,
): Observable<EvacuationEvent> {
  return new Observable<EvacuationEvent>((subscriber) =>
    source$.subscribe({
      next: (event) => {
        const next = toMachineEvent(siteId, event);
        if (next) subscriber.next(next);
      },
      error: (error: unknown) => subscriber.error(error),
      complete: () => subscriber.complete(),
    }),
  );
}

function toMachineEvent(siteId: number, event: SafetyChannelEvent): EvacuationEvent | null {
  switch (event.type) {
    case 'connection':
      return event.reason === undefined
        ? { type: 'connection.changed', state: event.state }
        : { type: 'connection.changed', state: event.state, reason: event.reason };
    case 'evacuationInProgress':
      return event.snapshot.evacuation.siteId === siteId
        ? { type: 'evacuation.snapshot', snapshot: event.snapshot }
        : null;
    case 'evacuating':
      return event.batch.siteId === siteId ? { type: 'evacuation.batch', batch: event.batch } : null;
    case 'evacuationEnded':
      return event.ended.siteId === siteId ? { type: 'evacuation.ended', ended: event.ended } : null;
    case 'snapshot':
      return event.snapshot.siteId === siteId
        ? { type: 'location.update', workers: event.snapshot.workers }
        : null;
    case 'update':
      return event.update.siteId === siteId
        ? { type: 'location.update', workers: event.update.workers }
        : null;
    default:
      return null;
  }
}

/** The networks silent right now (spec §7 networkFailure), by id; a network heard again leaves. */
export function failedNetworks$(
  siteId: number,
  source$: Observable<SafetyChannelEvent>,
): Observable<ReadonlyMap<number, NetworkFailure>> {
  const none: ReadonlyMap<number, NetworkFailure> = new Map();
  return source$.pipe(
    scan((failed, event) => {
      if (event.type !== 'networkFailure' || event.failure.siteId !== siteId) return failed;
      const next = new Map(failed);
      if (event.failure.failed) next.set(event.failure.networkId, event.failure);
      else next.delete(event.failure.networkId);
      return next;
    }, none),
    startWith(none),
  );
}

/**
 * One floor's markers during an evacuation: the site's live helmets on that floor, each included
 * worker's evacuation fields laid over its helmet (the fresher position of the two wins), so the
 * canvas colours it by its evacuation status. An included worker the live map lacks still shows.
 */
export function evacuationMarkers$(
  floorId: number,
  siteLive$: Observable<WorkerMap>,
  included$: Observable<ReadonlyMap<number, EvacuationWorker>>,
): Observable<WorkerMap> {
  return combineLatest([siteLive$.pipe(startWith(new Map() as WorkerMap)), included$]).pipe(
    map(([live, included]) => {
      const markers = new Map<number, WorkerOnMap>();
      for (const helmet of live.values())
        if (helmet.blueprint_id === floorId) markers.set(helmet.inventory_id, helmet);
      for (const worker of included.values()) {
        const helmet = live.get(worker.inventory_id);
        // The live helmet may be an anonymous marker (safety-demo): only its state is laid over.
        const marker = helmet && newer(helmet, worker) ? { ...worker, ...helmetState(helmet) } : worker;
        if (marker.blueprint_id === floorId) markers.set(worker.inventory_id, marker);
        else markers.delete(worker.inventory_id);
      }
      return markers;
    }),
  );
}

function newer(a: WorkerOnMap, b: WorkerOnMap): boolean {
  if (a.last_seen === null) return false;
  return b.last_seen === null || Date.parse(a.last_seen) > Date.parse(b.last_seen);
}

/** Whether a marker carries an evacuation status (an included worker). */
export function isEvacuationMarker(worker: WorkerOnMap): worker is EvacuationWorker {
  return (worker as Partial<EvacuationWorker>).isIncludedEvacuation === true;
}
