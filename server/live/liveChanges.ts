import type { WorkerOnMap } from '../../src/domain/inventory';
import type { HelmetEventType } from '../../src/domain/live';

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

/** A helmet button press or alarm as stored (redelivered ones included: receivers are idempotent). */
export interface CommittedHelmetEvent {
  inventoryItemId: number;
  workerId: number | null;
  type: HelmetEventType;
  ts: string;
}

/**
 * The fan-out as the ingest and the offline sweep see it. Each call comes after the commit of
 * what it names, and a site's calls come in commit order.
 */
export interface LivePublisher {
  publish(batch: CommittedChanges): Promise<void>;
  /** Helmet buttons and alarms of one site (the evacuation listens for acknowledge). */
  publishHelmetEvents?(siteId: number, events: readonly CommittedHelmetEvent[]): Promise<void>;
  /** Incidents newly raised on one site, by id (safetyEvents). */
  publishIncidents?(siteId: number, incidentIds: readonly number[]): Promise<void>;
}
