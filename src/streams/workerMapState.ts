import type { WorkerOnMap } from '../domain/inventory';
import type { LiveCursor, LiveSnapshot, LocationUpdate } from '../domain/live';

export { type CursorVerdict, cursorVerdict } from '../domain/liveCursor';

/** Helmets by inventory_id. */
export type WorkerMap = ReadonlyMap<number, WorkerOnMap>;

/**
 * The merged live state of one floor (or, with `floorId` null, a whole site): the helmets, the
 * socket cursor the state is at, and when (client clock, ms) live data last arrived, which a
 * poll result must be newer than before it may remove helmets.
 */
export interface WorkerMapState {
  readonly floorId: number | null;
  readonly workers: WorkerMap;
  readonly cursor: LiveCursor | null;
  readonly liveAt: number;
}

/** A polled list, stamped with when the request was sent (the data is at least that fresh). */
export interface PolledWorkers {
  readonly workers: readonly WorkerOnMap[];
  readonly requestedAt: number;
}

export function emptyWorkerMapState(floorId: number | null): WorkerMapState {
  return { floorId, workers: new Map(), cursor: null, liveAt: Number.NEGATIVE_INFINITY };
}

function onFloor(state: WorkerMapState, worker: WorkerOnMap): boolean {
  return state.floorId === null || worker.blueprint_id === state.floorId;
}

/** A snapshot replaces everything: the helmets of the floor, the cursor. */
export function applySnapshot(state: WorkerMapState, snapshot: LiveSnapshot, now: number): WorkerMapState {
  const workers = new Map<number, WorkerOnMap>();
  for (const worker of snapshot.workers) if (onFloor(state, worker)) workers.set(worker.inventory_id, worker);
  return { ...state, workers, cursor: { stream: snapshot.stream, seq: snapshot.seq }, liveAt: now };
}

/**
 * The next batch (the caller has checked the cursor): known helmets change, unknown ones join only
 * when online (spec §4), and a helmet now on another floor has left this one.
 */
export function applyUpdate(state: WorkerMapState, update: LocationUpdate, now: number): WorkerMapState {
  let workers: Map<number, WorkerOnMap> | null = null;
  const edit = () => {
    workers ??= new Map(state.workers);
    return workers;
  };
  for (const worker of update.workers) {
    const known = state.workers.has(worker.inventory_id);
    if (!onFloor(state, worker)) {
      if (known) edit().delete(worker.inventory_id);
    } else if (known || worker.is_online) {
      edit().set(worker.inventory_id, worker);
    }
  }
  return {
    ...state,
    workers: workers ?? state.workers,
    cursor: { stream: update.stream, seq: update.seq },
    liveAt: now,
  };
}

function newer(a: string | null, b: string | null): boolean {
  if (a === null) return false;
  if (b === null) return true;
  return Date.parse(a) > Date.parse(b);
}

/**
 * The safety-net poll. It may only move the state forward: an entry is replaced when the poll saw
 * the helmet more recently, an unknown helmet joins when online, and a helmet missing from the
 * poll is removed only when the request left after the last live data arrived (otherwise the
 * socket may know something younger than the poll).
 */
export function applyPoll(state: WorkerMapState, poll: PolledWorkers): WorkerMapState {
  const workers = new Map(state.workers);
  let changed = false;
  const seen = new Set<number>();
  for (const worker of poll.workers) {
    if (!onFloor(state, worker)) continue;
    seen.add(worker.inventory_id);
    const known = workers.get(worker.inventory_id);
    if (known ? newer(worker.last_seen, known.last_seen) : worker.is_online) {
      workers.set(worker.inventory_id, worker);
      changed = true;
    }
  }
  if (poll.requestedAt > state.liveAt) {
    for (const id of state.workers.keys()) {
      if (!seen.has(id)) {
        workers.delete(id);
        changed = true;
      }
    }
  }
  return changed ? { ...state, workers } : state;
}
