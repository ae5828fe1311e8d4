import { connectionStatus, type WorkerOnMap } from '../domain/inventory';

/**
 * Online and active helmets per floor, counted as the server counts a floor's
 * online_active_worker_count (every helmet, worn or not), from a site-wide worker map.
 */
export function onlineActiveByFloor(workers: Iterable<WorkerOnMap>): ReadonlyMap<number, number> {
  const counts = new Map<number, number>();
  for (const worker of workers) {
    if (worker.blueprint_id === null || connectionStatus(worker) !== 'active') continue;
    counts.set(worker.blueprint_id, (counts.get(worker.blueprint_id) ?? 0) + 1);
  }
  return counts;
}
