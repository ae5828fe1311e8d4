import type { WorkerOnMap } from '../../src/domain/inventory';

/**
 * What the ingest hands the fan-out after a commit: the helmets of one site whose state changed,
 * each with the floor it was on before (so the room it left hears that it left).
 */
export interface HelmetChange {
  worker: WorkerOnMap;
  previousFloorId: number | null;
}

export interface CommittedChanges {
  siteId: number;
  changes: HelmetChange[];
}

/** The fan-out as the ingest and the offline sweep see it. */
export interface LivePublisher {
  publish(batch: CommittedChanges): Promise<void>;
}
