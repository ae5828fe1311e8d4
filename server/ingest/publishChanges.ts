import type { Db } from '../db/database';
import type { LivePublisher } from '../live/liveChanges';
import { selectWorkersOnMap } from '../live/workersOnMap';

/**
 * Hands committed helmet changes of one site to the fan-out. Called only after the transaction
 * that made them has committed, so a socket never shows a position the database does not hold.
 */
export async function publishHelmetChanges(
  db: Db,
  publisher: LivePublisher | undefined,
  siteId: number,
  changedInventoryIds: readonly number[],
  previousFloorById: ReadonlyMap<number, number | null>,
): Promise<void> {
  if (!publisher || changedInventoryIds.length === 0) return;
  const workers = await selectWorkersOnMap(db, { inventoryIds: changedInventoryIds });
  await publisher.publish({
    siteId,
    changes: workers.map((worker) => ({
      worker,
      previousFloorId: previousFloorById.get(worker.inventory_id) ?? null,
    })),
  });
}
