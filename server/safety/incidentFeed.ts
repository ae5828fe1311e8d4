import type { Server } from 'socket.io';
import { SAFETY_EVENTS, type SafetyEventsBatch, safetyRoom } from '../../src/domain/evacuation';
import type { Db } from '../db/database';
import type { LiveServer } from '../live/liveSocketTypes';
import { selectIncidents } from './incidentStore';

/**
 * Tells every socket of a site about incidents the ingest has just committed (`safetyEvents`).
 * Incidents are read back by id, so the event carries the same rows GET …/incident/getAll does.
 */
export function createIncidentFeed(
  io: LiveServer,
  db: Db,
): { publishIncidents(siteId: number, incidentIds: readonly number[]): Promise<void> } {
  return {
    async publishIncidents(siteId, incidentIds) {
      if (incidentIds.length === 0) return;
      const incidents = (await selectIncidents(db, { ids: incidentIds })).filter((i) => i.siteId === siteId);
      if (incidents.length === 0) return;
      const batch: SafetyEventsBatch = { siteId, incidents };
      // The typed server events may not list safetyEvents yet: emit through the untyped view.
      (io as unknown as Server).to(safetyRoom(siteId)).emit(SAFETY_EVENTS.safetyEvents, batch);
    },
  };
}
