import { LIVE_EVENTS, type LiveSnapshot, liveRoom } from '../../src/domain/live';
import type { Db } from '../db/database';
import { roomBatches } from './liveBatches';
import type { CommittedChanges, LivePublisher } from './liveChanges';
import type { LiveSequence } from './liveSequence';
import type { LiveServer } from './liveSocketTypes';
import { selectWorkersOnMap } from './workersOnMap';

export interface LiveHub extends LivePublisher {
  /** Every helmet with a position on the floor (or the whole site), with the room's cursor. */
  snapshot(siteId: number, floorId: number | null): Promise<LiveSnapshot>;
}

/**
 * The socket fan-out. A room's batches leave in sequence order: publishes are chained, so one
 * that is still waiting for its sequence numbers cannot be overtaken by the next.
 */
export function createLiveHub(io: LiveServer, db: Db, sequence: LiveSequence): LiveHub {
  let previous: Promise<unknown> = Promise.resolve();

  async function emit({ siteId, changes }: CommittedChanges): Promise<void> {
    for (const { floorId, workers } of roomBatches(changes)) {
      const room = liveRoom(siteId, floorId);
      const cursor = await sequence.next(room);
      io.to(room).emit(LIVE_EVENTS.locationUpdate, { ...cursor, siteId, floorId, workers });
    }
  }

  return {
    publish(batch) {
      const published = previous.then(() => emit(batch));
      previous = published.catch(() => {});
      return published;
    },

    async snapshot(siteId, floorId) {
      // The cursor first: whatever is committed after this read reaches the client as an update
      // with a larger seq, so applying only seq > snapshot.seq can never skip a change.
      const cursor = await sequence.current(liveRoom(siteId, floorId));
      const at = new Date().toISOString();
      const workers = await selectWorkersOnMap(db, floorId === null ? { siteId } : { floorId });
      return { ...cursor, siteId, floorId, workers, at };
    },
  };
}
