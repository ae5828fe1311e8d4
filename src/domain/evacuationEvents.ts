import type {
  EvacuatingBatch,
  Evacuation,
  EvacuationEnded,
  EvacuationScope,
  EvacuationSnapshot,
} from './evacuation';
import type { WorkerOnMap } from './inventory';
import type { LiveConnectionState } from './liveEvents';

/**
 * What the console's evacuation wall machine hears: its feed's connection state, the
 * evacuation's snapshots, batches and end, the live locations, the officer's commands and the
 * answers to its requests. Shared by the machine and the stream that feeds it.
 */
export type EvacuationEvent =
  | { type: 'connection.changed'; state: LiveConnectionState; reason?: string }
  | { type: 'evacuation.snapshot'; snapshot: EvacuationSnapshot }
  | { type: 'evacuation.none' }
  | { type: 'evacuation.requestFailed'; message: string }
  | { type: 'evacuation.retry' }
  | { type: 'evacuation.batch'; batch: EvacuatingBatch }
  | { type: 'evacuation.ended'; ended: EvacuationEnded }
  | { type: 'location.update'; workers: readonly WorkerOnMap[] }
  | { type: 'evacuation.start'; scope: EvacuationScope }
  | { type: 'start.succeeded'; evacuation: Evacuation }
  | { type: 'start.failed'; message: string }
  | { type: 'evacuation.end' }
  | { type: 'end.succeeded'; evacuation: Evacuation }
  | { type: 'end.failed'; message: string }
  | { type: 'evacuation.reset' };
