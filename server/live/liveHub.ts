import type { WorkerOnMap } from '../../src/domain/inventory';
import { LIVE_EVENTS, type LiveSnapshot, type LocationUpdate, liveRoom } from '../../src/domain/live';
import { anonymousMarker, markersFor } from '../../src/domain/personalData';
import type { Db } from '../db/database';
import { currentMembersByManager } from '../workforce/currentCrewMembers';
import { audienceRoom, crewManagerRoom } from './liveAudience';
import { roomBatches } from './liveBatches';
import type { CommittedChanges, LivePublisher } from './liveChanges';
import type { LiveSequence } from './liveSequence';
import type { LiveServer } from './liveSocketTypes';
import { type MapViewer, markersForViewer } from './mapMarkers';
import { selectWorkersOnMap } from './workersOnMap';

export interface LiveHub extends LivePublisher {
  /**
   * Every helmet with a position on the floor (or the whole site), as this viewer may see it,
   * with the room's cursor.
   */
  snapshot(siteId: number, floorId: number | null, viewer: MapViewer): Promise<LiveSnapshot>;
}

/**
 * The socket fan-out. A room's batches leave in sequence order: publishes are chained, so one
 * that is still waiting for its sequence numbers cannot be overtaken by the next. Each batch goes
 * to the room's audiences (liveAudience.ts) with the same cursor, its workers named or anonymous
 * as each audience may see them.
 */
export function createLiveHub(
  io: LiveServer,
  db: Db,
  sequence: LiveSequence,
  options: { roomsAreLocal: boolean },
): LiveHub {
  let previous: Promise<unknown> = Promise.resolve();

  /** Whether some crew manager may be listening: known for certain only when every socket is this process's. */
  function crewManagersMayListen(siteId: number, floorIds: readonly (number | null)[]): boolean {
    if (!options.roomsAreLocal) return true;
    const rooms = io.of('/').adapter.rooms;
    return floorIds.some((floorId) => rooms.has(audienceRoom(liveRoom(siteId, floorId), 'currentCrews')));
  }

  async function emit({ siteId, changes }: CommittedChanges): Promise<void> {
    const batches = roomBatches(changes);
    if (batches.length === 0) return;
    const anonymous = new Map<number, WorkerOnMap>();
    for (const { worker } of changes) anonymous.set(worker.inventory_id, anonymousMarker(worker));
    const worn = [...new Set(changes.flatMap(({ worker }) => (worker.id === null ? [] : [worker.id])))];
    const membersByManager = crewManagersMayListen(
      siteId,
      batches.map((batch) => batch.floorId),
    )
      ? await currentMembersByManager(db, siteId, worn)
      : new Map<number, Set<number>>();

    for (const { floorId, workers } of batches) {
      const room = liveRoom(siteId, floorId);
      const cursor = await sequence.next(room);
      const update = (list: WorkerOnMap[]): LocationUpdate => ({ ...cursor, siteId, floorId, workers: list });
      const anonymousUpdate = update(workers.map((worker) => anonymous.get(worker.inventory_id) ?? worker));
      io.to(audienceRoom(room, 'all')).emit(LIVE_EVENTS.locationUpdate, update(workers));
      io.to(audienceRoom(room, 'none')).emit(LIVE_EVENTS.locationUpdate, anonymousUpdate);

      const personalised: string[] = [];
      for (const [userId, members] of membersByManager) {
        if (!workers.some((worker) => worker.id !== null && members.has(worker.id))) continue;
        const own = crewManagerRoom(room, userId);
        personalised.push(own);
        io.to(own).emit(LIVE_EVENTS.locationUpdate, update(markersFor('currentCrews', workers, members)));
      }
      io.to(audienceRoom(room, 'currentCrews'))
        .except(personalised)
        .emit(LIVE_EVENTS.locationUpdate, anonymousUpdate);
    }
  }

  return {
    publish(batch) {
      const published = previous.then(() => emit(batch));
      previous = published.catch(() => {});
      return published;
    },

    async snapshot(siteId, floorId, viewer) {
      // The cursor first: whatever is committed after this read reaches the client as an update
      // with a larger seq, so applying only seq > snapshot.seq can never skip a change.
      const cursor = await sequence.current(liveRoom(siteId, floorId));
      const at = new Date().toISOString();
      const onMap = await selectWorkersOnMap(db, floorId === null ? { siteId } : { floorId });
      const workers = await markersForViewer(db, viewer, siteId, onMap);
      return { ...cursor, siteId, floorId, workers, at };
    },
  };
}
