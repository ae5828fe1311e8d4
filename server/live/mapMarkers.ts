import { eq } from 'drizzle-orm';
import type { WorkerOnMap } from '../../src/domain/inventory';
import { markersFor, personalDataReach } from '../../src/domain/personalData';
import type { Role } from '../../src/domain/roles';
import type { Db } from '../db/database';
import { sites } from '../db/schema';
import { currentCrewMembers } from '../workforce/currentCrewMembers';

/** Whoever looks at a map: the user and its role. */
export interface MapViewer {
  id: number;
  role: Role;
}

/**
 * The workers on a map as this viewer may see them (src/domain/personalData.ts, context `map`):
 * a crew manager's current crew members named, every other helmet an anonymous marker.
 */
export async function markersForViewer(
  db: Db,
  viewer: MapViewer,
  siteId: number,
  workers: readonly WorkerOnMap[],
): Promise<WorkerOnMap[]> {
  const reach = personalDataReach(viewer.role, 'map');
  if (reach !== 'currentCrews') return markersFor(reach, workers);
  const worn = workers.flatMap((worker) => (worker.id === null ? [] : [worker.id]));
  if (worn.length === 0) return markersFor(reach, workers);
  const [site] = await db
    .select({ id: sites.id, timezone: sites.timezone })
    .from(sites)
    .where(eq(sites.id, siteId));
  const members = site ? await currentCrewMembers(db, viewer.id, site, worn) : new Set<number>();
  return markersFor(reach, workers, members);
}
