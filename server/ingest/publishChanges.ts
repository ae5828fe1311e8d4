import type { Db } from '../db/database';
import type { CommittedHelmetEvent, LivePublisher } from '../live/liveChanges';
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

/** Everything one committed ingest write has to tell the fan-out, in the order it must hear it. */
export interface CommittedIngest {
  changedInventoryIds?: readonly number[];
  previousFloorById?: ReadonlyMap<number, number | null>;
  helmetEvents?: readonly CommittedHelmetEvent[];
  incidentIds?: readonly number[];
}

/** Positions first, then button presses, then incidents: an acknowledge is judged on the latest position. */
export async function publishCommitted(
  db: Db,
  publisher: LivePublisher | undefined,
  siteId: number,
  committed: CommittedIngest,
): Promise<void> {
  if (!publisher) return;
  if (committed.changedInventoryIds?.length)
    await publishHelmetChanges(
      db,
      publisher,
      siteId,
      committed.changedInventoryIds,
      committed.previousFloorById ?? new Map(),
    );
  if (committed.helmetEvents?.length && publisher.publishHelmetEvents)
    await publisher.publishHelmetEvents(siteId, committed.helmetEvents);
  if (committed.incidentIds?.length && publisher.publishIncidents)
    await publisher.publishIncidents(siteId, committed.incidentIds);
}
