import type { WorkerOnMap } from '../../src/domain/inventory';
import type { HelmetChange } from './liveChanges';

/** What one room hears of a committed batch: `floorId` null is the whole site's room. */
export interface RoomBatch {
  floorId: number | null;
  workers: WorkerOnMap[];
}

/**
 * Splits a site's changes into its rooms: each floor hears the helmets now on it and those that
 * just left it (their blueprint_id tells the client they left); the site room hears them all.
 */
export function roomBatches(changes: readonly HelmetChange[]): RoomBatch[] {
  if (changes.length === 0) return [];
  const byFloor = new Map<number, WorkerOnMap[]>();
  for (const { worker, previousFloorId } of changes) {
    const floors = new Set([worker.blueprint_id, previousFloorId]);
    for (const floorId of floors) {
      if (floorId === null) continue;
      const list = byFloor.get(floorId) ?? [];
      list.push(worker);
      byFloor.set(floorId, list);
    }
  }
  return [
    ...[...byFloor].map(([floorId, workers]) => ({ floorId, workers })),
    { floorId: null, workers: changes.map((change) => change.worker) },
  ];
}
